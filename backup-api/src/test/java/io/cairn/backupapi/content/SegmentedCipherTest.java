package io.cairn.backupapi.content;

import static io.cairn.backupapi.content.SegmentedCipher.HEADER_BYTES;
import static io.cairn.backupapi.content.SegmentedCipher.SEGMENT_BYTES;
import static io.cairn.backupapi.content.SegmentedCipher.TAG_BYTES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backupapi.content.SegmentedCipher.ObjectAuthenticationException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Random;
import javax.crypto.SecretKey;
import org.junit.jupiter.api.Test;

class SegmentedCipherTest {

  private static final long SEED = Long.getLong("cairn.seed", 20_261_202L);
  private static final byte[] OBJECT =
      "backup 3-1-7/segments/00000001.log".getBytes(StandardCharsets.UTF_8);

  private final Random random = new Random(SEED);
  private final SecureRandom secure = seeded(SEED);
  private final SecretKey key = MasterKeyRing.newDataKey(secure);

  @Test
  void shouldRoundTripEverySizeAroundTheSegmentsWrittenInAnyChunks() throws IOException {
    int[] fixed = {
      0,
      1,
      SEGMENT_BYTES - 1,
      SEGMENT_BYTES,
      SEGMENT_BYTES + 1,
      2 * SEGMENT_BYTES,
      3 * SEGMENT_BYTES + 17,
      16 * SEGMENT_BYTES,
      17 * SEGMENT_BYTES + 1,
      40 * SEGMENT_BYTES + 5
    };
    for (int trial = 0; trial < fixed.length + 30; trial++) {
      int size = trial < fixed.length ? fixed[trial] : random.nextInt(4 * SEGMENT_BYTES + 1);
      byte[] plain = bytes(size);

      byte[] sealed = encrypt(plain, key, OBJECT);

      assertThat(sealed.length)
          .as("stored size of %d bytes (seed %d)", size, SEED)
          .isEqualTo(SegmentedCipher.encryptedSize(size));
      assertThat(decrypt(sealed, key, OBJECT)).as("size %d, seed %d", size, SEED).isEqualTo(plain);
    }
  }

  @Test
  void shouldCountOneTagPerSegmentAndOneEmptyLastSegmentForNothing() {
    assertThat(SegmentedCipher.encryptedSize(0)).isEqualTo(HEADER_BYTES + TAG_BYTES);
    assertThat(SegmentedCipher.encryptedSize(SEGMENT_BYTES))
        .isEqualTo(HEADER_BYTES + SEGMENT_BYTES + TAG_BYTES);
    assertThat(SegmentedCipher.encryptedSize(SEGMENT_BYTES + 1))
        .isEqualTo(HEADER_BYTES + SEGMENT_BYTES + 1 + 2 * TAG_BYTES);
  }

  @Test
  void shouldRefuseEveryFlippedBitBeforeHandingOnAByte() throws IOException {
    byte[] sealed = encrypt(bytes(100), key, OBJECT);
    for (int bit = 0; bit < sealed.length * 8; bit++) {
      byte[] flipped = sealed.clone();
      flipped[bit / 8] ^= (byte) (1 << (bit % 8));

      ByteArrayOutputStream handedOn = new ByteArrayOutputStream();
      assertThatThrownBy(() -> copy(flipped, key, OBJECT, handedOn))
          .as("bit %d of %d", bit, sealed.length * 8)
          .isInstanceOf(ObjectAuthenticationException.class);
      assertThat(handedOn.size()).as("bytes handed on with bit %d flipped", bit).isZero();
    }
  }

  @Test
  void shouldHandOnTheSegmentsBeforeTheFirstBadOneAndNothingOfIt() throws IOException {
    byte[] plain = bytes(3 * SEGMENT_BYTES);
    byte[] sealed = encrypt(plain, key, OBJECT);
    sealed[HEADER_BYTES + (SEGMENT_BYTES + TAG_BYTES) + 5] ^= 1;

    ByteArrayOutputStream handedOn = new ByteArrayOutputStream();
    assertThatThrownBy(() -> copy(sealed, key, OBJECT, handedOn))
        .isInstanceOf(ObjectAuthenticationException.class)
        .hasMessageContaining(
            "segment 1 (stored bytes " + (HEADER_BYTES + SEGMENT_BYTES + TAG_BYTES));
    assertThat(handedOn.toByteArray()).isEqualTo(Arrays.copyOf(plain, SEGMENT_BYTES));
  }

  @Test
  void shouldRefuseAnObjectCutAnywhereAlsoAtASegmentBoundary() throws IOException {
    byte[] sealed = encrypt(bytes(3 * SEGMENT_BYTES + 10), key, OBJECT);
    int segment = SEGMENT_BYTES + TAG_BYTES;
    int[] cuts = {
      0,
      3,
      HEADER_BYTES,
      HEADER_BYTES + 5,
      HEADER_BYTES + segment,
      HEADER_BYTES + 2 * segment,
      HEADER_BYTES + 3 * segment,
      sealed.length - 1
    };
    for (int cut : cuts) {
      byte[] shorter = Arrays.copyOf(sealed, cut);
      assertThatThrownBy(() -> decrypt(shorter, key, OBJECT))
          .as("cut at %d of %d", cut, sealed.length)
          .isInstanceOf(ObjectAuthenticationException.class);
    }
  }

