package io.cairn.backupapi.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backupapi.Compression;
import io.cairn.backupapi.FileSetKind;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ContentCodecTest {

  private static final long SEED = Long.getLong("cairn.seed", 7_341L);

  @TempDir Path dir;

  private static CompressionPolicy policy(Compression compression) {
    return new CompressionPolicy(compression, 0, 3);
  }

  private Path file(String name, byte[] bytes) throws IOException {
    return Files.write(dir.resolve(name), bytes);
  }

  private static byte[] text(int size) {
    var builder = new StringBuilder();
    while (builder.length() < size) {
      builder.append("{\"transfer\":").append(builder.length() % 977).append("}\n");
    }
    return Arrays.copyOf(builder.toString().getBytes(StandardCharsets.US_ASCII), size);
  }

  @Test
  void shouldComputeTheStandardCrc32c() throws IOException {
    Path check = file("check", "123456789".getBytes(StandardCharsets.US_ASCII));

    assertThat(ContentEncoder.crc32cOfPrefix(check, 9)).isEqualTo(0xE3069283L);
    assertThat(Crc32c.toHex(0xE3069283L)).isEqualTo("e3069283");
    assertThat(Crc32c.fromHex("e3069283")).isEqualTo(0xE3069283L);
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void shouldRoundTripOnlyTheFixedLengthPrefix(Compression compression) throws IOException {
    byte[] content = text(1_000_000);
    Path source = file("segment", content);
    var stored = new ByteArrayOutputStream();

    EncodedContent encoded =
        ContentEncoder.encode(source, 700_001, policy(compression), ContentCipher.NONE, stored);

    byte[] prefix = Arrays.copyOf(content, 700_001);
    var crc = new CRC32C();
    crc.update(prefix);
    assertThat(encoded.sizeBytes()).isEqualTo(700_001);
    assertThat(encoded.crc32c()).isEqualTo(crc.getValue());
    assertThat(encoded.compression()).isEqualTo(compression);
    assertThat(encoded.storedSizeBytes()).isEqualTo(stored.size());
    if (compression == Compression.ZSTD) {
      assertThat(encoded.storedSizeBytes()).isLessThan(700_001 / 4);
    } else {
      assertThat(stored.toByteArray()).isEqualTo(prefix);
    }
    var restored = new ByteArrayOutputStream();
    AtomicLong progress = new AtomicLong();
    DecodedContent decoded =
        ContentDecoder.decode(
            new ByteArrayInputStream(stored.toByteArray()),
            compression,
            ContentCipher.NONE,
            restored,
            700_001,
            progress::addAndGet);
    assertThat(restored.toByteArray()).isEqualTo(prefix);
    assertThat(decoded).isEqualTo(new DecodedContent(700_001, crc.getValue(), false));
    assertThat(progress.get()).isEqualTo(700_001);
  }

  @Test
  void shouldCompressOnlyFilesAtOrAboveTheThreshold() {
    var policy = CompressionPolicy.zstd(1000);

    assertThat(policy.choose(999)).isEqualTo(Compression.NONE);
    assertThat(policy.choose(1000)).isEqualTo(Compression.ZSTD);
    assertThat(CompressionPolicy.none().choose(10_000_000)).isEqualTo(Compression.NONE);
  }

  @Test
  void shouldFailWhenTheFileIsShorterThanItsFixedLength() throws IOException {
    Path source = file("short", new byte[100]);

    assertThatThrownBy(
            () ->
                ContentEncoder.encode(
                    source,
                    101,
                    CompressionPolicy.none(),
                    ContentCipher.NONE,
                    new ByteArrayOutputStream()))
        .isInstanceOf(EOFException.class)
        .hasMessageContaining("Expected to read 101 bytes of " + source)
        .hasMessageContaining("ends after 100 bytes");
  }

  @Test
  void shouldEncodeAnEmptyFile() throws IOException {
    Path source = file("empty", new byte[0]);
    var stored = new ByteArrayOutputStream();

    EncodedContent encoded =
        ContentEncoder.encode(source, 0, policy(Compression.ZSTD), ContentCipher.NONE, stored);
    DecodedContent decoded =
        ContentDecoder.decode(
            new ByteArrayInputStream(stored.toByteArray()),
            Compression.ZSTD,
            ContentCipher.NONE,
            null,
            0,
            b -> {});

    assertThat(encoded.sizeBytes()).isZero();
    assertThat(decoded.sizeBytes()).isZero();
    assertThat(decoded.crc32c()).isEqualTo(encoded.crc32c());
  }

  @Test
  void shouldFailOnTruncatedZstdFrame() throws IOException {
    var stored = new ByteArrayOutputStream();
    ContentEncoder.encode(
        file("t", text(200_000)), 200_000, policy(Compression.ZSTD), ContentCipher.NONE, stored);
    byte[] truncated = Arrays.copyOf(stored.toByteArray(), stored.size() / 2);

    assertThatThrownBy(
            () ->
                ContentDecoder.decode(
                    new ByteArrayInputStream(truncated),
                    Compression.ZSTD,
                    ContentCipher.NONE,
                    null,
                    200_000,
                    b -> {}))
        .isInstanceOf(IOException.class);
  }

  @Test
  void shouldStopDecodingBeyondTheLimit() throws IOException {
    var stored = new ByteArrayOutputStream();
    ContentEncoder.encode(
        file("big", text(2_000_000)),
        2_000_000,
        policy(Compression.ZSTD),
        ContentCipher.NONE,
        stored);
    var sink = new ByteArrayOutputStream();

    DecodedContent decoded =
        ContentDecoder.decode(
            new ByteArrayInputStream(stored.toByteArray()),
            Compression.ZSTD,
            ContentCipher.NONE,
            sink,
            1000,
            b -> {});

    assertThat(decoded.exceededLimit()).isTrue();
    assertThat(sink.size()).isLessThanOrEqualTo(1000);
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void shouldDetectEveryRandomByteFlip(Compression compression) throws IOException {
    var random = new Random(SEED);
    byte[] content = compression == Compression.ZSTD ? text(50_000) : new byte[50_000];
    random.nextBytes(compression == Compression.ZSTD ? new byte[0] : content);
    var stored = new ByteArrayOutputStream();
    EncodedContent encoded =
        ContentEncoder.encode(
            file("flip", content), content.length, policy(compression), ContentCipher.NONE, stored);
    for (int trial = 0; trial < 200; trial++) {
      byte[] bytes = stored.toByteArray();
      int offset = random.nextInt(bytes.length);
      bytes[offset] ^= (byte) (1 + random.nextInt(255));
      boolean detected;
      try {
        DecodedContent decoded =
            ContentDecoder.decode(
                new ByteArrayInputStream(bytes),
                compression,
                ContentCipher.NONE,
                null,
                content.length,
                b -> {});
        detected =
            decoded.exceededLimit()
                || decoded.sizeBytes() != encoded.sizeBytes()
                || decoded.crc32c() != encoded.crc32c();
      } catch (IOException e) {
        detected = true;
      }
      assertThat(detected).as("flip at %d, trial %d, seed %d", offset, trial, SEED).isTrue();
    }
  }

  // ---------------------------------------------------------------------------- encryption

  private static final FileSetKind KIND = FileSetKind.SEGMENTS;

  private static ContentCipher aes(javax.crypto.SecretKey key, String name) {
    return ContentCipher.aesGcm(key, KIND, name, new java.security.SecureRandom());
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void shouldCompressThenEncryptAndRoundTrip(Compression compression) throws IOException {
    var key = MasterKeyRing.newDataKey(new java.security.SecureRandom());
    byte[] content = text(300_000);
    var stored = new ByteArrayOutputStream();

    EncodedContent encoded =
        ContentEncoder.encode(
            file("sealed", content),
            content.length,
            policy(compression),
            aes(key, "1.log"),
            stored);

    assertThat(encoded.storedSizeBytes()).isEqualTo(stored.size());
    if (compression == Compression.NONE) {
      assertThat(encoded.storedSizeBytes()).isEqualTo(SegmentedCipher.encryptedSize(300_000));
    } else {
      // compressed first: ciphertext would not compress
      assertThat(encoded.storedSizeBytes()).isLessThan(300_000 / 4);
    }
    var restored = new ByteArrayOutputStream();
    DecodedContent decoded =
        ContentDecoder.decode(
            new ByteArrayInputStream(stored.toByteArray()),
            compression,
            aes(key, "1.log"),
            restored,
            content.length,
            b -> {});
    assertThat(restored.toByteArray()).isEqualTo(content);
    assertThat(decoded.crc32c()).isEqualTo(encoded.crc32c());
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void shouldRefuseAnEncryptedObjectUnderAnotherNameOrKey(Compression compression)
      throws IOException {
    var key = MasterKeyRing.newDataKey(new java.security.SecureRandom());
    byte[] content = text(100_000);
    var stored = new ByteArrayOutputStream();
    ContentEncoder.encode(
        file("named", content), content.length, policy(compression), aes(key, "1.log"), stored);
    var otherKey = MasterKeyRing.newDataKey(new java.security.SecureRandom());

    for (ContentCipher reader : List.of(aes(key, "2.log"), aes(otherKey, "1.log"))) {
      var sink = new ByteArrayOutputStream();
      assertThatThrownBy(
              () ->
                  ContentDecoder.decode(
                      new ByteArrayInputStream(stored.toByteArray()),
                      compression,
                      reader,
                      sink,
                      content.length,
                      b -> {}))
          .isInstanceOf(SegmentedCipher.ObjectAuthenticationException.class);
      assertThat(sink.size()).as("nothing unauthenticated is handed on").isZero();
    }
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void shouldDetectEveryRandomByteFlipInAnEncryptedObject(Compression compression)
      throws IOException {
    var random = new Random(SEED);
    var key = MasterKeyRing.newDataKey(new java.security.SecureRandom());
    byte[] content = text(150_000);
    var stored = new ByteArrayOutputStream();
    ContentEncoder.encode(
        file("flip-sealed", content), content.length, policy(compression), aes(key, "x"), stored);
    for (int trial = 0; trial < 100; trial++) {
      byte[] bytes = stored.toByteArray();
      int offset = random.nextInt(bytes.length);
      bytes[offset] ^= (byte) (1 + random.nextInt(255));
      assertThatThrownBy(
              () ->
                  ContentDecoder.decode(
                      new ByteArrayInputStream(bytes),
                      compression,
                      aes(key, "x"),
                      null,
                      content.length,
                      b -> {}))
          .as("flip at %d, trial %d, seed %d", offset, trial, SEED)
          .isInstanceOf(SegmentedCipher.ObjectAuthenticationException.class);
    }
  }
}
