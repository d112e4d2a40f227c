package io.cairn.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.protocol.buffer.BufferReader;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Decoding and encoding rules of record batches, one rule per test. */
final class RecordBatchCodecTest {

  @Test
  void shouldRejectUnknownVersion() {
    UnsafeBuffer buffer = encode(batchAt(1, 2));
    buffer.putByte(RecordBatchDescriptor.VERSION_OFFSET, (byte) 7);

    assertThatThrownBy(() -> RecordBatchCodec.decode(buffer, 0, buffer.capacity()))
        .isInstanceOf(ProtocolException.class)
        .hasMessage("Expected protocol version 1, but was 7 (offset 0)");
  }

  @Test
  void shouldRejectTruncatedHeader() {
    UnsafeBuffer buffer = encode(batchAt(1));

    assertThatThrownBy(() -> RecordBatchCodec.readHeader(buffer, 0, 20))
        .hasMessage(
            "Expected at least 21 bytes for record batch header, but buffer has 20 (offset 0)");
  }

  @Test
  void shouldRejectZeroRecords() {
    UnsafeBuffer buffer = encode(batchAt(1));
    buffer.putInt(RecordBatchDescriptor.RECORD_COUNT_OFFSET, 0, BufferReader.BYTE_ORDER);

    assertThatThrownBy(() -> RecordBatchCodec.decode(buffer, 0, buffer.capacity()))
        .hasMessage(
            "Expected a record count in [1, 1] for the 83 bytes after the batch header, but was 0"
                + " (offset 1)");
  }

  @Test
  void shouldRejectNegativeRecordCount() {
    UnsafeBuffer buffer = encode(batchAt(1));
    buffer.putInt(RecordBatchDescriptor.RECORD_COUNT_OFFSET, -1, BufferReader.BYTE_ORDER);

    assertThatThrownBy(() -> RecordBatchCodec.readHeader(buffer, 0, buffer.capacity()))
        .hasMessageContaining("but was -1 (offset 1)");
  }

  @Test
  void shouldRejectCountLargerThanTheBytesCouldHold() {
    UnsafeBuffer buffer = encode(batchAt(1, 2));
    buffer.putInt(RecordBatchDescriptor.RECORD_COUNT_OFFSET, 3, BufferReader.BYTE_ORDER);

    assertThatThrownBy(() -> RecordBatchCodec.decode(buffer, 0, buffer.capacity()))
        .hasMessage(
            "Expected a record count in [1, 2] for the 166 bytes after the batch header, but was 3"
                + " (offset 1)");
  }

  @Test
  void shouldRejectCountSmallerThanTheRecords() {
    UnsafeBuffer buffer = encode(batchAt(1, 2));
    buffer.putInt(RecordBatchDescriptor.RECORD_COUNT_OFFSET, 1, BufferReader.BYTE_ORDER);

    assertThatThrownBy(() -> RecordBatchCodec.decode(buffer, 0, buffer.capacity()))
        .hasMessage("Expected record batch to end at offset 104, but 83 more bytes follow");
  }

  @Test
  void shouldRejectHeaderPositionsThatDisagreeWithRecords() {
    UnsafeBuffer buffer = encode(batchAt(5, 6));
    buffer.putLong(RecordBatchDescriptor.HIGHEST_POSITION_OFFSET, 9, BufferReader.BYTE_ORDER);

    assertThatThrownBy(() -> RecordBatchCodec.decode(buffer, 0, buffer.capacity()))
        .hasMessage(
            "Expected the batch header's positions [5, 9] to match its records' [5, 6] (batch at"
                + " offset 0)");
  }

  @Test
  void shouldRejectLowestPositionAboveHighest() {
    UnsafeBuffer buffer = encode(batchAt(5, 6));
    buffer.putLong(RecordBatchDescriptor.LOWEST_POSITION_OFFSET, 7, BufferReader.BYTE_ORDER);

    assertThatThrownBy(() -> RecordBatchCodec.readHeader(buffer, 0, buffer.capacity()))
        .hasMessage("Expected lowest position <= highest position, but were 7 and 6 (offset 5)");
  }

  @Test
  void shouldRejectPositionsThatDoNotIncrease() {
    UnsafeBuffer buffer = encode(batchAt(5, 6));
    int secondRecord = RecordBatchDescriptor.HEADER_LENGTH + 83;
    buffer.putLong(secondRecord + RecordDescriptor.POSITION_OFFSET, 5, BufferReader.BYTE_ORDER);
    buffer.putLong(RecordBatchDescriptor.HIGHEST_POSITION_OFFSET, 5, BufferReader.BYTE_ORDER);

    assertThatThrownBy(() -> RecordBatchCodec.decode(buffer, 0, buffer.capacity()))
        .hasMessage(
            "Expected strictly increasing positions in a batch, but record 1 has position 5 after 5"
                + " (batch at offset 0)");
  }

  @Test
  void shouldRejectBrokenRecordInsideBatchWithItsOffset() {
    UnsafeBuffer buffer = encode(batchAt(5, 6));
    int secondRecord = RecordBatchDescriptor.HEADER_LENGTH + 83;
    buffer.putByte(secondRecord + RecordDescriptor.VERSION_OFFSET, (byte) 2);

    assertThatThrownBy(() -> RecordBatchCodec.decode(buffer, 0, buffer.capacity()))
        .hasMessage("Expected protocol version 1, but was 2 (offset 104)");
  }

  @Test
  void shouldNotConstructEmptyOrUnorderedBatch() {
    assertThatThrownBy(() -> new RecordBatch(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Expected at least 1 record in a batch, but was 0");
    assertThatThrownBy(() -> batchAt(3, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Expected strictly increasing positions in a batch, but record 1 has position 2 after"
                + " 3");
  }

  @Test
  void shouldReadHeaderOfValidBatch() {
    UnsafeBuffer buffer = encode(batchAt(10, 12, 20));

    assertThat(RecordBatchCodec.readHeader(buffer, 0, buffer.capacity()))
        .isEqualTo(new RecordBatchHeader(3, 10, 20));
  }

  /** A batch of DEPOSIT commands for "alice" (83 bytes each) at the given positions. */
  private static RecordBatch batchAt(long... positions) {
    Record[] records = new Record[positions.length];
    for (int i = 0; i < positions.length; i++) {
      records[i] =
          new Record(
              RecordMetadata.builder()
                  .command(DepositIntent.DEPOSIT)
                  .position(positions[i])
                  .build(),
              new DepositValue("alice", 100 + i));
    }
    return RecordBatch.of(records);
  }

  private static UnsafeBuffer encode(RecordBatch batch) {
    UnsafeBuffer buffer = new UnsafeBuffer(new byte[RecordBatchCodec.encodedLength(batch)]);
    RecordBatchCodec.encode(batch, buffer, 0);
    return buffer;
  }
}