  @Test
  void shouldRefuseAnObjectExtendedMovedOrRepeated() throws IOException {
    byte[] sealed = encrypt(bytes(2 * SEGMENT_BYTES + 10), key, OBJECT);
    int segment = SEGMENT_BYTES + TAG_BYTES;

    byte[] extended = Arrays.copyOf(sealed, sealed.length + 1);
    byte[] swapped = sealed.clone();
    System.arraycopy(sealed, HEADER_BYTES, swapped, HEADER_BYTES + segment, segment);
    System.arraycopy(sealed, HEADER_BYTES + segment, swapped, HEADER_BYTES, segment);
    byte[] repeated = new byte[sealed.length + segment];
    System.arraycopy(sealed, 0, repeated, 0, HEADER_BYTES + segment);
    System.arraycopy(
        sealed, HEADER_BYTES, repeated, HEADER_BYTES + segment, sealed.length - HEADER_BYTES);

    for (byte[] changed : new byte[][] {extended, swapped, repeated}) {
      assertThatThrownBy(() -> decrypt(changed, key, OBJECT))
          .isInstanceOf(ObjectAuthenticationException.class);
    }
  }

  @Test
  void shouldRefuseAnotherObjectsPlaceAndAnotherKey() throws IOException {
    byte[] sealed = encrypt(bytes(1000), key, OBJECT);

    assertThatThrownBy(
            () ->
                decrypt(
                    sealed,
                    key,
                    "backup 3-1-7/segments/00000002.log".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(ObjectAuthenticationException.class)
        .hasMessageContaining("segment 0")
        .hasMessageContaining("is another object, or the key is not the one it was written with");
    assertThatThrownBy(() -> decrypt(sealed, MasterKeyRing.newDataKey(secure), OBJECT))
        .isInstanceOf(ObjectAuthenticationException.class);
  }

  @Test
  void shouldNameWhatIsWrongWithSomethingThatIsNoEncryptedObject() {
    assertThatThrownBy(
            () ->
                decrypt("plain text, not encrypted".getBytes(StandardCharsets.UTF_8), key, OBJECT))
        .isInstanceOf(ObjectAuthenticationException.class)
        .hasMessage(
            "Expected an encrypted object starting with 'CRE1', but it starts with 0x706c6169");
    assertThatThrownBy(() -> decrypt(new byte[5], key, OBJECT))
        .isInstanceOf(ObjectAuthenticationException.class)
        .hasMessage("Expected an encrypted object of at least 28 bytes, but it ends after 5");
  }

  @Test
  void shouldUseAFreshNoncePrefixForEachObject() throws IOException {
    byte[] plain = bytes(10);
    byte[] first = encrypt(plain, key, OBJECT);
    byte[] second = encrypt(plain, key, OBJECT);

    assertThat(Arrays.copyOfRange(first, 4, HEADER_BYTES))
        .isNotEqualTo(Arrays.copyOfRange(second, 4, HEADER_BYTES));
    assertThat(Arrays.copyOfRange(first, HEADER_BYTES, first.length))
        .isNotEqualTo(Arrays.copyOfRange(second, HEADER_BYTES, second.length));
  }

  private byte[] bytes(int size) {
    byte[] bytes = new byte[size];
    random.nextBytes(bytes);
    return bytes;
  }

  /** Encrypts {@code plain}, written in chunks of random sizes, some beyond a segment. */
  private byte[] encrypt(byte[] plain, SecretKey key, byte[] object) throws IOException {
    ByteArrayOutputStream sealed = new ByteArrayOutputStream();
    SegmentedCipher.EncryptingStream out = SegmentedCipher.encrypting(sealed, key, object, secure);
    int at = 0;
    while (at < plain.length) {
      // small chunks fill the buffer; large ones (beyond a segment) are sealed in place
      int bound = random.nextBoolean() ? SEGMENT_BYTES : 4 * SEGMENT_BYTES;
      int n = Math.min(plain.length - at, 1 + random.nextInt(bound));
      if (n == 1) {
        out.write(plain[at]);
      } else {
        out.write(plain, at, n);
      }
      at += n;
    }
    out.finish();
    return sealed.toByteArray();
  }

  private byte[] decrypt(byte[] sealed, SecretKey key, byte[] object) throws IOException {
    ByteArrayOutputStream plain = new ByteArrayOutputStream();
    copy(sealed, key, object, plain);
    return plain.toByteArray();
  }

  /**
   * Decrypts into {@code to}, read in chunks of random sizes: smaller than a segment (through the
   * stream's buffer) and of a segment or more (decrypted straight into the caller's array).
   */
  private void copy(byte[] sealed, SecretKey key, byte[] object, ByteArrayOutputStream to)
      throws IOException {
    try (InputStream in =
        SegmentedCipher.decrypting(new ByteArrayInputStream(sealed), key, object)) {
      byte[] chunk = new byte[3 * SEGMENT_BYTES];
      int n;
      do {
        int length = random.nextBoolean() ? 1 + random.nextInt(7_000) : chunk.length;
        n = in.read(chunk, 0, length);
        if (n > 0) {
          to.write(chunk, 0, n);
        }
      } while (n >= 0);
    }
  }

  private static SecureRandom seeded(long seed) {
    try {
      SecureRandom random = SecureRandom.getInstance("SHA1PRNG");
      random.setSeed(seed);
      return random;
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}
