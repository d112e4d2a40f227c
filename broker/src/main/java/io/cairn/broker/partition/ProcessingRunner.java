package io.cairn.broker.partition;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.raft.RaftServer;
import io.cairn.snapshot.SnapshotStore;
import io.cairn.streamprocessor.CommandResponseWriter;
import io.cairn.streamprocessor.PartitionHealth;
import io.cairn.streamprocessor.StreamProcessor;
import io.cairn.streamprocessor.StreamProcessorMode;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The steps of a partition's role transitions, and what they leave behind: the current {@link
 * ProcessingRun} and the state (RocksDB in {@code runtime/}) it runs on. {@link #stop()} ends the
 * run, {@link #rebuild()} recovers the state from the newest snapshot, {@link #start} begins a run
 * in a role; {@link PartitionActor} decides when. On the partition actor's thread (the recovery's
 * I/O on the I/O executor).
 *
 * <p>The state is stale ({@link #isStale}) when there is none, when raft installed a snapshot since
 * it was recovered, or when a LEADER run used it and that leadership is over (see {@link
 * PartitionActor}).
 */
final class ProcessingRunner {

  private static final Logger LOG = LoggerFactory.getLogger(ProcessingRunner.class);

  /**
   * The open state.
   *
   * @param snapshotInstalls raft's snapshot installations when it was recovered
   * @param usedByLeader a LEADER run used it: never reused after that leadership
   */
  private record OpenState(CairnDb db, long snapshotInstalls, boolean usedByLeader) {}

  private final PartitionContext context;
  private final RaftServer raft;
  private final PartitionConfig config;
  private final PartitionLayout layout;
  private final List<PartitionComponent> components;
  private final List<ColumnFamilyDefinition> families;
  private final CommandResponseWriter responseWriter;
  private final PartitionMetrics metrics;
  private final SnapshotStore directorStore;
  private final Tags meterTags;
  private final String description;
  private final LongSupplier snapshotInstalls;
  private final ExportedPositionSource exportedPositions;
  private final Executor actor;
  private final BiConsumer<StreamProcessor, PartitionHealth> processorHealth;

  private OpenState state; // null: none open
  private ProcessingRun run; // null: none runs
  private long runCount;

  /**
   * @param snapshotInstalls raft's snapshot installations so far (counted on raft's thread)
   * @param actor the partition actor's executor: every step's continuation runs there
   * @param processorHealth told of each run's processor's health reports (any thread)
   */
  ProcessingRunner(
      PartitionContext context,
      RaftServer raft,
      PartitionConfig config,
      PartitionLayout layout,
      List<PartitionComponent> components,
      List<ColumnFamilyDefinition> families,
      CommandResponseWriter responseWriter,
      PartitionMetrics metrics,
      SnapshotStore directorStore,
      Tags meterTags,
      String description,
      LongSupplier snapshotInstalls,
      ExportedPositionSource exportedPositions,
      Executor actor,
      BiConsumer<StreamProcessor, PartitionHealth> processorHealth) {
    this.context = context;
    this.raft = raft;
    this.config = config;
    this.layout = layout;
    this.components = components;
    this.families = families;
    this.responseWriter = responseWriter;
    this.metrics = metrics;
    this.directorStore = directorStore;
    this.meterTags = meterTags;
    this.description = description;
    this.snapshotInstalls = snapshotInstalls;
    this.exportedPositions = exportedPositions;
    this.actor = actor;
    this.processorHealth = processorHealth;
  }

  /** The current run, if one runs. */
  Optional<ProcessingRun> run() {
    return Optional.ofNullable(run);
  }

  /** Whether {@code processor} is the current run's. */
  boolean isCurrent(StreamProcessor processor) {
    return run != null && run.processor() == processor;
  }

  /**
   * Whether the state must be rebuilt before the next run.
   *
   * @param leadingThisTerm the current run leads in raft's current term and raft still leads
   */
  boolean isStale(boolean leadingThisTerm) {
    return state == null
        || state.snapshotInstalls() != snapshotInstalls.getAsLong()
        || (state.usedByLeader() && !leadingThisTerm);
  }

  /** Ends the current run (components' {@code onProcessingStopped}, then the run), if any. */
  CompletableFuture<Void> stop() {
    ProcessingRun stopping = run;
    if (stopping == null) {
      return CompletableFuture.completedFuture(null);
    }
    run = null;
    stopComponents(stopping.scope());
    return stopping.stop();
  }

  /**
   * Closes the state, then recovers it on the I/O executor ({@link StateRecovery}): a copy of the
   * newest snapshot, or an empty state.
   */
  CompletableFuture<Void> rebuild() {
    closeState();
    long installs = snapshotInstalls.getAsLong();
    return CompletableFuture.supplyAsync(
            () ->
                StateRecovery.recover(
                    layout.runtime(),
                    context.snapshotStore(),
                    config.db(),
                    families,
                    context.meterRegistry(),
                    meterTags,
                    description),
            context.ioExecutor())
        .thenAcceptAsync(
            recovered -> {
              state = new OpenState(recovered.db(), installs, false);
              metrics.stateRebuilt();
            },
            actor);
  }

  /**
   * Starts a run in {@code target}'s mode on the state: components register processors, the stream
   * processor starts (a leader replays, then processes), then components' {@code onBecomeLeader} or
   * {@code onBecomeFollower}. A LEADER run marks the state as used by a leader.
   */
  CompletableFuture<Void> start(PartitionRole target, long term) {
    boolean leader = target == PartitionRole.LEADER;
    long installs = state.snapshotInstalls();
    FencedLogStream view =
        new FencedLogStream(context.logStream(), () -> snapshotInstalls.getAsLong() == installs);
    ProcessingScope scope =
        new ProcessingScope(
            context,
            leader ? StreamProcessorMode.LEADER : StreamProcessorMode.FOLLOWER,
            term,
            state.db(),
            view,
            ++runCount);
    if (leader) {
      // from now on this state is the leader's: never reused after its term
      state = new OpenState(state.db(), state.snapshotInstalls(), true);
    }
    ProcessingRun started;
    try {
      started =
          ProcessingRun.create(
              scope,
              view,
              components,
              responseWriter,
              config,
              raft,
              directorStore,
              meterTags,
              exportedPositions);
    } catch (RuntimeException e) {
      stopComponents(scope); // components may have started something in registerProcessors
      throw e;
    }
    started
        .processor()
        .addHealthListener(report -> processorHealth.accept(started.processor(), report));
    run = started;
    return started
        .start(context.scheduler())
        .thenRunAsync(
            () -> {
              for (PartitionComponent component : components) {
                if (leader) {
                  component.onBecomeLeader(scope, started.processor());
                } else {
                  component.onBecomeFollower(scope, started.processor());
                }
              }
            },
            actor);
  }

  /** Closes the state, if open; the next run needs a {@link #rebuild()}. */
  void closeState() {
    if (state != null) {
      state.db().close();
      state = null;
    }
  }

  /** "snapshot &lt;id&gt;" of the newest snapshot, or "an empty state". */
  String describeLatestSnapshot() {
    return context
        .snapshotStore()
        .latestSnapshot()
        .map(snapshot -> "snapshot " + snapshot.id())
        .orElse("an empty state");
  }

  private void stopComponents(ProcessingScope scope) {
    for (PartitionComponent component : components) {
      try {
        component.onProcessingStopped(scope);
      } catch (RuntimeException e) {
        LOG.warn(
            "Component '{}' failed to stop run {} on {}; going on",
            component.name(),
            scope.run(),
            description,
            e);
      }
    }
  }
}
