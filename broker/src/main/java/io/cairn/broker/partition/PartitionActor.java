package io.cairn.broker.partition;

import io.cairn.broker.partition.PartitionActivity.Activity;
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
import io.cairn.streamprocessor.CommandResponseWriter;
import io.cairn.streamprocessor.PartitionHealth;
import io.cairn.streamprocessor.StreamProcessor;
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
 * one transition at a time (the steps are {@link ProcessingRunner}'s):
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
 * with backoff ({@link TransitionBackoff}: {@link PartitionConfig#transitionRetryDelayMin()}
 * doubling up to the max) and after {@link PartitionConfig#transitionAttemptsMax()} consecutive
 * failures the partition is FAILED. A stream processor or raft member that fails, or a recovered
 * state whose digest differs from its snapshot's, makes it FAILED at once (once the work in flight
 * has ended). A FAILED partition stops processing for good; its raft member keeps running (the log
 * stays replicated for diagnosis).
 *
 * <p><b>What it is doing</b> — idle, transitioning, cleaning up after a failed transition, waiting
 * to retry, failing, closing — is one {@link PartitionActivity}: its states carry their data (the
 * transition, the failures so far, the retry timer, the work in flight), its table is there, and
 * its {@code transition} is the one place it changes.
 */
final class PartitionActor extends Actor {

  private static final Logger LOG = LoggerFactory.getLogger(PartitionActor.class);

  private final PartitionContext context;
  private final RaftServer raft;
  private final List<PartitionComponent> components;
  private final PartitionMetrics metrics;
  private final String description;
  private final AtomicLong snapshotInstalls = new AtomicLong();
  private final PartitionRoleState roleState;
  private final PartitionHealthTracker health;
  private final ExporterCompactionHold exportHold;
  private final TransitionBackoff backoff;
  private final ProcessingRunner runner;

  // actor thread only
  private final PartitionActivity activity;
  private RaftRole raftRole = RaftRole.INACTIVE;
  private long raftTerm;

  PartitionActor(
      PartitionContext context,
      RaftServer raft,
      PartitionConfig config,
      PartitionLayout layout,
      List<PartitionComponent> components,
      List<ColumnFamilyDefinition> families,
      CommandResponseWriter responseWriter,
      PartitionMetrics metrics,
      ExportedPositionSource exportedPositions) {
    super(
        "partition-" + context.partitionId() + "-" + context.nodeId(),
        LoggingContext.partition(context.nodeId(), context.partitionId()));
    this.context = context;
    this.raft = raft;
    this.components = List.copyOf(components);
    this.metrics = metrics;
    this.description = "partition " + context.partitionId() + " on node " + context.nodeId();
    this.roleState = new PartitionRoleState(context.partitionId(), context.nodeId(), metrics);
    this.health = new PartitionHealthTracker(context.partitionId(), context.nodeId(), metrics);
    this.exportHold =
        exportedPositions == null
            ? null
            : new ExporterCompactionHold(context.snapshotStore(), context.journal());
    this.backoff = new TransitionBackoff(config);
    this.activity = new PartitionActivity(description);
    this.runner =
        new ProcessingRunner(
            context,
            raft,
            config,
            layout,
            this.components,
            List.copyOf(families),
            responseWriter,
            metrics,
            new PersistNotifyingSnapshotStore(context.snapshotStore(), this::onSnapshotPersisted),
            Tags.of(
                "partition",
                Integer.toString(context.partitionId()),
                "node",
                Integer.toString(context.nodeId())),
            description,
            snapshotInstalls::get,
            exportedPositions,
            executor(),
            (processor, report) -> submit(() -> onProcessorHealth(processor, report)));
  }

  /** Registers the raft listeners; call before the raft member starts. */
  void listenTo(RaftServer server) {
    server.addRoleListener(roleListener());
    server.addCommitListener(
        new RaftCommitListener() {
          @Override
          public void onCommit(long commitIndex) {
            // the log stream tells the stream processor; nothing to do here
          }

          @Override
          public void onSnapshotInstalled(long index, long term) {
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

  void addHealthListener(PartitionHealthListener listener) {
    health.addListener(listener);
  }

  void removeHealthListener(PartitionHealthListener listener) {
    health.removeListener(listener);
  }

  /** Takes a snapshot of the current run's state; fails while no stream processor runs. */
  CompletableFuture<Optional<PersistedSnapshot>> takeSnapshot() {
    return withRun(ProcessingRun::takeSnapshot);
  }

  /** Runs {@code reader} over the state on the stream processor's thread. */
  <T> CompletableFuture<T> readState(Function<CairnDb, T> reader) {
    return withRun(current -> current.read(reader));
  }

  <T> CompletableFuture<T> readProcessedState(Function<CairnDb, T> reader) {
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

  private void onRaftRole(RaftRole newRole, long term) {
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

  private void onRaftSnapshotInstalled(long index, long term) {
    LOG.info(
        "Raft installed a snapshot up to index {} (term {}) on {}; the state will be rebuilt from"
            + " it",
        index,
        term,
        description);
    reconcile();
  }

  private void onProcessorHealth(StreamProcessor processor, PartitionHealth report) {
    if (runner.isCurrent(processor) && !report.isHealthy()) {
      fail("the stream processor FAILED: " + report.reason());
    }
  }

  private void onSnapshotPersisted(PersistedSnapshot snapshot) {
    // the director's I/O thread
    submit(() -> compactLog(snapshot));
  }

  private void compactLog(PersistedSnapshot snapshot) {
    if (activity.isClosing()) {
      return;
    }
    if (exportHold != null) {
      exportHold.moveTo(snapshot.metadata().exportedPosition());
    }
    long bound = context.snapshotStore().compactionBoundIndex();
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

  /** Starts a transition if IDLE and what runs is not what raft says. */
  private void reconcile() {
    if (!(activity.get() instanceof Activity.Idle idle)) {
      return; // busy, waiting to retry, stopped for good or closing
    }
    if (raftRole == RaftRole.INACTIVE || raftRole == RaftRole.FAILED) {
      return; // not started yet: nothing to follow
    }
    boolean lead = raftRole == RaftRole.LEADER;
    Optional<ProcessingScope> scope = runner.run().map(ProcessingRun::scope);
    boolean leadingThisTerm =
        scope.isPresent() && scope.get().isLeader() && lead && scope.get().term() == raftTerm;
    boolean stale = runner.isStale(leadingThisTerm);
    if (scope.isPresent() && !stale && (lead ? leadingThisTerm : !scope.get().isLeader())) {
      return; // runs in the right role already
    }
    startTransition(
        idle.failedAttempts(), lead ? PartitionRole.LEADER : PartitionRole.FOLLOWER, stale);
  }

  private void startTransition(int failedAttempts, PartitionRole target, boolean rebuild) {
    long term = raftTerm;
    CompletableFuture<Void> done = new CompletableFuture<>();
    activity.transition(
        new Activity.Transitioning(
            target, term, rebuild, clock().nanos(), failedAttempts, Optional.empty(), done),
        "raft is " + raftRole + " in term " + term + " and the role is " + roleState.role());
    runner
        .stop()
        .thenComposeAsync(
            ignored -> rebuild ? runner.rebuild() : CompletableFuture.completedFuture(null),
            executor())
        .thenComposeAsync(ignored -> runner.start(target, term), executor())
        .handleAsync(
            (ignored, error) -> {
              try {
                onTransitionDone(error);
              } finally {
                done.complete(null);
              }
              return null;
            },
            executor());
  }

  /** The transition in flight ended (also while closing: the shutdown waits for this). */
  private void onTransitionDone(Throwable error) {
    Activity current = activity.get();
    Activity.Transitioning ended =
        (Activity.Transitioning)
            (current instanceof Activity.Closing closing ? closing.interrupted() : current);
    PartitionRole target = ended.target();
    Duration duration = Duration.ofNanos(clock().nanos() - ended.startedNanos());
    metrics.transition(target, error == null, duration);
    if (error == null) {
      if (current == ended) {
        activity.transition(new Activity.Idle(0), "became " + target);
      }
      roleState.transition(
          target,
          ended.term(),
          ended.rebuild(),
          ended.rebuild() ? "state rebuilt from " + runner.describeLatestSnapshot() : "state kept");
      health.set(PartitionHealthStatus.HEALTHY, "", null);
      if (current == ended) {
        ended.pendingFailure().ifPresentOrElse(this::failNow, this::reconcile);
      }
      return;
    }
    if (current != ended) {
      return; // closing: the shutdown stops and closes what is left
    }
    Throwable cause = Futures.unwrap(error);
    if (ended.pendingFailure().isPresent()) {
      failNow(ended.pendingFailure().get());
      return;
    }
    int failedAttempts = ended.failedAttempts() + 1;
    String reason =
        "Expected to become "
            + target
            + " in term "
            + ended.term()
            + ", but: "
            + cause
            + " (attempt "
            + failedAttempts
            + " of "
            + backoff.attemptsMax()
            + ")";
    if (cause instanceof PartitionStateCorruptedException || backoff.isExhausted(failedAttempts)) {
      failNow(reason);
      return;
    }
    Duration delay = backoff.delay(failedAttempts);
    if (roleState.role() != PartitionRole.INACTIVE) {
      roleState.transition(PartitionRole.INACTIVE, ended.term(), false, "a transition failed");
    }
    // the stack trace once per series of failures; the health line says the rest
    health.set(
        PartitionHealthStatus.UNHEALTHY,
        reason + "; retrying in " + delay,
        failedAttempts == 1 ? cause : null);
    CompletableFuture<Void> cleanedUp = new CompletableFuture<>();
    activity.transition(
        new Activity.CleaningUp(failedAttempts, delay, Optional.empty(), cleanedUp), reason);
    runner
        .stop()
        .handleAsync(
            (ignored, stopError) -> {
              try {
                onCleanedUp();
              } finally {
                cleanedUp.complete(null);
              }
              return null;
            },
            executor());
  }

  /** The run of a failed transition is stopped: close the state, then wait to retry. */
  private void onCleanedUp() {
    runner.closeState();
    if (!(activity.get() instanceof Activity.CleaningUp cleaning)) {
      return; // closing: the shutdown goes on
    }
    if (cleaning.pendingFailure().isPresent()) {
      failNow(cleaning.pendingFailure().get());
      return;
    }
    Cancellable timer = schedule(cleaning.delay(), this::onRetryDue);
    activity.transition(
        new Activity.RetryWaiting(cleaning.failedAttempts(), timer),
        "retrying in " + cleaning.delay());
  }

  private void onRetryDue() {
    if (activity.get() instanceof Activity.RetryWaiting waiting) {
      activity.transition(new Activity.Idle(waiting.failedAttempts()), "the retry delay is over");
      reconcile();
    }
  }

  /**
   * A failure that stops the partition for good: at once when nothing is in flight, else once the
   * transition or cleanup in flight ends. Nothing once FAILING, FAILED or closing.
   */
  private void fail(String reason) {
    Activity current = activity.get();
    if (current instanceof Activity.Transitioning transitioning) {
      activity.transition(
          transitioning.withPendingFailure(reason), "a failure, applied when the transition ends");
    } else if (current instanceof Activity.CleaningUp cleaning) {
      activity.transition(
          cleaning.withPendingFailure(reason), "a failure, applied when the cleanup ends");
    } else if (current instanceof Activity.Idle || current instanceof Activity.RetryWaiting) {
      failNow(reason);
    }
  }

  /** Moves to FAILED (role and health) and stops the run; nothing may be in flight. */
  private void failNow(String reason) {
    if (activity.get() instanceof Activity.RetryWaiting waiting) {
      waiting.timer().cancel();
    }
    CompletableFuture<Void> stopped = new CompletableFuture<>();
    activity.transition(new Activity.Failing(stopped), reason);
    roleState.transition(PartitionRole.FAILED, raftTerm, false, reason);
    health.set(PartitionHealthStatus.FAILED, reason, null);
    runner
        .stop()
        .handleAsync(
            (ignored, error) -> {
              try {
                runner.closeState();
                if (activity.get() instanceof Activity.Failing) {
                  activity.transition(new Activity.Failed(), "the run stopped, the state closed");
                }
              } finally {
                stopped.complete(null);
              }
              return null;
            },
            executor());
  }

  private CompletableFuture<Void> beginShutdown() {
    Activity interrupted = activity.get();
    if (interrupted instanceof Activity.RetryWaiting waiting) {
      waiting.timer().cancel();
    }
    activity.transition(new Activity.Closing(interrupted), "shutdown");
    return interrupted
        .inFlight()
        .handle((ignored, error) -> null)
        .thenComposeAsync(ignored -> runner.stop(), executor())
        .handleAsync(
            (ignored, error) -> {
              if (error != null) {
                LOG.warn("Stopping the stream processor of {} failed", description, error);
              }
              runner.closeState();
              if (exportHold != null) {
                exportHold.close();
              }
              for (PartitionComponent component : components) {
                try {
                  component.close();
                } catch (RuntimeException e) {
                  LOG.warn(
                      "Component '{}' failed to close on {}", component.name(), description, e);
                }
              }
              roleState.transition(PartitionRole.CLOSED, raftTerm, false, "closed");
              activity.transition(new Activity.Closed(), "closed");
              return null;
            },
            executor());
  }

  /**
   * Applies {@code action} to the current run; fails (without an actor task failing, which would be
   * logged) while no stream processor runs.
   */
  private <T> CompletableFuture<T> withRun(Function<ProcessingRun, CompletableFuture<T>> action) {
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

  /** The run, unless work is in flight (a transition, its cleanup, stopping it). */
  private Optional<ProcessingRun> currentRun() {
    return activity.get().inFlight().isDone() ? runner.run() : Optional.empty();
  }
}
