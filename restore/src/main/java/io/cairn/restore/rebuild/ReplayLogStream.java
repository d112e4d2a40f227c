package io.cairn.restore.rebuild;

import io.cairn.journal.Journal;
import io.cairn.journal.JournalReader;
import io.cairn.journal.JournalRecord;
import io.cairn.logstreams.AbstractLogStreamReader;
import io.cairn.logstreams.CommitListener;
import io.cairn.logstreams.CorruptedLogException;
import io.cairn.logstreams.LogBatchAssembler;
import io.cairn.logstreams.LogStream;
import io.cairn.logstreams.LogStreamReader;
import io.cairn.logstreams.LogStreamWriter;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordBatch;
import io.cairn.raft.log.RaftEntry;
import io.cairn.raft.log.RaftEntryCodec;
import io.cairn.raft.log.RaftEntryType;
import io.cairn.scheduler.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A partition's restored log as a stream processor sees it when a verification rebuilds the state
 * offline: every entry of the (cut) journal is committed; what the processor writes goes to an
 * in-memory tail after it, committed at once and never written to disk. No raft, no replication, no
 * side effect outside this object.
 *
 * <p>{@link #stopReading()} makes every reader return no more entries, so the processor goes idle
 * once the checkpoint was checked. Single-threaded: the verification drives the processor on one
 * thread.
 */
final class ReplayLogStream implements LogStream {

  private final int partitionId;
  private final Journal journal;
  private final Clock clock;
  private final List<AbstractLogStreamReader.CommittedEntry> tail = new ArrayList<>();
  private final List<CommitListener> listeners = new CopyOnWriteArrayList<>();
  private final LogStreamWriter writer = this::write;
  private long lastPosition;
  private boolean stopped;
  private boolean closed;

  /**
   * @param lastPosition the highest position in {@code journal} (the checkpoint position of a cut
   *     log)
   */
  ReplayLogStream(int partitionId, Journal journal, long lastPosition, Clock clock) {
    this.partitionId = partitionId;
    this.journal = journal;
    this.lastPosition = lastPosition;
    this.clock = clock;
  }

  /** From now on readers return no more entries. */
  void stopReading() {
    stopped = true;
  }

  @Override
  public int partitionId() {
    return partitionId;
  }

  @Override
  public LogStreamReader newReader() {
    if (closed) {
      throw new IllegalStateException(
          "Expected an open log stream, but it is closed (partition " + partitionId + ")");
    }
    return new Reader();
  }

  @Override
  public LogStreamWriter writer() {
    return writer;
  }

  @Override
  public LogStreamWriter newLeaderWriter() {
    return writer;
  }

  @Override
  public long commitPosition() {
    return lastPosition;
  }

  @Override
  public long lastWrittenPosition() {
    return lastPosition;
  }

  @Override
  public void addCommitListener(CommitListener listener) {
    listeners.add(listener);
  }

  @Override
  public void removeCommitListener(CommitListener listener) {
    listeners.remove(listener);
  }

  @Override
  public void close() {
    closed = true;
    listeners.clear();
  }

  private WriteResult write(List<Record> records) {
    LogBatchAssembler.validate(records);
    if (closed) {
      return new WriteResult.NotLeader();
    }
    RecordBatch batch = LogBatchAssembler.assemble(records, lastPosition + 1, clock.millis());
    tail.add(
        new AbstractLogStreamReader.CommittedEntry(
            batch.lowestPosition(),
            batch.highestPosition(),
            LogBatchAssembler.encode(batch),
            "in-memory entry " + (tail.size() + 1) + " after the restored log"));
    lastPosition = batch.highestPosition();
    for (CommitListener listener : listeners) {
      listener.onCommit(lastPosition);
    }
    return new WriteResult.Written(batch.lowestPosition(), batch.highestPosition());
  }

  private final class Reader extends AbstractLogStreamReader {
    private final JournalReader entries = journal.openReader();
    private int tailIndex;

    Reader() {
      super(partitionId);
    }

    @Override
    protected CommittedEntry nextCommittedEntry() {
      if (stopped || closed) {
        return null;
      }
      while (entries.hasNext()) {
        JournalRecord record = entries.next();
        RaftEntry entry;
        try {
          entry = RaftEntryCodec.decode(record.data());
        } catch (IllegalArgumentException e) {
          throw new CorruptedLogException(
              "Expected a raft entry at index "
                  + record.index()
                  + ", but: "
                  + e.getMessage()
                  + " (partition "
                  + partitionId
                  + ")",
              e);
        }
        if (entry.type() == RaftEntryType.APPLICATION) {
          return new CommittedEntry(
              entry.lowestPosition(),
              entry.highestPosition(),
              entry.payload(),
              "raft index " + record.index());
        }
      }
      return tailIndex < tail.size() ? tail.get(tailIndex++) : null;
    }

    @Override
    protected void positionSource(long position) {
      tailIndex = 0;
      if (position == Long.MIN_VALUE) {
        entries.seekToFirst();
      } else {
        entries.seekToAsqn(position);
      }
    }

    @Override
    protected void release() {
      entries.close();
    }
  }
}
