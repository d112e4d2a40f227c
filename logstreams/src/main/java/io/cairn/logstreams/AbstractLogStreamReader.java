package io.cairn.logstreams;

import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordBatch;
import io.cairn.protocol.RecordBatchCodec;
import java.util.ArrayDeque;
import java.util.NoSuchElementException;
import org.agrona.DirectBuffer;

/**
 * The part of a {@link LogStreamReader} every implementation shares: decoding committed entries
 * into records, skipping the records below the sought position, and failing for good on an entry
 * that cannot be decoded or breaks the position order. An implementation only finds committed
 * entries.
 */
public abstract class AbstractLogStreamReader implements LogStreamReader {

  /**
   * One committed entry of the log.
   *
   * @param lowestPosition the position of its first record, as the log recorded it
   * @param highestPosition the position of its last record, as the log recorded it
   * @param payload the encoded {@link RecordBatch}, exactly
   * @param location where the entry sits, for messages ("raft index 7")
   */
  public record CommittedEntry(
      long lowestPosition, long highestPosition, DirectBuffer payload, String location) {}

  private final int partitionId;
  private final ArrayDeque<Record> buffered = new ArrayDeque<>();
  private long seekPosition = Long.MIN_VALUE;
  private long lastPosition = LogStream.NO_POSITION;
  private long lastEntryHighestPosition = LogStream.NO_POSITION;
  private CorruptedLogException failure;
  private boolean closed;

  protected AbstractLogStreamReader(int partitionId) {
    this.partitionId = partitionId;
  }

  /**
   * The next committed entry after the last one returned, or null if none is committed yet.
   *
   * @throws CorruptedLogException if the log's own framing of the entry is broken
   */
  protected abstract CommittedEntry nextCommittedEntry();

  /**
   * Positions the source so that the next entry returned is the one holding {@code position}, or an
   * earlier one, or — when no entry holds it — the first entry after it. {@link Long#MIN_VALUE}
   * means the first entry of the log.
   */
  protected abstract void positionSource(long position);

  /** Releases what the implementation holds; called once by {@link #close()}. */
  protected void release() {}

  @Override
  public final void seek(long position) {
    ensureOpen();
    buffered.clear();
    seekPosition = position;
    lastPosition = LogStream.NO_POSITION;
    lastEntryHighestPosition = LogStream.NO_POSITION;
    positionSource(position);
  }

  @Override
  public final void seekToFirst() {
    seek(Long.MIN_VALUE);
  }

  /**
   * {@inheritDoc}
   *
   * @throws CorruptedLogException if the next committed entry cannot be decoded
   */
  @Override
  public final boolean hasNext() {
    if (closed) {
      return false;
    }
    if (failure != null) {
      throw failure;
    }
    while (buffered.isEmpty()) {
      CommittedEntry entry = nextCommittedEntry();
      if (entry == null) {
        return false;
      }
      bufferRecords(entry);
    }
    return true;
  }

  @Override
  public final Record next() {
    if (!hasNext()) {
      throw new NoSuchElementException(
          "Expected a committed record after position "
              + lastPosition
              + ", but there is none yet (partition "
              + partitionId
              + ")");
    }
    Record record = buffered.poll();
    lastPosition = record.position();
    return record;
  }

  @Override
  public final void close() {
    if (!closed) {
      closed = true;
      buffered.clear();
      release();
    }
  }

  /** The partition, for messages. */
  protected final int partitionId() {
    return partitionId;
  }

  private void bufferRecords(CommittedEntry entry) {
    RecordBatch batch;
    try {
      batch = RecordBatchCodec.decode(entry.payload(), 0, entry.payload().capacity());
    } catch (ProtocolException e) {
      throw fail(
          "Expected a decodable record batch with positions ["
              + entry.lowestPosition()
              + ", "
              + entry.highestPosition()
              + "], but: "
              + e.getMessage(),
          entry,
          e);
    }
    if (batch.lowestPosition() != entry.lowestPosition()
        || batch.highestPosition() != entry.highestPosition()) {
      throw fail(
          "Expected the batch's positions ["
              + batch.lowestPosition()
              + ", "
              + batch.highestPosition()
              + "] to match the entry's ["
              + entry.lowestPosition()
              + ", "
              + entry.highestPosition()
              + "]",
          entry,
          null);
    }
    if (lastEntryHighestPosition != LogStream.NO_POSITION
        && batch.lowestPosition() <= lastEntryHighestPosition) {
      throw fail(
          "Expected positions above "
              + lastEntryHighestPosition
              + ", but the next committed batch starts at "
              + batch.lowestPosition(),
          entry,
          null);
    }
    lastEntryHighestPosition = batch.highestPosition();
    for (Record record : batch.records()) {
      if (record.position() >= seekPosition) {
        buffered.add(record);
      }
    }
  }

  private CorruptedLogException fail(String message, CommittedEntry entry, Throwable cause) {
    failure =
        new CorruptedLogException(
            message
                + " ("
                + entry.location()
                + ", partition "
                + partitionId
                + "). The log is corrupt or was written by an incompatible version; restore the"
                + " partition from a backup.",
            cause);
    return failure;
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException(
          "Expected an open log stream reader, but it is closed (partition " + partitionId + ")");
    }
  }
}
