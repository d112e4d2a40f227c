package io.cairn.logstreams;

import io.cairn.protocol.Record;
import io.cairn.protocol.RecordBatch;
import io.cairn.protocol.RecordBatchCodec;
import io.cairn.protocol.RecordMetadata;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Turns the records given to a {@link LogStreamWriter} into the batch that is written: checks them,
 * assigns consecutive positions and stamps the write time, and encodes the batch with {@link
 * RecordBatchCodec}. Shared by every log stream implementation so that they assign positions the
 * same way. Stateless.
 */
public final class LogBatchAssembler {

  private LogBatchAssembler() {}

  /**
   * Checks that {@code records} can be written: at least one, none with a position.
   *
   * @throws IllegalArgumentException if not
   */
  public static void validate(List<Record> records) {
    if (records == null || records.isEmpty()) {
      throw new IllegalArgumentException(
          "Expected at least 1 record to write, but was " + (records == null ? "null" : "0"));
    }
    for (int i = 0; i < records.size(); i++) {
      long position = records.get(i).position();
      if (position != RecordMetadata.NO_POSITION) {
        throw new IllegalArgumentException(
            "Expected records without a position (the writer assigns them), but record "
                + i
                + " has position "
                + position);
      }
    }
  }

  /**
   * The batch to write: record {@code i} gets position {@code lowestPosition + i}, and {@code
   * timestampMillis} if it has {@link RecordMetadata#NO_TIMESTAMP}.
   *
   * @throws IllegalArgumentException if the records are not {@linkplain #validate valid}
   */
  public static RecordBatch assemble(
      List<Record> records, long lowestPosition, long timestampMillis) {
    validate(records);
    List<Record> positioned = new ArrayList<>(records.size());
    long position = lowestPosition;
    for (Record record : records) {
      RecordMetadata metadata = record.metadata();
      RecordMetadata.Builder builder = metadata.toBuilder().position(position++);
      if (metadata.timestamp() == RecordMetadata.NO_TIMESTAMP) {
        builder.timestamp(timestampMillis);
      }
      positioned.add(new Record(builder.build(), record.value()));
    }
    return new RecordBatch(positioned);
  }

  /**
   * The batch encoded by {@link RecordBatchCodec}, in a buffer of exactly its length.
   *
   * @throws io.cairn.protocol.ProtocolException if a record cannot be encoded
   */
  public static UnsafeBuffer encode(RecordBatch batch) {
    UnsafeBuffer buffer = new UnsafeBuffer(new byte[RecordBatchCodec.encodedLength(batch)]);
    RecordBatchCodec.encode(batch, buffer, 0);
    return buffer;
  }
}
