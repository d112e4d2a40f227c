package io.cairn.broker.partition;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.raft.RaftCommitListener;
import io.cairn.raft.RaftRole;
import io.cairn.raft.RaftRoleListener;
import io.cairn.raft.RaftServer;
import io.cairn.scheduler.Actor;
import io.cairn.scheduler.Cancellable;
import io.cairn.scheduler.Futures;
import io.cairn.scheduler.LoggingContext;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotStore;
import io.cairn.streamprocessor.CommandResponseWriter;
import io.cairn.streamprocessor.PartitionHealth;
import io.cairn.streamprocessor.StreamProcessor;
import io.cairn.streamprocessor.StreamProcessorMode;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The partition's own thread: follows raft's role with the right stream processor, rebuilds the
 * state when it can no longer be trusted, compacts the log after snapshots, and tracks health.
 *
 * <p><b>Reconciling.</b> Every raft role change, snapshot installation, finished transition and
 * retry calls {@link #reconcile()}, which compares what runs with what raft says and starts at most
 * one transition at a time:
 *
 * <ol>
 *   <li>stop the current run: components' {@code onProcessingStopped}, the snapshot director, the
 *       stream processor;
 *   <li>if the state is stale, rebuild it ({@link StateRecovery}, on the I/O executor): close the
 *       database, copy the newest snapshot into the runtime directory (or start empty), reopen;
 *   <li>start a run in the target mode: components register processors, the stream processor starts
 *       (a leader replays, then processes), the director starts, components' {@code
 *       onBecomeLeader}/{@code onBecomeFollower};
 *   <li>{@link PartitionRoleState#transition} to the new role.
 * </ol>
 *
 * <p><b>When the state is stale</b> (and so rebuilt): there is none yet; raft installed a snapshot
 * since it was recovered (its log view is fenced at once, on raft's thread); or a LEADER processor
 * ran on it and that leadership is over — a leader commits its state before its batches are
 * committed, so the state may hold effects of batches a leader change dropped. A follower's state
 * holds committed records only and is handed to the next leader as it is.
 *
 * <p><b>Failures.</b> A failed transition makes the partition INACTIVE and UNHEALTHY; it is retried
 * with backoff ({@link PartitionConfig#transitionRetryDelayMin()} doubling up to the max) and after
 * {@link PartitionConfig#transitionAttemptsMax()} consecutive failures the partition is FAILED. A
 * stream processor or raft member that fails, or a recovered state whose digest differs from its
 * snapshot's, makes it FAILED at once. A FAILED partition stops processing for good; its raft
 * member keeps running (the log stays replicated for diagnosis).
 */
final class PartitionActor extends Actor {

  private static final Logger LOG = LoggerFactory.getLogger(PartitionActor.class);

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
  private final AtomicLong snapshotInstalls = new AtomicLong();
  private final PartitionRoleState roleState;
  private final PartitionHealthTracker health;
  private final ExportedPositionSource exportedPositions;
  private final ExporterCompactionHold exportHold;

  // actor thread only
  private RaftRole raftRole = RaftRole.INACTIVE;
  private long raftTerm;
  private CairnDb db;
  private long dbSnapshotInstalls = -1;
  private boolean dbUsedByLeader;
  private ProcessingRun run;
  private long runCount;
  private CompletableFuture<Void> transitionInProgress;
  private int failedAttempts;
  private Cancellable retryTimer;
  private String pendingFailure;
  private boolean closing;

  PartitionActor(
      final PartitionContext context,
      final RaftServer raft,
      final PartitionConfig config,
      final PartitionLayout layout,
      final List<PartitionComponent> components,
      final List<ColumnFamilyDefinition> families,
      final CommandResponseWriter responseWriter,
      final PartitionMetrics metrics,
      final ExportedPositionSource exportedPositions) {
    super(
        "partition-" + context.partitionId() + "-" + context.nodeId(),
        LoggingContext.partition(context.nodeId(), context.partitionId()));
    this.context = context;
    this.raft = raft;
    this.config = config;
    this.layout = layout;
    this.components = List.copyOf(components);
    this.families = List.copyOf(families);
    this.responseWriter = responseWriter;
    this.metrics = metrics;
    this.directorStore =
        new PersistNotifyingSnapshotStore(context.snapshotStore(), this::onSnapshotPersisted);
    this.meterTags =
        Tags.of(
            "partition",
            Integer.toString(context.partitionId()),
            "node",
            Integer.toString(context.nodeId()));
    this.description = "partition " + context.partitionId() + " on node " + context.nodeId();
    this.roleState = new PartitionRoleState(context.partitionId(), context.nodeId(), metrics);
    this.health = new PartitionHealthTracker(context.partitionId(), context.nodeId(), metrics);
    this.exportedPositions = exportedPositions;
    this.exportHold =
        exportedPositions == null
            ? null
            : new ExporterCompactionHold(context.snapshotStore(), context.journal());
  }

  /** Registers the raft listeners; call before the raft member starts. */
  void listenTo(final RaftServer server) {
    server.addRoleListener(roleListener());
    server.addCommitListener(
        new RaftCommitListener() {
          @Override
          public void onCommit(final long commitIndex) {
            // the log stream tells the stream processor; nothing to do here
          }

          @Override
          public void onSnapshotInstalled(final long index, final long term) {
            // raft thread: fence the current state's log view before any later entry commits
            snapshotInstalls.incrementAndGet();
            submit(() -> onRaftSnapshotInstalled(index, term));
          }
        });
  }

  private RaftRoleListener roleListener() {
    return (newRole, term, leaderId) -> submit(() -> onRaftRole(newRole, term));
  }

  // ---- accessors (any thread) ---------------------------------------------------------------

  PartitionRole role() {
    return roleState.role();
  }

  long roleTerm() {
    return roleState.term();
  }

  PartitionHealthReport health() {
    return health.report();
  }

  void addHealthListener(final PartitionHealthListener listener) {
    health.addListener(listener);
  }

  void removeHealthListener(final PartitionHealthListener listener) {
    health.removeListener(listener);
  }

  /** Takes a snapshot of the current run's state; fails while no stream processor runs. */
  CompletableFuture<Optional<PersistedSnapshot>> takeSnapshot() {
    return withRun(ProcessingRun::takeSnapshot);
  }

  /** Runs {@code reader} over the state on the stream processor's thread. */
  <T> CompletableFuture<T> readState(final Function<CairnDb, T> reader) {
    return withRun(current -> current.read(reader));
  }

  <T> CompletableFuture<T> readProcessedState(final Function<CairnDb, T> reader) {
    return withRun(current -> current.readProcessed(reader));
  }

  /**
   * Stops everything this actor runs (waiting for a transition in progress), closes the state and
   * the components, and moves to CLOSED. The raft member and the stores are closed by the caller
   * afterwards.
   */
  CompletableFuture<Void> shutdown() {
    return call(this::beginShutdown).thenCompose(done -> done);
  }

  // ---- events (actor thread) ----------------------------------------------------------------

  private void onRaftRole(final RaftRole newRole, final long term) {
    raftRole = newRole;
    raftTerm = term;
    if (newRole == RaftRole.FAILED) {
      fail(
          "the raft member FAILED in term "
              + term
              + " (a broken invariant or a storage error; see its log)");
      return;
    }
    reconcile();
  }

  private void onRaftSnapshotInstalled(final long index, final long term) {
    LOG.info(
        "Raft installed a snapshot up to index {} (term {}) on {}; the state will be rebuilt from"
            + " it",
        index,
        term,
        description);
    reconcile();
  }

  private void onProcessorHealth(final StreamProcessor processor, final PartitionHealth report) {
    if (run != null && run.processor() == processor && !report.isHealthy()) {
      fail("the stream processor FAILED: " + report.reason());
    }
  }

  private void onSnapshotPersisted(final PersistedSnapshot snapshot) {
    // the director's I/O thread
    submit(() -> compactLog(snapshot));
  }

  private void compactLog(final PersistedSnapshot snapshot) {
    if (closing) {
      return;
    }
    if (exportHold != null) {
      exportHold.moveTo(snapshot.metadata().exportedPosition());
    }
    final long bound = context.snapshotStore().compactionBoundIndex();
    raft.compact(bound)
        .whenComplete(
            (deleted, error) -> {
              if (error != null) {
                metrics.compactionFailed();
                LOG.warn(
                    "Compacting the log below index {} after snapshot {} failed on {}: {}",
                    bound,
                    snapshot.id(),
                    description,
                    error.toString());
              } else {
                metrics.compaction(deleted);
                LOG.debug(
                    "Compacted the log below index {} after snapshot {} on {}: {}",
                    bound,
                    snapshot.id(),
                    description,
                    deleted ? "segments deleted" : "nothing to delete");
              }
            });
  }

  // ---- reconciling (actor thread) -----------------------------------------------------------

  private void reconcile() {
    if (closing || roleState.isFinal() || transitionInProgress != null || retryTimer != null) {
      return;
    }
    if (raftRole == RaftRole.INACTIVE || raftRole == RaftRole.FAILED) {
      return; // not started yet: nothing to follow
    }
    final boolean lead = raftRole == RaftRole.LEADER;
    final boolean leadingThisTerm =
        run != null && run.scope().isLeader() && lead && run.scope().term() == raftTerm;
    final boolean stale =
        db == null
            || dbSnapshotInstalls != snapshotInstalls.get()
            || (dbUsedByLeader && !leadingThisTerm);
    if (run != null && !stale && (lead ? leadingThisTerm : !run.scope().isLeader())) {
      return; // runs in the right role already
    }
    startTransition(lead ? PartitionRole.LEADER : PartitionRole.FOLLOWER, raftTerm, stale);
  }

  private void startTransition(final PartitionRole target, final long term, final boolean rebuild) {
    final long startedNanos = clock().nanos();
    LOG.debug(
        "Starting transition {} -> {} (term {}, rebuild {}) on {}",
        roleState.role(),
        target,
        term,
        rebuild,
        description);
    final CompletableFuture<Void> steps =
        stopRun()
            .thenComposeAsync(
                ignored -> rebuild ? rebuildState() : CompletableFuture.completedFuture(null),
                executor())
            .thenComposeAsync(ignored -> startRun(target, term), executor());
    transitionInProgress =
        steps.handleAsync(
            (ignored, error) -> {
              onTransitionDone(target, term, rebuild, error, startedNanos);
              return null;
            },
            executor());
  }

  private void onTransitionDone(
      final PartitionRole target,
      final long term,
      final boolean rebuilt,
      final Throwable error,
      final long startedNanos) {
    transitionInProgress = null;
    final Duration duration = Duration.ofNanos(clock().nanos() - startedNanos);
    metrics.transition(target, error == null, duration);
    if (error == null) {
      failedAttempts = 0;
      roleState.transition(
          target,
          term,
          rebuilt,
          rebuilt ? "state rebuilt from " + describeLatestSnapshot() : "state kept");
      health.set(PartitionHealthStatus.HEALTHY, "", null);
      if (pendingFailure != null) {
        fail(pendingFailure);
      } else {
        reconcile();
      }
      return;
    }
    if (closing) {
      return;
    }
    final Throwable cause = Futures.unwrap(error);
    if (pendingFailure != null) {
      fail(pendingFailure);
      return;
    }
    failedAttempts++;
    final String reason =
        "Expected to become "
            + target
            + " in term "
            + term
            + ", but: "
            + cause
            + " (attempt "
            + failedAttempts
            + " of "
            + config.transitionAttemptsMax()
            + ")";
    if (cause instanceof PartitionStateCorruptedException
        || failedAttempts >= config.transitionAttemptsMax()) {
      fail(reason);
      return;
    }
    final Duration delay = retryDelay();
    if (roleState.role() != PartitionRole.INACTIVE) {
      roleState.transition(PartitionRole.INACTIVE, term, false, "a transition failed");
    }
    // the stack trace once per series of failures; the health line says the rest
    health.set(
        PartitionHealthStatus.UNHEALTHY,
        reason + "; retrying in " + delay,
        failedAttempts == 1 ? cause : null);
    final CompletableFuture<Void> cleanup =
        stopRun()
            .handleAsync(
                (ignored, stopError) -> {
                  closeDb();
                  transitionInProgress = null;
                  retryTimer =
                      schedule(
                          delay,
                          () -> {
                            retryTimer = null;
                            reconcile();
                          });
                  return null;
                },
                executor());
    transitionInProgress = cleanup;
  }

  private Duration retryDelay() {
    final Duration min = config.transitionRetryDelayMin();
    final int doublings = Math.min(failedAttempts - 1, 30);
    final Duration delay = min.multipliedBy(1L << doublings);
    return delay.compareTo(config.transitionRetryDelayMax()) > 0
        ? config.transitionRetryDelayMax()
        : delay;
  }

  private CompletableFuture<Void> stopRun() {
    final ProcessingRun stopping = run;
    if (stopping == null) {
      return CompletableFuture.completedFuture(null);
    }
    run = null;
    stopComponents(stopping.scope());
    return stopping.stop();
  }

  private void stopComponents(final ProcessingScope scope) {
    for (final PartitionComponent component : components) {
      try {
        component.onProcessingStopped(scope);
      } catch (final RuntimeException e) {
        LOG.warn(
            "Component '{}' failed to stop run {} on {}; going on",
            component.name(),
            scope.run(),
            description,
            e);
      }
    }
  }

  private CompletableFuture<Void> rebuildState() {
    closeDb();
    final long installs = snapshotInstalls.get();
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
              db = recovered.db();
              dbSnapshotInstalls = installs;
              dbUsedByLeader = false;
              metrics.stateRebuilt();
            },
            executor());
  }

  private CompletableFuture<Void> startRun(final PartitionRole target, final long term) {
    final boolean leader = target == PartitionRole.LEADER;
    final long installs = dbSnapshotInstalls;
    final FencedLogStream view =
        new FencedLogStream(context.logStream(), () -> snapshotInstalls.get() == installs);
    final ProcessingScope scope =
        new ProcessingScope(
            context,
            leader ? StreamProcessorMode.LEADER : StreamProcessorMode.FOLLOWER,
            term,
            db,
            view,
            ++runCount);
    if (leader) {
      dbUsedByLeader = true; // from now on this state is the leader's: never reused after its term
    }
    final ProcessingRun started;
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
    } catch (final RuntimeException e) {
      stopComponents(scope); // components may have started something in registerProcessors
      throw e;
    }
    started
        .processor()
        .addHealthListener(report -> submit(() -> onProcessorHealth(started.processor(), report)));
    run = started;
    return started
        .start(context.scheduler())
        .thenRunAsync(
            () -> {
              for (final PartitionComponent component : components) {
                if (leader) {
                  component.onBecomeLeader(scope, started.processor());
                } else {
                  component.onBecomeFollower(scope, started.processor());
                }
              }
            },
            executor());
  }

  private void fail(final String reason) {
    if (roleState.isFinal() || closing) {
      return;
    }
    if (transitionInProgress != null) {
      pendingFailure = reason;
      return;
    }
    if (retryTimer != null) {
      retryTimer.cancel();
      retryTimer = null;
    }
    roleState.transition(PartitionRole.FAILED, raftTerm, false, reason);
    health.set(PartitionHealthStatus.FAILED, reason, null);
    transitionInProgress =
        stopRun()
            .handleAsync(
                (ignored, error) -> {
                  closeDb();
                  transitionInProgress = null;
                  return null;
                },
                executor());
  }

  private CompletableFuture<Void> beginShutdown() {
    closing = true;
    if (retryTimer != null) {
      retryTimer.cancel();
      retryTimer = null;
    }
    final CompletableFuture<Void> previous =
        transitionInProgress == null
            ? CompletableFuture.completedFuture(null)
            : transitionInProgress.handle((ignored, error) -> null);
    return previous
        .thenComposeAsync(ignored -> stopRun(), executor())
        .handleAsync(
            (ignored, error) -> {
              if (error != null) {
                LOG.warn("Stopping the stream processor of {} failed", description, error);
              }
              closeDb();
              if (exportHold != null) {
                exportHold.close();
              }
              for (final PartitionComponent component : components) {
                try {
                  component.close();
                } catch (final RuntimeException e) {
                  LOG.warn(
                      "Component '{}' failed to close on {}", component.name(), description, e);
                }
              }
              roleState.transition(PartitionRole.CLOSED, raftTerm, false, "closed");
              return null;
            },
            executor());
  }

  /**
   * Applies {@code action} to the current run; fails (without an actor task failing, which would be
   * logged) while no stream processor runs.
   */
  private <T> CompletableFuture<T> withRun(
      final Function<ProcessingRun, CompletableFuture<T>> action) {
    return call(this::currentRun)
        .thenCompose(
            current ->
                current.isPresent()
                    ? action.apply(current.get())
                    : CompletableFuture.failedFuture(
                        new IllegalStateException(
                            "Expected a running stream processor, but "
                                + description
                                + " is "
                                + roleState.role()
                                + " or in a transition. Retry once the partition has a role.")));
  }

  private Optional<ProcessingRun> currentRun() {
    return transitionInProgress == null ? Optional.ofNullable(run) : Optional.empty();
  }

  private void closeDb() {
    if (db != null) {
      db.close();
      db = null;
      dbSnapshotInstalls = -1;
      dbUsedByLeader = false;
    }
  }

  private String describeLatestSnapshot() {
    return context
        .snapshotStore()
        .latestSnapshot()
        .map(snapshot -> "snapshot " + snapshot.id())
        .orElse("an empty state");
  }
}
