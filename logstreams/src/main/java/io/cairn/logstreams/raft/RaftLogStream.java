package io.cairn.logstreams.raft;

import io.cairn.journal.Journal;
import io.cairn.journal.JournalReader;
import io.cairn.journal.JournalRecord;
import io.cairn.logstreams.CommitListener;
import io.cairn.logstreams.LogBatchAssembler;
import io.cairn.logstreams.LogStream;
import io.cairn.logstreams.LogStreamConfig;
import io.cairn.logstreams.LogStreamMetrics;
import io.cairn.logstreams.LogStreamReader;
import io.cairn.logstreams.LogStreamWriter;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordBatch;
import io.cairn.raft.AppendResult;
import io.cairn.raft.RaftCommitListener;
import io.cairn.raft.RaftRole;
import io.cairn.raft.RaftServer;
import io.cairn.raft.log.RaftEntryCodec;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log stream of one raft member. The member's journal holds one raft entry per batch (the
 * entry's positions are the batch's); raft's own entries (a new leader's initial entry) carry no
 * records and are skipped.
 *
 * <p><b>Writing</b> works while the member leads ({@link #newLeaderWriter()}: only in the term it
 * was created in). When it becomes leader in a term, the next position is the one after the highest
 * position in its journal; a batch gets its positions under a lock and is handed to {@link
 * RaftServer#append} under the same lock, so batches reach raft in position order. An append raft
 * refuses (not leader any more) makes the writer answer {@link WriteResult.NotLeader} until the
 * member leads again, so no batch of an old term can be appended in a later one. At most {@link
 * LogStreamConfig#maxInFlightAppends()} batches are uncommitted at once; beyond that the writer
 * answers {@link WriteResult.Backpressure}.
 *
 * <p><b>Committing</b>: on raft's commit notification (raft thread) the journal entries up to the
 * commit index are inspected for their highest position, which becomes the {@link
 * #commitPosition()}; then the commit listeners are told.
 *
 * <p><b>Reading</b>: each reader has its own journal reader and returns only entries whose index is
 * committed. After raft installed a snapshot (the journal restarts after the snapshot's index), the
 * partition's owner must rebuild its state from that snapshot and open new readers.
 */
public final class RaftLogStream implements LogStream {

  private static final Logger LOG = LoggerFactory.getLogger(RaftLogStream.class);

  private final RaftServer raft;
  private final Journal journal;
  private final LogStreamConfig config;
  private final Clock clock;
  private final int partitionId;
  private final LogStreamMetrics metrics;
  private static final long ANY_TERM = Long.MIN_VALUE;

  private final LogStreamWriter writer = records -> write(records, ANY_TERM);
  private final List<CommitListener> listeners = new CopyOnWriteArrayList<>();

  private final Object lock = new Object();
  // guarded by lock
  private boolean closed;
  private boolean leading;
  private long leaderTerm = -1;
  private long nextPosition = FIRST_POSITION;
  private final ArrayDeque<Long> inFlightHighestPositions = new ArrayDeque<>();
  private final JournalReader tailReader;

  // raft thread only
  private final JournalReader commitTracker;
  private long trackedIndex;
  private long trackedPosition = NO_POSITION;

  private volatile long commitIndex;
  private volatile long commitPosition = NO_POSITION;

  private RaftLogStream(
      RaftServer raft,
      Journal journal,
      Clock clock,
      LogStreamConfig config,
      MeterRegistry registry) {
    this.raft = raft;
    this.journal = journal;
    this.clock = clock;
    this.config = config;
    this.partitionId = raft.partitionId();
    this.metrics = new LogStreamMetrics(registry, partitionId);
    this.tailReader = journal.openReader();
    this.commitTracker = journal.openReader();
    this.trackedIndex = commitTracker.seekToFirst() - 1;
  }

  /**
   * Opens the log stream of {@code raft}, whose journal is {@code journal}. Call it before or after
   * the raft member started; it learns the member's role and commit index on the member's thread.
   *
   * @param clock stamps the write time on records that have none
   */
  public static RaftLogStream open(
      RaftServer raft,
      Journal journal,
      Clock clock,
      LogStreamConfig config,
      MeterRegistry registry) {
    RaftLogStream stream =
        new RaftLogStream(
            Objects.requireNonNull(raft, "raft"),
            Objects.requireNonNull(journal, "journal"),
            Objects.requireNonNull(clock, "clock"),
            Objects.requireNonNull(config, "config"),
            Objects.requireNonNull(registry, "registry"));
    raft.addCommitListener(stream.new CommitTracking());
    raft.addRoleListener((role, term, leaderId) -> stream.onRoleChange(role, term));
    raft.submit(() -> stream.onRaftCommit(raft.commitIndex()));
    return stream;
  }

  @Override
  public int partitionId() {
    return partitionId;
  }

  @Override
  public LogStreamReader newReader() {
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException(
            "Expected an open log stream, but it is closed (partition " + partitionId + ")");
      }
      return new RaftLogStreamReader(this, journal.openReader());
    }
  }

  @Override
  public LogStreamWriter writer() {
    return writer;
  }

  @Override
  public LogStreamWriter newLeaderWriter() {
    synchronized (lock) {
      if (closed || !leading) {
        return records -> {
          LogBatchAssembler.validate(records);
          WriteResult result = new WriteResult.NotLeader();
          metrics.onWrite(result, records.size());
          return result;
        };
      }
      long term = leaderTerm;
      return records -> write(records, term);
    }
  }

  @Override
  public long commitPosition() {
    return commitPosition;
  }

  @Override
  public long lastWrittenPosition() {
    synchronized (lock) {
      if (closed) {
        return commitPosition;
      }
      long inJournal = lastPositionInJournal();
      return leading ? Math.max(inJournal, nextPosition - 1) : inJournal;
    }
  }

  @Override
  public void addCommitListener(CommitListener listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  @Override
  public void removeCommitListener(CommitListener listener) {
    listeners.remove(listener);
  }

  @Override
  public void close() {
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      leading = false;
      inFlightHighestPositions.clear();
      tailReader.close();
    }
    listeners.clear();
    metrics.close();
    // The commit tracker belongs to the raft thread; close it there (or here if raft is closed).
    raft.submit(commitTracker::close)
        .whenComplete(
            (ignored, error) -> {
              if (error != null) {
                commitTracker.close();
              }
            });
  }

  /** The raft index up to which entries are committed and inspected; readers stop there. */
  long commitIndex() {
    return commitIndex;
  }

  boolean isClosed() {
    synchronized (lock) {
      return closed;
    }
  }

  // ---- writing (any thread) -------------------------------------------------------------------

  private WriteResult write(List<Record> records, long requiredTerm) {
    LogBatchAssembler.validate(records);
    WriteResult result;
    synchronized (lock) {
      result = writeLocked(records, requiredTerm);
      metrics.inFlightAppends(inFlightHighestPositions.size());
    }
    metrics.onWrite(result, records.size());
    return result;
  }

  private WriteResult writeLocked(List<Record> records, long requiredTerm) {
    if (closed || !leading || (requiredTerm != ANY_TERM && requiredTerm != leaderTerm)) {
      return new WriteResult.NotLeader();
    }
    if (inFlightHighestPositions.size() >= config.maxInFlightAppends()) {
      return new WriteResult.Backpressure(
          inFlightHighestPositions.size(), config.maxInFlightAppends());
    }
    RecordBatch batch = LogBatchAssembler.assemble(records, nextPosition, clock.millis());
    UnsafeBuffer payload = LogBatchAssembler.encode(batch);
    if (payload.capacity() > config.maxBatchSizeBytes()) {
      return new WriteResult.TooLarge(payload.capacity(), config.maxBatchSizeBytes());
    }
    long lowest = batch.lowestPosition();
    long highest = batch.highestPosition();
    long term = leaderTerm;
    nextPosition = highest + 1;
    inFlightHighestPositions.add(highest);
    // Under the lock: the append is queued on the raft thread before any later role change is
    // handled there, so it can never be appended in a later term.
    raft.append(lowest, highest, payload)
        .whenComplete((appendResult, error) -> onAppendOutcome(term, appendResult, error));
    return new WriteResult.Written(lowest, highest);
  }

  private void onAppendOutcome(long term, AppendResult result, Throwable error) {
    if (error == null && result instanceof AppendResult.Appended) {
      return; // committed later, or dropped by a leader change (handled by the role listener)
    }
    synchronized (lock) {
      if (leading && leaderTerm == term) {
        LOG.info(
            "Raft refused an append of term {} ({}); writes answer NotLeader until this member"
                + " leads again (partition {})",
            term,
            error != null ? error.toString() : result,
            partitionId);
        leading = false;
        inFlightHighestPositions.clear();
        metrics.inFlightAppends(0);
      }
    }
  }

  // ---- raft thread ----------------------------------------------------------------------------

  private void onRoleChange(RaftRole role, long term) {
    synchronized (lock) {
      if (closed) {
        return;
      }
      if (role == RaftRole.LEADER) {
        if (!(leading && leaderTerm == term)) {
          leading = true;
          leaderTerm = term;
          inFlightHighestPositions.clear();
          long last = Math.max(lastPositionInJournal(), commitPosition);
          nextPosition = last == NO_POSITION ? FIRST_POSITION : last + 1;
          LOG.debug(
              "Leading partition {} in term {}; next position {}", partitionId, term, nextPosition);
        }
      } else if (leading) {
        leading = false;
        inFlightHighestPositions.clear();
      }
      metrics.inFlightAppends(inFlightHighestPositions.size());
    }
  }

  private void onRaftCommit(long raftCommitIndex) {
    long position = trackedPosition;
    while (trackedIndex < raftCommitIndex && commitTracker.hasNext()) {
      JournalRecord record = commitTracker.next();
      if (record.index() > raftCommitIndex) {
        commitTracker.seek(record.index());
        break;
      }
      trackedIndex = record.index();
      if (record.asqn() != Journal.ASQN_IGNORE) {
        try {
          position = Math.max(position, RaftEntryCodec.highestPosition(record.data()));
        } catch (IllegalArgumentException e) {
          // Readers fail the partition on this entry; the commit position stays below it.
          LOG.error(
              "Committed raft entry {} has no readable header (partition {})",
              record.index(),
              partitionId,
              e);
        }
      }
    }
    commitIndex = trackedIndex;
    if (position > trackedPosition) {
      trackedPosition = position;
      commitPosition = position;
      metrics.commitPosition(position);
      synchronized (lock) {
        while (!inFlightHighestPositions.isEmpty()
            && inFlightHighestPositions.peekFirst() <= position) {
          inFlightHighestPositions.pollFirst();
        }
        metrics.inFlightAppends(inFlightHighestPositions.size());
      }
      for (CommitListener listener : listeners) {
        listener.onCommit(position);
      }
    }
  }

  private void onSnapshotInstalled(long index) {
    LOG.info(
        "Raft installed a snapshot up to index {}; the log restarts after it (partition {})",
        index,
        partitionId);
    commitTracker.seek(index + 1);
    trackedIndex = index;
    commitIndex = Math.max(commitIndex, index);
  }

  /** The highest position in the journal, or NO_POSITION. Holds the lock. */
  private long lastPositionInJournal() {
    if (journal.isEmpty()) {
      return NO_POSITION;
    }
    tailReader.seekToAsqn(Long.MAX_VALUE);
    if (!tailReader.hasNext()) {
      return NO_POSITION;
    }
    JournalRecord record = tailReader.next();
    if (record.asqn() == Journal.ASQN_IGNORE) {
      return NO_POSITION;
    }
    return RaftEntryCodec.highestPosition(record.data());
  }

  private final class CommitTracking implements RaftCommitListener {
    @Override
    public void onCommit(long raftCommitIndex) {
      if (!isClosed()) {
        onRaftCommit(raftCommitIndex);
      }
    }

    @Override
    public void onSnapshotInstalled(long index, long term) {
      if (!isClosed()) {
        RaftLogStream.this.onSnapshotInstalled(index);
      }
    }
  }
}
