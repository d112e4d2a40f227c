package io.cairn.logstreams;

import io.cairn.protocol.Record;
import io.cairn.protocol.RecordBatch;
import io.cairn.protocol.RecordBatchCodec;
import io.cairn.scheduler.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A {@link LogStream} in memory that enforces the contract (positions strictly increasing, readers
 * see committed entries only, commit never goes back) and lets a test decide what the replicated
 * log would do:
 *
 * <ul>
 *   <li>when appends commit: at once ({@linkplain #autoCommit(boolean) auto-commit}, the default)
 *       or when the test says so ({@link #holdCommits()}, {@link #commitNext()}, {@link
 *       #commitUpTo(long)}, {@link #commitAll()});
 *   <li>a leader change: {@link #dropUncommitted()} removes the uncommitted entries (their
 *       positions are assigned again), {@link #leader(boolean)} makes the writers answer {@link
 *       WriteResult.NotLeader}; both end the leadership that {@link #newLeaderWriter()} writers are
 *       bound to;
 *   <li>backpressure: real (more than {@link LogStreamConfig#maxInFlightAppends()} uncommitted
 *       entries) or injected for the next writes ({@link #injectBackpressure(int)});
 *   <li>corruption: {@link #appendRawEntry} appends bytes that need not decode.
 * </ul>
 *
 * <p>Entries are stored encoded, exactly as a raft entry would carry them, so readers really
 * decode. Thread-safe; commit listeners are called on the thread that committed, outside the lock.
 */
public final class InMemoryLogStream implements LogStream {

  private record Entry(long lowestPosition, long highestPosition, byte[] payload) {}

  private static final long ANY_EPOCH = -1;
  private static final long NO_EPOCH = -2;

  private final int partitionId;
  private final Clock clock;
  private final LogStreamConfig config;
  private final LogStreamWriter writer = records -> write(records, ANY_EPOCH);
  private final List<CommitListener> listeners = new CopyOnWriteArrayList<>();

  // guarded by this
  private final List<Entry> entries = new ArrayList<>();
  private int committedEntries;
  private long commitPosition = NO_POSITION;
  private boolean autoCommit = true;
  private boolean leader = true;
  private long leaderEpoch;
  private int injectedBackpressure;
  private int writeAttempts;
  private boolean closed;

  public InMemoryLogStream(int partitionId, Clock clock) {
    this(partitionId, clock, LogStreamConfig.defaults());
  }

  public InMemoryLogStream(int partitionId, Clock clock, LogStreamConfig config) {
    this.partitionId = partitionId;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.config = Objects.requireNonNull(config, "config");
  }

  // ---- LogStream --------------------------------------------------------------------------------

  @Override
  public int partitionId() {
    return partitionId;
  }

  @Override
  public synchronized LogStreamReader newReader() {
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
  public synchronized LogStreamWriter newLeaderWriter() {
    long epoch = leader && !closed ? leaderEpoch : NO_EPOCH;
    return records -> write(records, epoch);
  }

  @Override
  public synchronized long commitPosition() {
    return commitPosition;
  }

  @Override
  public synchronized long lastWrittenPosition() {
    return entries.isEmpty() ? NO_POSITION : entries.get(entries.size() - 1).highestPosition();
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
  public synchronized void close() {
    closed = true;
    leader = false;
  }

  // ---- test hooks -------------------------------------------------------------------------------

  /** Whether each append commits as soon as it is written (the default: true). */
  public InMemoryLogStream autoCommit(boolean enabled) {
    long committed;
    synchronized (this) {
      autoCommit = enabled;
      committed = enabled ? commitLocked(entries.size()) : NO_POSITION;
    }
    notifyCommitted(committed);
    return this;
  }

  /** Appends stay uncommitted until the test commits them (or turns auto-commit back on). */
  public InMemoryLogStream holdCommits() {
    return autoCommit(false);
  }

  /** Turns auto-commit back on, committing everything held. */
  public InMemoryLogStream releaseCommits() {
    return autoCommit(true);
  }

  /** Commits the oldest uncommitted entry; returns the commit position (unchanged if none). */
  public long commitNext() {
    long committed;
    synchronized (this) {
      committed = commitLocked(Math.min(committedEntries + 1, entries.size()));
    }
    notifyCommitted(committed);
    return commitPosition();
  }

  /** Commits every entry whose highest position is {@code <= position}. */
  public long commitUpTo(long position) {
    long committed;
    synchronized (this) {
      int count = committedEntries;
      while (count < entries.size() && entries.get(count).highestPosition() <= position) {
        count++;
      }
      committed = commitLocked(count);
    }
    notifyCommitted(committed);
    return commitPosition();
  }

  /** Commits every entry written so far. */
  public long commitAll() {
    long committed;
    synchronized (this) {
      committed = commitLocked(entries.size());
    }
    notifyCommitted(committed);
    return commitPosition();
  }

  /**
   * Removes every uncommitted entry, as a leader change does with entries that did not reach a
   * majority; the next write reuses their positions. It is a leader change: writers from {@link
   * #newLeaderWriter()} created before answer {@link WriteResult.NotLeader} from now on.
   *
   * @return the number of entries removed
   */
  public synchronized int dropUncommitted() {
    leaderEpoch++;
    int dropped = entries.size() - committedEntries;
    entries.subList(committedEntries, entries.size()).clear();
    return dropped;
  }

  /**
   * Whether this member leads: when false the writers answer {@link WriteResult.NotLeader}. Leading
   * again starts a new leadership: writers from {@link #newLeaderWriter()} created before stay
   * refused.
   */
  public synchronized InMemoryLogStream leader(boolean leading) {
    if (leading && !leader) {
      leaderEpoch++;
    }
    leader = leading;
    return this;
  }

  /** The next {@code writes} writes answer {@link WriteResult.Backpressure}. */
  public synchronized InMemoryLogStream injectBackpressure(int writes) {
    injectedBackpressure = writes;
    return this;
  }

  /**
   * Appends an entry with the given positions and payload as it is, decodable or not (with
   * auto-commit it is committed at once).
   *
   * @throws IllegalArgumentException if the positions do not follow the last written ones
   */
  public void appendRawEntry(long lowestPosition, long highestPosition, byte[] payload) {
    long committed;
    synchronized (this) {
      long last = lastWrittenPosition();
      if (lowestPosition <= last || highestPosition < lowestPosition) {
        throw new IllegalArgumentException(
            "Expected positions ["
                + lowestPosition
                + ", "
                + highestPosition
                + "] above the last written position "
                + last);
      }
      entries.add(new Entry(lowestPosition, highestPosition, payload.clone()));
      committed = autoCommit ? commitLocked(entries.size()) : NO_POSITION;
    }
    notifyCommitted(committed);
  }

  /** Every entry written and not dropped, decoded, committed or not. */
  public synchronized List<RecordBatch> writtenBatches() {
    return decode(entries);
  }

  /** The committed entries, decoded. */
  public synchronized List<RecordBatch> committedBatches() {
    return decode(entries.subList(0, committedEntries));
  }

  /** The committed records in position order. */
  public synchronized List<Record> committedRecords() {
    List<Record> records = new ArrayList<>();
    committedBatches().forEach(batch -> records.addAll(batch.records()));
    return records;
  }

  /** Entries written and not committed yet. */
  public synchronized int uncommittedEntryCount() {
    return entries.size() - committedEntries;
  }

  /** Every call of {@link LogStreamWriter#tryWrite}, whatever its result. */
  public synchronized int writeAttempts() {
    return writeAttempts;
  }

  // ---- internals --------------------------------------------------------------------------------

  private WriteResult write(List<Record> records, long requiredEpoch) {
    LogBatchAssembler.validate(records);
    WriteResult result;
    long committed;
    synchronized (this) {
      writeAttempts++;
      result =
          requiredEpoch == ANY_EPOCH || requiredEpoch == leaderEpoch
              ? writeLocked(records)
              : new WriteResult.NotLeader();
      committed =
          result instanceof WriteResult.Written && autoCommit
              ? commitLocked(entries.size())
              : NO_POSITION;
    }
    notifyCommitted(committed);
    return result;
  }

  private WriteResult writeLocked(List<Record> records) {
    if (closed || !leader) {
      return new WriteResult.NotLeader();
    }
    int inFlight = entries.size() - committedEntries;
    if (injectedBackpressure > 0) {
      injectedBackpressure--;
      return new WriteResult.Backpressure(inFlight, config.maxInFlightAppends());
    }
    if (inFlight >= config.maxInFlightAppends()) {
      return new WriteResult.Backpressure(inFlight, config.maxInFlightAppends());
    }
    long last = lastWrittenPosition();
    long lowest = last == NO_POSITION ? FIRST_POSITION : last + 1;
    RecordBatch batch = LogBatchAssembler.assemble(records, lowest, clock.millis());
    UnsafeBuffer payload = LogBatchAssembler.encode(batch);
    if (payload.capacity() > config.maxBatchSizeBytes()) {
      return new WriteResult.TooLarge(payload.capacity(), config.maxBatchSizeBytes());
    }
    entries.add(new Entry(lowest, batch.highestPosition(), payload.byteArray()));
    return new WriteResult.Written(lowest, batch.highestPosition());
  }

  /** Commits the first {@code count} entries; returns the new commit position or NO_POSITION. */
  private long commitLocked(int count) {
    if (count <= committedEntries) {
      return NO_POSITION;
    }
    committedEntries = count;
    commitPosition = entries.get(count - 1).highestPosition();
    return commitPosition;
  }

  private void notifyCommitted(long position) {
    if (position != NO_POSITION) {
      for (CommitListener listener : listeners) {
        listener.onCommit(position);
      }
    }
  }

  private static List<RecordBatch> decode(List<Entry> entries) {
    List<RecordBatch> batches = new ArrayList<>(entries.size());
    for (Entry entry : entries) {
      batches.add(
          RecordBatchCodec.decode(new UnsafeBuffer(entry.payload()), 0, entry.payload().length));
    }
    return batches;
  }

  /** Reads committed entries by their index in the entry list (dropping never touches those). */
  private final class Reader extends AbstractLogStreamReader {
    private int nextEntry;

    Reader() {
      super(partitionId);
    }

    @Override
    protected CommittedEntry nextCommittedEntry() {
      synchronized (InMemoryLogStream.this) {
        if (closed || nextEntry >= committedEntries) {
          return null;
        }
        int index = nextEntry++;
        Entry entry = entries.get(index);
        return new CommittedEntry(
            entry.lowestPosition(),
            entry.highestPosition(),
            new UnsafeBuffer(entry.payload()),
            "in-memory entry " + index);
      }
    }

    @Override
    protected void positionSource(long position) {
      synchronized (InMemoryLogStream.this) {
        int index = 0;
        while (index < entries.size() && entries.get(index).highestPosition() < position) {
          index++;
        }
        nextEntry = index;
      }
    }
  }
}
