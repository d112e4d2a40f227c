package io.cairn.broker.partition;

import io.cairn.logstreams.CommitListener;
import io.cairn.logstreams.LogStream;
import io.cairn.logstreams.LogStreamReader;
import io.cairn.logstreams.LogStreamWriter;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.Record;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * The partition's log as one run's stream processor sees it, live only while {@code live} holds.
 * Once it does not (raft installed a snapshot, so the run's state no longer matches the log), the
 * readers return nothing more, the leader writers refuse, and commit listeners are no longer told —
 * so the run can never apply records from after the snapshot to the state from before it, in the
 * moments before the partition closes it.
 *
 * <p>Why this is enough: raft resets the journal and tells its commit listeners (where the fence
 * condition flips) in one step on its thread; entries after the snapshot commit only in later
 * steps. Closing this view does not close the partition's log.
 */
final class FencedLogStream implements LogStream {

  private final LogStream delegate;
  private final BooleanSupplier live;
  private final Map<CommitListener, CommitListener> listeners = new ConcurrentHashMap<>();

  FencedLogStream(LogStream delegate, BooleanSupplier live) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.live = Objects.requireNonNull(live, "live");
  }

  boolean isLive() {
    return live.getAsBoolean();
  }

  @Override
  public int partitionId() {
    return delegate.partitionId();
  }

  @Override
  public LogStreamReader newReader() {
    return new FencedReader(delegate.newReader());
  }

  @Override
  public LogStreamWriter writer() {
    return delegate.writer();
  }

  @Override
  public LogStreamWriter newLeaderWriter() {
    LogStreamWriter writer = delegate.newLeaderWriter();
    return records -> live.getAsBoolean() ? writer.tryWrite(records) : refuse(records);
  }

  private static WriteResult refuse(List<Record> records) {
    Objects.requireNonNull(records, "records");
    return new WriteResult.NotLeader();
  }

  @Override
  public long commitPosition() {
    return delegate.commitPosition();
  }

  @Override
  public long lastWrittenPosition() {
    return delegate.lastWrittenPosition();
  }

  @Override
  public void addCommitListener(CommitListener listener) {
    CommitListener fenced =
        position -> {
          if (live.getAsBoolean()) {
            listener.onCommit(position);
          }
        };
    if (listeners.putIfAbsent(listener, fenced) == null) {
      delegate.addCommitListener(fenced);
    }
  }

  @Override
  public void removeCommitListener(CommitListener listener) {
    CommitListener fenced = listeners.remove(listener);
    if (fenced != null) {
      delegate.removeCommitListener(fenced);
    }
  }

  /** Removes every listener added through this view; the partition's log stays open. */
  @Override
  public void close() {
    listeners.values().forEach(delegate::removeCommitListener);
    listeners.clear();
  }

  private final class FencedReader implements LogStreamReader {
    private final LogStreamReader reader;

    private FencedReader(LogStreamReader reader) {
      this.reader = reader;
    }

    @Override
    public void seek(long position) {
      reader.seek(position);
    }

    @Override
    public void seekToFirst() {
      reader.seekToFirst();
    }

    @Override
    public boolean hasNext() {
      return live.getAsBoolean() && reader.hasNext();
    }

    @Override
    public Record next() {
      if (!live.getAsBoolean()) {
        throw new NoSuchElementException(
            "Expected a live log view, but the state it feeds is stale (partition "
                + delegate.partitionId()
                + ")");
      }
      return reader.next();
    }

    @Override
    public void close() {
      reader.close();
    }
  }
}
