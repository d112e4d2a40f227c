package io.cairn.protocol;

import static io.cairn.protocol.RecordBatchDescriptor.HEADER_LENGTH;
import static io.cairn.protocol.RecordDescriptor.PROTOCOL_VERSION;

import io.cairn.protocol.buffer.BufferReader;
import io.cairn.protocol.buffer.BufferWriter;
import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Encodes and decodes {@link RecordBatch}es in the layout of {@link RecordBatchDescriptor}.
 * Stateless and thread-safe; decoding throws nothing but {@link ProtocolException} for any input
 * and never allocates more than the input's length allows.
 */
public final class RecordBatchCodec {
  private static final String BATCH = "record batch";

  private RecordBatchCodec() {}

  /**
   * The number of bytes {@link #encode} writes for {@code batch}.
   *
   * @throws ProtocolException if a record has a field outside the bounds of the layout
   */
  public static int encodedLength(RecordBatch batch) {
    long length = HEADER_LENGTH;
    for (Record record : batch.records()) {
      length += RecordCodec.encodedLength(record);
    }
    if (length > Integer.MAX_VALUE) {
      throw new ProtocolException(
          "Expected a batch of at most "
              + Integer.MAX_VALUE
              + " bytes, but it needs "
              + length
              + " for "
              + batch.size()
              + " records");
    }
    return (int) length;
  }

  /**
   * Writes {@code batch} at {@code offset}.
   *
   * @return the number of bytes written, {@link #encodedLength(RecordBatch)}
   * @throws ProtocolException if a field is out of bounds, or the buffer is not expandable and too
   *     small; nothing is written then
   */
  public static int encode(RecordBatch batch, MutableDirectBuffer buffer, int offset) {
    int length = encodedLength(batch);
    BufferWriter writer = new BufferWriter(buffer, offset, length, BATCH);
    writer.writeByte(PROTOCOL_VERSION);
    writer.writeInt(batch.size());
    writer.writeLong(batch.lowestPosition());
    writer.writeLong(batch.highestPosition());
    for (Record record : batch.records()) {
      RecordCodec.write(record, writer);
    }
    writer.requireFullyWritten(BATCH);
    return length;
  }

  /**
   * Reads the header of the batch at {@code offset} without decoding its records. Checks the
   * version, the count against {@code length} and that lowest &lt;= highest position.
   *
   * @throws ProtocolException if the header is truncated or invalid
   */
  public static RecordBatchHeader readHeader(DirectBuffer buffer, int offset, int length) {
    return readHeader(new BufferReader(buffer, offset, length));
  }

  /**
   * Reads the batch that fills {@code [offset, offset + length)} exactly.
   *
   * @throws ProtocolException if the bytes are not exactly one valid batch of a known version, or
   *     the header's count and positions disagree with its records
   */
  public static RecordBatch decode(DirectBuffer buffer, int offset, int length) {
    BufferReader reader = new BufferReader(buffer, offset, length);
    RecordBatchHeader header = readHeader(reader);
    // readHeader bounded the count by the bytes left, so this allocation is bounded by the input.
    List<Record> records = new ArrayList<>(header.recordCount());
    for (int i = 0; i < header.recordCount(); i++) {
      records.add(RecordCodec.read(reader));
    }
    reader.requireFullyRead(BATCH);

    String violation = RecordBatch.positionViolation(records);
    if (violation != null) {
      throw new ProtocolException(violation + " (batch at offset " + offset + ")");
    }
    long first = records.get(0).position();
    long last = records.get(records.size() - 1).position();
    if (first != header.lowestPosition() || last != header.highestPosition()) {
      throw new ProtocolException(
          "Expected the batch header's positions ["
              + header.lowestPosition()
              + ", "
              + header.highestPosition()
              + "] to match its records' ["
              + first
              + ", "
              + last
              + "] (batch at offset "
              + offset
              + ")");
    }
    return new RecordBatch(records);
  }

  private static RecordBatchHeader readHeader(BufferReader reader) {
    int start = reader.offset();
    if (reader.remaining() > 0) {
      RecordCodec.checkVersion(reader.peekUnsignedByte("protocol version"), start);
    }
    reader.require(HEADER_LENGTH, "record batch header");
    reader.readUnsignedByte("protocol version");
    int recordCount = reader.readInt("record count");
    long lowestPosition = reader.readLong("lowest position");
    long highestPosition = reader.readLong("highest position");

    int maxRecords = reader.remaining() / RecordDescriptor.HEADER_LENGTH;
    if (recordCount < 1 || recordCount > maxRecords) {
      throw new ProtocolException(
          "Expected a record count in [1, "
              + maxRecords
              + "] for the "
              + reader.remaining()
              + " bytes after the batch header, but was "
              + recordCount
              + " (offset "
              + (start + RecordBatchDescriptor.RECORD_COUNT_OFFSET)
              + ")");
    }
    if (lowestPosition > highestPosition) {
      throw new ProtocolException(
          "Expected lowest position <= highest position, but were "
              + lowestPosition
              + " and "
              + highestPosition
              + " (offset "
              + (start + RecordBatchDescriptor.LOWEST_POSITION_OFFSET)
              + ")");
    }
    return new RecordBatchHeader(recordCount, lowestPosition, highestPosition);
  }
}
