package io.cairn.protocol;

import static io.cairn.protocol.ProtocolGenerators.batches;
import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Batch round trips over generated batches; the seed is fixed, so runs repeat. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
final class RecordBatchCodecPropertyTest {
  private static final long SEED = 0x0CA1_2A11_0002L;

  @Test
  void shouldDecodeWhatWasEncoded() {
    qt().withFixedSeed(SEED)
        .withExamples(200)
        .forAll(batches(20), integers().between(0, 32))
        .checkAssert(
            (batch, offset) -> {
              int length = RecordBatchCodec.encodedLength(batch);
              UnsafeBuffer buffer = new UnsafeBuffer(new byte[offset + length]);

              int written = RecordBatchCodec.encode(batch, buffer, offset);
              RecordBatch decoded = RecordBatchCodec.decode(buffer, offset, written);

              assertThat(written).isEqualTo(length);
              assertThat(decoded).isEqualTo(batch);
              assertThat(decoded.records()).hasSize(batch.size());
            });
  }

  @Test
  void shouldReadHeaderWithoutDecodingRecords() {
    qt().withFixedSeed(SEED + 1)
        .withExamples(200)
        .forAll(batches(20))
        .checkAssert(
            batch -> {
              UnsafeBuffer buffer =
                  new UnsafeBuffer(new byte[RecordBatchCodec.encodedLength(batch)]);
              int written = RecordBatchCodec.encode(batch, buffer, 0);

              RecordBatchHeader header = RecordBatchCodec.readHeader(buffer, 0, written);

              assertThat(header)
                  .isEqualTo(
                      new RecordBatchHeader(
                          batch.size(), batch.lowestPosition(), batch.highestPosition()));
            });
  }

  @Test
  void shouldEncodeToTheSumOfItsRecordsPlusHeader() {
    qt().withFixedSeed(SEED + 2)
        .withExamples(200)
        .forAll(batches(20))
        .checkAssert(
            batch ->
                assertThat(RecordBatchCodec.encodedLength(batch))
                    .isEqualTo(
                        RecordBatchDescriptor.HEADER_LENGTH
                            + batch.records().stream().mapToInt(RecordCodec::encodedLength).sum()));
  }
}
