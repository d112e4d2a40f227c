package io.cairn.streamprocessor;

import io.cairn.db.CairnDb;
import io.cairn.logstreams.CommitListener;
import io.cairn.logstreams.CorruptedLogException;
import io.cairn.logstreams.LogStream;
import io.cairn.logstreams.LogStreamReader;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordType;
import io.cairn.scheduler.Actor;
import io.cairn.scheduler.Cancellable;
import io.cairn.scheduler.LoggingContext;
import io.cairn.streamprocessor.processing.CommandProcessing;
import io.cairn.streamprocessor.processing.EventReplay;
import io.cairn.streamprocessor.processing.PartitionFailedException;
import io.cairn.streamprocessor.processing.PostCommitQueue;
import io.cairn.streamprocessor.processing.ProcessingState;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Processes (leader) or replays (follower) one partition's log into its state; an {@link Actor}.
 *
 * <p><b>Reading.</b> It reads committed records only, starting after what the state already holds
 * ({@link ProcessingPositions}): from {@code min(lastProcessed, lastWritten) + 1}. Every follow-up
 * record above the last written position is replayed ({@linkplain EventApplier events applied},
 * positions moved along); every command above the last processed position is processed — by a
 * leader only, and only once its replay is over.
 *
 * <p><b>Leader.</b> It first replays up to the log's {@linkplain LogStream#lastWrittenPosition()
 * last written position} at start (everything earlier leaders wrote, which this leader will
 * commit), then reads again from the last processed position and processes each command: see {@link
 * CommandProcessing}. Responses and side effects run only once the command's batch is committed. On
 * backpressure the same command is retried after {@link StreamProcessorConfig#writeRetryDelay()} or
 * the next commit. When the log answers that this member does not lead, processing stops ({@link
 * StreamProcessorPhase#NOT_LEADER}).
 *
 * <p><b>Ordering and leadership loss.</b> A command's state transaction commits when its batch is
 * handed to the log, before the batch is committed there, so that the next command can be processed
 * on that state at once. If leadership is lost before the batch commits, the batch may be dropped,
 * and the state would hold effects of records that are not in the log. So a processor that ran as
 * {@link StreamProcessorMode#LEADER} is never reused after leadership ends: the owner closes it,
 * discards its state and rebuilds state from the last snapshot (or from scratch) plus a replay of
 * the committed log in a new processor. The processor writes through {@link
 * LogStream#newLeaderWriter()}, so even if the member leads again before the owner reacts, it stops
 * ({@link StreamProcessorPhase#NOT_LEADER}) rather than extend that state. Pending responses and
 * side effects are dropped (clients retry; side effects are re-triggered by their owners).
 *
 * <p><b>Failures.</b> A processor that throws gets its command rejected (see {@link
 * CommandProcessor}). A processor or interceptor that calls {@link
 * ProcessingResultBuilder#failPartition}, an event without applier or whose applier throws, a
 * committed record that cannot be decoded, or a state transaction that cannot be committed make the
 * partition {@link HealthStatus#FAILED}: processing stops for good and never skips the record.
 *
 * <p>Threading: everything runs on the actor thread; the accessors may be read from any thread.
 * Everything logged there — by the processor and by the processors, appliers and interceptors it
 * calls — carries the partition id (and the {@linkplain Builder#nodeId node id}, if given) in the
 * logging MDC ({@link LoggingContext}).
 */
public final class StreamProcessor extends Actor {

  private static final Logger LOG = LoggerFactory.getLogger(StreamProcessor.class);

  private final int partitionId;
  private final StreamProcessorMode mode;
  private final LogStream logStream;
  private final CairnDb db;
  private final RecordProcessors processors;
  private final CommandResponseWriter responseWriter;
  private final StreamProcessorConfig config;
  private final StreamProcessorMetrics metrics;
  private final List<HealthListener> healthListeners = new CopyOnWriteArrayList<>();
  private final AtomicBoolean wakeUpQueued = new AtomicBoolean();
  private final CommitListener commitListener = position -> wakeUp();

  // actor thread only
  private ProcessingState state;
  private EventReplay replay;
  private CommandProcessing processing;
  private PostCommitQueue postCommit;
  private LogStreamReader reader;
  private Record pendingCommand;
  private long pendingCommandReadNanos;
  private long replayTarget = LogStream.NO_POSITION;
  private Cancellable retryTimer;

  // written on the actor thread, read anywhere
  private volatile StreamProcessorPhase phase = StreamProcessorPhase.STARTING;
  private volatile PartitionHealth health;
  private volatile long lastProcessedPosition = LogStream.NO_POSITION;
  private volatile long lastWrittenPosition = LogStream.NO_POSITION;

  private StreamProcessor(Builder builder) {
    super(
        "stream-processor-"
            + builder.logStream.partitionId()
            + "-"
            + builder.mode.name().toLowerCase(Locale.ROOT),
        builder.nodeId == Builder.NO_NODE
            ? LoggingContext.partition(builder.logStream.partitionId())
            : LoggingContext.partition(builder.nodeId, builder.logStream.partitionId()));
    partitionId = builder.logStream.partitionId();
    mode = builder.mode;
    logStream = builder.logStream;
    db = builder.db;
    processors = builder.processors;
    responseWriter = builder.responseWriter;
    config = builder.config;
    metrics = new StreamProcessorMetrics(builder.registry, partitionId);
    health = PartitionHealth.healthy(partitionId);
  }

  public static Builder builder() {
    return new Builder();
  }

  public int partitionId() {
    return partitionId;
  }

  public StreamProcessorMode mode() {
    return mode;
  }

  public StreamProcessorPhase phase() {
    return phase;
  }

  public PartitionHealth health() {
    return health;
  }

  /** The last processed position of the committed state (see {@link ProcessingPositions}). */
  public long lastProcessedPosition() {
    return lastProcessedPosition;
  }

  /** The last written position of the committed state (see {@link ProcessingPositions}). */
  public long lastWrittenPosition() {
    return lastWrittenPosition;
  }

  /** Adds a listener told of every later health change, on the actor thread. */
  public void addHealthListener(HealthListener listener) {
    healthListeners.add(Objects.requireNonNull(listener, "listener"));
  }

  public void removeHealthListener(HealthListener listener) {
    healthListeners.remove(listener);
  }

  // ---- life cycle (actor thread) ----------------------------------------------------------------

  @Override
  protected void onStart() {
    state = new ProcessingState(partitionId, db, processors, metrics);
    replay = new EventReplay(state);
    postCommit = new PostCommitQueue(partitionId, responseWriter, metrics);
    processing = new CommandProcessing(state, logStream.newLeaderWriter(), postCommit, clock());
    publishPositions();
    reader = logStream.newReader();
    long resumePosition = resumePosition();
    reader.seek(resumePosition);
    if (mode == StreamProcessorMode.LEADER) {
      replayTarget = logStream.lastWrittenPosition();
      transition(
          StreamProcessorPhase.REPLAYING,
          "as leader, replaying [" + resumePosition + ", " + replayTarget + "] before processing");
      if (replayTarget < resumePosition) {
        startProcessing();
      }
    } else {
      transition(
          StreamProcessorPhase.REPLAYING, "as follower, replaying from position " + resumePosition);
    }
    logStream.addCommitListener(commitListener);
    wakeUp();
  }

  @Override
  protected void onClose() {
    logStream.removeCommitListener(commitListener);
    if (retryTimer != null) {
      retryTimer.cancel();
    }
    if (replay != null) {
      replay.rollback();
    }
    if (postCommit != null) {
      postCommit.clear();
    }
    if (reader != null) {
      reader.close();
    }
    metrics.close();
    transition(StreamProcessorPhase.CLOSED, "closed");
  }

  // ---- the work loop (actor thread) -------------------------------------------------------------

  /** Queues one turn unless one is queued already; any thread. */
  private void wakeUp() {
    if (wakeUpQueued.compareAndSet(false, true)) {
      submit(this::turn);
    }
  }

  private void turn() {
    wakeUpQueued.set(false);
    if (!isWorking()) {
      return;
    }
    try {
      boolean moreWork = handleRecords();
      replay.commit();
      publishPositions();
      postCommit.runCommitted(logStream.commitPosition());
      if (moreWork) {
        wakeUp(); // yield to the other tasks of this actor first
      }
    } catch (PartitionFailedException e) {
      fail(e.getMessage(), e.getCause());
    } catch (CorruptedLogException e) {
      fail(e.getMessage(), e);
    } catch (Throwable e) { // NOPMD - actor boundary: any other error fails the partition
      fail("Expected to process the log, but: " + e, e);
    }
  }

  /** Handles up to a turn's budget of records; true if the budget ran out. */
  private boolean handleRecords() {
    int budget = config.maxRecordsPerTurn();
    while (budget > 0 && isWorking()) {
      if (pendingCommand != null) {
        if (!processPendingCommand()) {
          return false;
        }
        budget--;
        continue;
      }
      if (!reader.hasNext()) {
        return false;
      }
      Record record = reader.next();
      budget--;
      if (phase == StreamProcessorPhase.REPLAYING) {
        replay.replay(record);
        if (mode == StreamProcessorMode.LEADER && record.position() >= replayTarget) {
          startProcessing();
        }
      } else {
        handleWhileProcessing(record);
      }
    }
    return budget == 0;
  }

  private void handleWhileProcessing(Record record) {
    if (record.metadata().recordType() == RecordType.COMMAND
        && record.position() > state.lastProcessedPosition()) {
      pendingCommand = record;
      pendingCommandReadNanos = clock().nanos();
      processPendingCommand();
    } else if (replay.replay(record)) {
      // A follow-up not in state yet (not one of this leader's): apply it as a follower would.
      replay.commit();
    } else {
      metrics.skipped();
    }
  }

  /** Processes the pending command; false if it must wait (backpressure) or stop (not leader). */
  private boolean processPendingCommand() {
    CommandProcessing.Outcome outcome = processing.process(pendingCommand, pendingCommandReadNanos);
    switch (outcome) {
      case PROCESSED -> {
        pendingCommand = null;
        return true;
      }
      case RETRY_LATER -> {
        if (retryTimer != null) {
          retryTimer.cancel();
        }
        retryTimer = schedule(config.writeRetryDelay(), this::wakeUp);
        return false;
      }
      default -> {
        pendingCommand = null;
        transition(
            StreamProcessorPhase.NOT_LEADER,
            "the log refused a write because this member no longer leads; dropped "
                + postCommit.clear()
                + " pending responses and side effects");
        return false;
      }
    }
  }

  private void startProcessing() {
    replay.commit();
    long resumePosition = resumePosition();
    reader.seek(resumePosition);
    transition(
        StreamProcessorPhase.PROCESSING,
        "replayed up to position "
            + state.lastWrittenPosition()
            + "; processing commands from position "
            + resumePosition);
  }

  /** Where reading resumes: after everything the state holds. */
  private long resumePosition() {
    long resumeAfter = Math.min(state.lastProcessedPosition(), state.lastWrittenPosition());
    return resumeAfter == LogStream.NO_POSITION ? LogStream.FIRST_POSITION : resumeAfter + 1;
  }

  private boolean isWorking() {
    return phase == StreamProcessorPhase.REPLAYING || phase == StreamProcessorPhase.PROCESSING;
  }

  private void publishPositions() {
    lastProcessedPosition = state.lastProcessedPosition();
    lastWrittenPosition = state.lastWrittenPosition();
  }

  private void fail(String reason, Throwable cause) {
    if (!isWorking()) {
      return;
    }
    replay.rollback();
    int dropped = postCommit.clear();
    pendingCommand = null;
    publishPositions();
    LOG.error(
        "Partition {} FAILED ({} pending responses and side effects dropped): {}. Rebuild the"
            + " partition from a snapshot and its log, or restore it from a backup.",
        partitionId,
        dropped,
        reason,
        cause);
    transition(StreamProcessorPhase.FAILED, reason);
    health = PartitionHealth.failed(partitionId, reason);
    metrics.health(HealthStatus.FAILED);
    for (HealthListener listener : healthListeners) {
      listener.onHealthChange(health);
    }
  }

  /**
   * The one place the phase changes: checks the transition against the table in {@link
   * StreamProcessorPhase}, then logs it once.
   */
  private void transition(StreamProcessorPhase next, String detail) {
    StreamProcessorPhase current = phase;
    boolean legal =
        switch (next) {
          case REPLAYING -> current == StreamProcessorPhase.STARTING;
          case PROCESSING ->
              current == StreamProcessorPhase.REPLAYING && mode == StreamProcessorMode.LEADER;
          case NOT_LEADER -> current == StreamProcessorPhase.PROCESSING;
          case FAILED ->
              current == StreamProcessorPhase.REPLAYING
                  || current == StreamProcessorPhase.PROCESSING;
          case CLOSED -> current != StreamProcessorPhase.CLOSED;
          case STARTING -> false;
        };
    if (!legal) {
      throw new IllegalStateException(
          "Expected a legal phase transition, but "
              + current
              + " -> "
              + next
              + " is not one (partition "
              + partitionId
              + ", "
              + mode
              + ")");
    }
    phase = next;
    if (next != StreamProcessorPhase.FAILED) {
      LOG.info("Partition {} stream processor {} -> {}: {}", partitionId, current, next, detail);
    }
  }

  /** Collects what a stream processor needs; every field is required unless it has a default. */
  public static final class Builder {
    private static final int NO_NODE = -1;

    private LogStream logStream;
    private CairnDb db;
    private RecordProcessors processors;
    private CommandResponseWriter responseWriter = CommandResponseWriter.NONE;
    private StreamProcessorMode mode;
    private StreamProcessorConfig config = StreamProcessorConfig.defaults();
    private MeterRegistry registry;
    private int nodeId = NO_NODE;

    private Builder() {}

    /** The partition's log; the partition id is its. */
    public Builder logStream(LogStream value) {
      logStream = value;
      return this;
    }

    /**
     * The partition's state, opened with {@link StreamProcessorColumnFamily#all()} among its
     * families. Owned by the caller (not closed by the processor); the processor is its only user
     * while it runs.
     */
    public Builder db(CairnDb value) {
      db = value;
      return this;
    }

    /** Processors, appliers and interceptors, built over {@link #db}. */
    public Builder processors(RecordProcessors value) {
      processors = value;
      return this;
    }

    /** Where responses go; {@link CommandResponseWriter#NONE} by default. */
    public Builder responseWriter(CommandResponseWriter value) {
      responseWriter = value;
      return this;
    }

    public Builder mode(StreamProcessorMode value) {
      mode = value;
      return this;
    }

    /** {@link StreamProcessorConfig#defaults()} by default. */
    public Builder config(StreamProcessorConfig value) {
      config = value;
      return this;
    }

    public Builder meterRegistry(MeterRegistry value) {
      registry = value;
      return this;
    }

    /**
     * The node this processor runs on, for its logging context only ({@link
     * LoggingContext#NODE_ID}); optional: without it, lines carry the thread's node id, if any.
     *
     * @throws IllegalArgumentException if {@code value} is negative
     */
    public Builder nodeId(int value) {
      if (value < 0) {
        throw new IllegalArgumentException(
            "Expected nodeId >= 0, but was " + value + " (StreamProcessor)");
      }
      nodeId = value;
      return this;
    }

    /**
     * @throws IllegalArgumentException naming a missing setting, or if the database lacks the
     *     stream processor's column families
     */
    public StreamProcessor build() {
      require(logStream, "logStream");
      require(db, "db");
      require(processors, "processors");
      require(responseWriter, "responseWriter");
      require(mode, "mode");
      require(config, "config");
      require(registry, "meterRegistry");
      new ProcessingPositions(db); // fails early, naming the missing families
      return new StreamProcessor(this);
    }

    private static void require(Object value, String name) {
      if (value == null) {
        throw new IllegalArgumentException(
            "Expected " + name + " to be set, but it is missing (StreamProcessor)");
      }
    }
  }
}
