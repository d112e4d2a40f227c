package io.cairn.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import java.util.Arrays;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** Codec round trips, and key order equal to value order; the seeds are fixed, so runs repeat. */
final class DbCodecsTest {

  private static final long SEED = 0xC0DE_C500_0001L;
  private static final Gen<String> TEXT =
      strings().betweenCodePoints(1, 0xD7FF).ofLengthBetween(0, 24);
  private static final Gen<byte[]> BYTES =
      lists()
          .of(integers().between(-128, 127))
          .ofSizeBetween(0, 40)
          .map(
              list -> {
                byte[] bytes = new byte[list.size()];
                for (int i = 0; i < bytes.length; i++) {
                  bytes[i] = list.get(i).byteValue();
                }
                return bytes;
              });

  @Test
  void shouldRoundTripLongsInNumericByteOrder() {
    qt().withFixedSeed(SEED)
        .withExamples(1000)
        .forAll(longs().all(), longs().all())
        .checkAssert(
            (a, b) -> {
              assertThat(roundTrip(DbCodecs.LONG, a)).isEqualTo(a);
              assertThat(Integer.signum(compareEncoded(DbCodecs.LONG, a, b)))
                  .isEqualTo(Integer.signum(Long.compare(a, b)));
            });
  }

  @Test
  void shouldRoundTripIntsInNumericByteOrder() {
    qt().withFixedSeed(SEED + 1)
        .withExamples(1000)
        .forAll(integers().all(), integers().all())
        .checkAssert(
            (a, b) -> {
              assertThat(roundTrip(DbCodecs.INT, a)).isEqualTo(a);
              assertThat(Integer.signum(compareEncoded(DbCodecs.INT, a, b)))
                  .isEqualTo(Integer.signum(Integer.compare(a, b)));
            });
  }

  @Test
  void shouldRoundTripStringsAndBytes() {
    qt().withFixedSeed(SEED + 2)
        .withExamples(500)
        .forAll(TEXT, BYTES)
        .checkAssert(
            (text, bytes) -> {
              assertThat(roundTrip(DbCodecs.STRING, text)).isEqualTo(text);
              assertThat(roundTrip(DbCodecs.BYTES, bytes)).isEqualTo(bytes);
            });
  }

  @Test
  void shouldRoundTripCompositeKeysWithAVariablePrefix() {
    CompositeKeyCodec<String, Long> codec = DbCodecs.composite(DbCodecs.STRING, DbCodecs.LONG);
    qt().withFixedSeed(SEED + 3)
        .withExamples(500)
        .forAll(TEXT, longs().all(), TEXT)
        .checkAssert(
            (prefix, suffix, otherPrefix) -> {
              CompositeKey<String, Long> key = CompositeKey.of(prefix, suffix);
              byte[] encoded = encode(codec, key);

              assertThat(roundTrip(codec, key)).isEqualTo(key);
              assertThat(startsWith(encoded, encode(codec.prefixCodec(), prefix))).isTrue();
              assertThat(roundTrip(codec.prefixCodec(), prefix)).isEqualTo(prefix);
              if (!otherPrefix.equals(prefix)) {
                assertThat(startsWith(encoded, encode(codec.prefixCodec(), otherPrefix))).isFalse();
              }
            });
  }

  @Test
  void shouldOrderCompositeKeysByPrefixThenSuffix() {
    CompositeKeyCodec<Long, Long> codec = DbCodecs.composite(DbCodecs.LONG, DbCodecs.LONG);
    qt().withFixedSeed(SEED + 4)
        .withExamples(1000)
        .forAll(longs().between(-3, 3), longs().all(), longs().between(-3, 3), longs().all())
        .checkAssert(
            (p1, s1, p2, s2) -> {
              int expected = p1.equals(p2) ? Long.compare(s1, s2) : Long.compare(p1, p2);

              assertThat(codec.fixedLengthBytes()).isEqualTo(16);
              assertThat(
                      Integer.signum(
                          compareEncoded(codec, CompositeKey.of(p1, s1), CompositeKey.of(p2, s2))))
                  .isEqualTo(Integer.signum(expected));
            });
  }

  private static <T> T roundTrip(DbCodec<T> codec, T value) {
    byte[] bytes = encode(codec, value);
    byte[] shifted = new byte[bytes.length + 7];
    System.arraycopy(bytes, 0, shifted, 7, bytes.length);
    return codec.decode(new UnsafeBuffer(shifted), 7, bytes.length);
  }

  private static <T> byte[] encode(DbCodec<T> codec, T value) {
    ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(4);
    int length = codec.encode(value, buffer, 0);
    return Arrays.copyOf(buffer.byteArray(), length);
  }

  private static <T> int compareEncoded(DbCodec<T> codec, T a, T b) {
    return Arrays.compareUnsigned(encode(codec, a), encode(codec, b));
  }

  private static boolean startsWith(byte[] bytes, byte[] prefix) {
    return bytes.length >= prefix.length
        && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
  }
}
