package io.cairn.logstreams;

import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import java.util.List;

/**
 * Writes batches of records to a {@link LogStream}. A batch becomes one replicated entry: it is
 * committed, or dropped, as a whole.
 *
 * <p>Safe to call from any thread; the positions of concurrent writes never interleave.
 */
public interface LogStreamWriter {

  /**
   * Writes {@code records} as one batch. The writer assigns consecutive positions to them, higher
   * than every position written before, and stamps the log stream's clock time on every record
   * whose timestamp is {@link RecordMetadata#NO_TIMESTAMP}. Every other field is written as given.
   *
   * <p>{@link WriteResult.Written} means the batch was handed to the log; it is readable once
   * committed, and it is not committed yet when this returns. Every other result means nothing was
   * written.
   *
   * @param records at least one record, each with position {@link RecordMetadata#NO_POSITION}
   * @return {@link WriteResult.Written}, {@link WriteResult.Backpressure}, {@link
   *     WriteResult.NotLeader} or {@link WriteResult.TooLarge}
   * @throws IllegalArgumentException if {@code records} is empty or a record has a position
   * @throws ProtocolException if a record cannot be encoded (a field outside the codec's bounds)
   */
  WriteResult tryWrite(List<Record> records);

  /** {@link #tryWrite(List)} of one record. */
  default WriteResult tryWrite(Record record) {
    return tryWrite(List.of(record));
  }
}
