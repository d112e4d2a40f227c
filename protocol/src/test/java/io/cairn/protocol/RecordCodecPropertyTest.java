package io.cairn.protocol;

import static io.cairn.protocol.ProtocolGenerators.records;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Encode/decode round trips over generated records; the seeds are fixed, so runs repeat. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
final class RecordCodecPropertyTest {
  private static final long SEED = 0x0CA1_2A11_0001L;
  private static final int EXAMPLES = 400;

  @ParameterizedTest
  @EnumSource(ValueType.class)
  void shouldDecodeWhatWasEncodedForEveryValueType(ValueType valueType) {
    qt().withFixedSeed(SEED + valueType.code())
        .withExamples(EXAMPLES)
        .forAll(records(valueType))
        .checkAssert(
            record -> {
              UnsafeBuffer buffer = new UnsafeBuffer(new byte[RecordCodec.encodedLength(record)]);

              int written = RecordCodec.encode(record, buffer, 0);
              Record decoded = RecordCodec.decode(buffer, 0, written);

              assertThat(written).isEqualTo(buffer.capacity());
              assertThat(decoded).isEqualTo(record);
              assertThat(decoded.metadata().valueType()).isEqualTo(valueType);
            });
  }

  @Test
  void shouldWriteOnlyTheEncodedRangeAtAnyOffset() {
    qt().withFixedSeed(SEED)
        .withExamples(EXAMPLES)
        .forAll(records(), integers().between(0, 64))
        .checkAssert(
            (record, offset) -> {
              int length = RecordCodec.encodedLength(record);
              byte[] bytes = new byte[offset + length + 16];
              Arrays.fill(bytes, (byte) 0x5A);
              UnsafeBuffer buffer = new UnsafeBuffer(bytes);

              int written = RecordCodec.encode(record, buffer, offset);

              assertThat(written).isEqualTo(length);
              for (int i = 0; i < offset; i++) {
                assertThat(bytes[i]).as("byte %d before the record", i).isEqualTo((byte) 0x5A);
              }
              for (int i = offset + length; i < bytes.length; i++) {
                assertThat(bytes[i]).as("byte %d after the record", i).isEqualTo((byte) 0x5A);
              }
              assertThat(RecordCodec.decode(buffer, offset, written)).isEqualTo(record);
            });
  }

  @Test
  void shouldReencodeDecodedRecordToIdenticalBytes() {
    qt().withFixedSeed(SEED + 100)
        .withExamples(EXAMPLES)
        .forAll(records())
        .checkAssert(
            record -> {
              ExpandableArrayBuffer first = new ExpandableArrayBuffer(16);
              int length = RecordCodec.encode(record, first, 0);
              ExpandableArrayBuffer second = new ExpandableArrayBuffer(16);

              int again = RecordCodec.encode(RecordCodec.decode(first, 0, length), second, 0);

              assertThat(again).isEqualTo(length);
              assertThat(Arrays.copyOf(second.byteArray(), length))
                  .isEqualTo(Arrays.copyOf(first.byteArray(), length));
            });
  }
}
