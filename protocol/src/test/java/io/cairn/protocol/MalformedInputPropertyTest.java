package io.cairn.protocol;

import static io.cairn.protocol.ProtocolGenerators.batches;
import static io.cairn.protocol.ProtocolGenerators.records;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Decoding arbitrary, truncated and corrupted bytes: the only failure is a {@link
 * ProtocolException}, and whatever does decode is canonical (it re-encodes to the same bytes). The
 * class timeout guards against hangs.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
final class MalformedInputPropertyTest {
  private static final long SEED = 0x0CA1_2A11_0003L;
  private static final int EXAMPLES = 1_000;

  @Test
  void shouldRejectRandomBytesOnlyWithProtocolException() {
    qt().withFixedSeed(SEED)
        .withExamples(EXAMPLES)
        .forAll(randomBytes(), Generate.booleans())
        .checkAssert(
            (bytes, versionFirst) -> {
              if (versionFirst && bytes.length > 0) {
                // Get past the version check so the rest of the decoder sees the noise.
                bytes[0] = (byte) RecordDescriptor.PROTOCOL_VERSION;
              }
              assertDecodesCanonicallyOrThrowsProtocolException(bytes);
            });
  }

  @Test
  void shouldRejectEveryTruncationOfARecord() {
    qt().withFixedSeed(SEED + 1)
        .withExamples(200)
        .forAll(records())
        .checkAssert(
            record -> {
              byte[] bytes = encode(record);
              for (int length = 0; length < bytes.length; length++) {
                int truncatedLength = length;
                assertThatThrownBy(
                        () -> RecordCodec.decode(new UnsafeBuffer(bytes), 0, truncatedLength))
                    .isInstanceOf(ProtocolException.class);
              }
            });
  }

  @Test
  void shouldRejectEveryTruncationOfABatch() {
    qt().withFixedSeed(SEED + 2)
        .withExamples(50)
        .forAll(batches(5))
        .checkAssert(
            batch -> {
              byte[] bytes = new byte[RecordBatchCodec.encodedLength(batch)];
              RecordBatchCodec.encode(batch, new UnsafeBuffer(bytes), 0);
              for (int length = 0; length < bytes.length; length++) {
                int truncatedLength = length;
                assertThatThrownBy(
                        () -> RecordBatchCodec.decode(new UnsafeBuffer(bytes), 0, truncatedLength))
                    .isInstanceOf(ProtocolException.class);
              }
            });
  }

  @Test
  void shouldDecodeCorruptedRecordsCanonicallyOrRejectThem() {
    qt().withFixedSeed(SEED + 3)
        .withExamples(EXAMPLES)
        .forAll(records(), corruptions())
        .checkAssert(
            (record, corruption) -> {
              byte[] bytes = encode(record);
              applyCorruption(bytes, corruption);
              assertDecodesCanonicallyOrThrowsProtocolException(bytes);
            });
  }

  @Test
  void shouldDecodeCorruptedBatchesCanonicallyOrRejectThem() {
    qt().withFixedSeed(SEED + 4)
        .withExamples(300)
        .forAll(batches(4), corruptions())
        .checkAssert(
            (batch, corruption) -> {
              byte[] bytes = new byte[RecordBatchCodec.encodedLength(batch)];
              RecordBatchCodec.encode(batch, new UnsafeBuffer(bytes), 0);
              applyCorruption(bytes, corruption);
              assertDecodesCanonicallyOrThrowsProtocolException(bytes);
            });
  }

  @Test
  void shouldRejectRangesOutsideTheBuffer() {
    qt().withFixedSeed(SEED + 5)
        .withExamples(EXAMPLES)
        .forAll(integers().between(0, 64), integers().all(), integers().all())
        .checkAssert(
            (capacity, offset, length) -> {
              UnsafeBuffer buffer = new UnsafeBuffer(new byte[capacity]);
              assertOnlyProtocolException(() -> RecordCodec.decode(buffer, offset, length));
              assertOnlyProtocolException(() -> RecordBatchCodec.decode(buffer, offset, length));
              assertOnlyProtocolException(
                  () -> RecordBatchCodec.readHeader(buffer, offset, length));
            });
  }

  /** Random bytes of 0..300 bytes; small values are likelier so lengths and codes hit the edges. */
  private static Gen<byte[]> randomBytes() {
    Gen<Integer> values = Generate.oneOf(integers().between(-128, 127), integers().between(-2, 5));
    return in -> {
      int length = integers().between(0, 300).generate(in);
      byte[] bytes = new byte[length];
      for (int i = 0; i < length; i++) {
        bytes[i] = (byte) (int) values.generate(in);
      }
      return bytes;
    };
  }

  /** 1..4 (index, value) pairs; indexes are taken modulo the input length. */
  private static Gen<List<int[]>> corruptions() {
    Gen<int[]> change =
        integers()
            .between(0, Integer.MAX_VALUE)
            .zip(
                Generate.oneOf(
                    integers().between(-128, 127), Generate.pick(List.of(0, 1, -1, 127))),
                (index, value) -> new int[] {index, value});
    return lists().of(change).ofSizeBetween(1, 4);
  }

  private static void applyCorruption(byte[] bytes, List<int[]> corruption) {
    for (int[] change : corruption) {
      bytes[change[0] % bytes.length] = (byte) change[1];
    }
  }

  private static byte[] encode(Record record) {
    byte[] bytes = new byte[RecordCodec.encodedLength(record)];
    RecordCodec.encode(record, new UnsafeBuffer(bytes), 0);
    return bytes;
  }

  /**
   * Decodes {@code bytes} as a record and as a batch. Each either fails with a ProtocolException or
   * yields a value that re-encodes to exactly {@code bytes}.
   */
  private static void assertDecodesCanonicallyOrThrowsProtocolException(byte[] bytes) {
    DirectBuffer buffer = new UnsafeBuffer(bytes);
    assertCanonicalOrRejected(
        bytes,
        () -> RecordCodec.decode(buffer, 0, bytes.length),
        record -> encode((Record) record));
    assertCanonicalOrRejected(
        bytes,
        () -> RecordBatchCodec.decode(buffer, 0, bytes.length),
        batch -> {
          byte[] again = new byte[RecordBatchCodec.encodedLength((RecordBatch) batch)];
          RecordBatchCodec.encode((RecordBatch) batch, new UnsafeBuffer(again), 0);
          return again;
        });
  }

  private static void assertCanonicalOrRejected(
      byte[] bytes, Decode decode, Function<Object, byte[]> reencode) {
    Object decoded;
    try {
      decoded = decode.run();
    } catch (ProtocolException expected) {
      assertThat(expected.getMessage()).startsWith("Expected");
      return;
    }
    assertThat(reencode.apply(decoded)).isEqualTo(bytes);
  }

  private static void assertOnlyProtocolException(Decode decode) {
    try {
      decode.run();
    } catch (ProtocolException expected) {
      assertThat(expected.getMessage()).startsWith("Expected");
    }
  }

  @FunctionalInterface
  private interface Decode {
    Object run();
  }
}
