package io.cairn.backup;

import io.cairn.backup.BackupManagerState.State;
import io.cairn.backup.upload.BackupJob;
import io.cairn.backup.upload.BackupPlanner;
import io.cairn.backup.upload.BackupUploader;
import io.cairn.backup.upload.CheckpointReservation;
import io.cairn.backup.upload.ConfirmationWriter;
import io.cairn.backup.upload.InProgressSweep;
import io.cairn.backupapi.BackupFailure;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.pacing.RateLimiter;
import io.cairn.scheduler.Actor;
import io.cairn.scheduler.Cancellable;
import io.cairn.scheduler.Futures;
import io.cairn.scheduler.LoggingContext;
import io.cairn.snapshot.SnapshotStore;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes the backups of one partition on its leader (DESIGN.md §9); an {@link Actor} that lives as
 * long as the leadership: start it when the member becomes leader, close it when it stops being
 * leader.
 *
 * <p><b>Steps of one backup.</b>
 *
 * <ol>
 *   <li>At the checkpoint ({@link #onCheckpointCreated}, on the processing thread, when the {@code
 *       CREATED} event was applied): hold the log from index 1, reserve the newest snapshot whose
 *       processed and last written positions are both below the checkpoint position, narrow the
 *       hold to its index ({@link CheckpointReservation}) — before any call to the store. Then hand
 *       the backup to this actor; the processing thread never waits for anything else.
 *   <li>When an upload slot is free ({@link BackupConfig#maxConcurrentBackups()}, {@link
 *       BackupConfig#uploadRateBytesPerSecond()}), on the upload executor: look the id up in the
 *       store for this partition (any node) — COMPLETED: nothing to do; FAILED or IN_PROGRESS:
 *       refused, ids are never reused. Otherwise collect the files ({@link BackupPlanner}: the
 *       snapshot's files, the segments up to the checkpoint with lengths fixed now) and save them,
 *       passing the partition's previous completed backup so the store reuses equal files.
 *   <li>When the save ends: release the reservation and the hold; on success write {@code
 *       CHECKPOINT CONFIRM_BACKUP(id)} (retried on backpressure); on any failure make sure the
 *       backup is FAILED with the reason in the store (never left IN_PROGRESS): a mark the store
 *       fails is tried again, with backoff, while the manager leads.
 * </ol>
 *
 * <p><b>Leadership.</b> On start, before any backup of its own reaches the store, the manager marks
 * <em>every</em> IN_PROGRESS backup of its partition FAILED ({@code LEADER_CHANGED}), whichever
 * node wrote it ({@link InProgressSweep}); an attempt that fails is tried again, with backoff on
 * the actor's timers, until one succeeds or the manager closes. On close (leadership lost), queued
 * backups are dropped and running ones are marked FAILED ({@code LEADER_CHANGED}), which stops
 * their saves; reservations are released once the store no longer reads the files.
 *
 * <p><b>States.</b> SWEEPING, SWEEP_BACKOFF (a failed sweep attempt waits to be tried again), OPEN
 * (backups reach the store), STOPPED: {@link BackupManagerState} has them, their table and the one
 * method that changes them. Each backup has its own states ({@link BackupJob}); the backups that
 * run, and the end of each (log line, FAILED in the store, meters, outcome), are {@link
 * ActiveBackups}'.
 *
 * <p>Threads: {@link #onCheckpointCreated}/{@link #takeBackup} from any thread (the processing
 * thread); the rest on the actor thread; file collection on the injected upload executor; the
 * store's work on the store's own executor. Results come back to the actor, whose lines carry the
 * node and partition ids in the logging MDC ({@link LoggingContext}).
 */
public final class BackupManager extends Actor implements CheckpointListener {

  /** The reason of backups failed by a change of leader. */
  public static final String LEADER_CHANGED =
      BackupFailure.LEADER_CHANGED.reason("this member stopped leading the partition");

  private static final Logger LOG = LoggerFactory.getLogger(BackupManager.class);

  private final int partitionId;
  private final SnapshotStore snapshots;
  private final BackupConfig config;
  private final BackupMetrics metrics;
  private final BackupUploader uploader;
  private final ConfirmationWriter confirmations;

  /** Spaces backups so that their average upload rate stays at the configured limit. */
  private final RateLimiter throttle;

  private final InProgressSweep sweep;
  private final CompletableFuture<Void> ready = new CompletableFuture<>();

  // any thread
  private final ActiveBackups active;

  // moves on the actor thread, read anywhere (STOPPED, by the upload executor)
  private final BackupManagerState state;

  // actor thread
  private final ArrayDeque<BackupJob> pending = new ArrayDeque<>();
  private final Map<Long, BackupJob> running = new LinkedHashMap<>();
  private Cancellable drainTimer;
  private Optional<BackupIdentifier> latestCompleted = Optional.empty();

  BackupManager(BackupManagerBuilder builder) {
    super(
        "backup-manager-" + builder.partitionId,
        LoggingContext.partition(builder.nodeId, builder.partitionId));
    partitionId = builder.partitionId;
    snapshots = builder.snapshots;
    config = builder.config;
    metrics = builder.metrics;
    uploader =
        new BackupUploader(
            builder.partitionId,
            builder.nodeId,
            builder.store,
            new BackupPlanner(
                builder.nodeId,
                builder.partitionId,
                builder.partitionCount,
                builder.brokerVersion,
                builder.journal),
            builder.uploadExecutor,
            metrics);
    throttle = RateLimiter.withoutClock(config.uploadRateBytesPerSecond(), 0);
    sweep = new InProgressSweep(partitionId, uploader);
    active =
        new ActiveBackups(
            partitionId,
            uploader,
            metrics,
            () -> clock().nanos(),
            (reason, checkpointId) -> markFailedAgain(checkpointId, reason, 1));
    state = new BackupManagerState(partitionId);
    confirmations =
        new ConfirmationWriter(
            partitionId, builder.writer, config, metrics, this::schedule, this::isStopped);
  }

  public static BackupManagerBuilder builder() {
    return new BackupManagerBuilder();
  }

  public int partitionId() {
    return partitionId;
  }

  /**
   * Completes once an attempt of the start-up sweep (marking the partition's IN_PROGRESS backups
   * FAILED) succeeded; backups wait for it before they reach the store. Fails if the manager closes
   * first.
   */
  public CompletableFuture<Void> ready() {
    return ready;
  }

  // ---- requests (any thread) ----------------------------------------------------------------

  /** Takes the checkpoint's backup; see {@link #takeBackup}. */
  @Override
  public void onCheckpointCreated(Checkpoint checkpoint) {
    takeBackup(checkpoint);
  }

  /**
   * Reserves what the backup of {@code checkpoint} needs at once, on the calling thread, and queues
   * the upload. A backup of this id already running here gets that backup's outcome.
   *
   * @return completes when the backup ended; never fails (a failure is an outcome)
   */
  public CompletableFuture<BackupOutcome> takeBackup(Checkpoint checkpoint) {
    return takeBackup(checkpoint, CompletableFuture.completedFuture(true));
  }

  /**
   * As {@link #takeBackup(Checkpoint)}, the upload held until {@code proceed} says whether the
   * checkpoint is a backup at all (one taken through a stamp may be a marker): true queues it,
   * false (or a failure) releases the reservation and ends it as {@link BackupOutcome.Kind#MARKER}.
   */
  public CompletableFuture<BackupOutcome> takeBackup(
      Checkpoint checkpoint, CompletionStage<Boolean> proceed) {
    Objects.requireNonNull(checkpoint, "checkpoint");
    BackupJob existing = active.get(checkpoint.id());
    if (existing != null) {
      return existing.outcome();
    }
    if (isClosed()) {
      return CompletableFuture.completedFuture(
          BackupOutcome.failed(
              checkpoint.id(),
              BackupFailure.LEADER_CHANGED.reason(
                  "Expected the backup manager of partition "
                      + partitionId
                      + " to run, but it is"
                      + " closed (this member no longer leads the partition)")));
    }
    long now = clock().nanos();
    BackupJob job = BackupJob.reserve(checkpoint, snapshots, now);
    BackupJob raced = active.putIfAbsent(job);
    if (raced != null) {
      job.release(); // the same checkpoint told twice at once: one backup
      return raced.outcome();
    }
    proceed.whenComplete(
        (backup, decisionFailed) -> {
          if (decisionFailed != null || !Boolean.TRUE.equals(backup)) {
            active.drop(job);
            return;
          }
          metrics.backupStarted();
          submit(() -> accept(job))
              .whenComplete(
                  (ignored, error) -> {
                    if (error != null && job.state() instanceof BackupJob.State.Submitted) {
                      // closed before it ran: nothing reached the store
                      active.finish(job, BackupOutcome.failed(checkpoint.id(), LEADER_CHANGED));
                    }
                  });
        });
    return job.outcome();
  }

  // ---- life cycle (actor thread) --------------------------------------------------------------

  @Override
  protected void onStart() {
    state.transition(
        new State.Sweeping(1),
        "leading; sweeping the store for IN_PROGRESS backups of earlier leaders",
        null);
    startSweep(1);
  }

  @Override
  protected void onClose() {
    State previous = state.get();
    state.transition(
        new State.Stopped(),
        "leadership lost: "
            + pending.size()
            + " waiting and "
            + running.size()
            + " running backups end FAILED ("
            + LEADER_CHANGED
            + ")",
        null);
    if (previous instanceof State.SweepBackoff backoff) {
      backoff.retry().cancel();
    }
    if (drainTimer != null) {
      drainTimer.cancel();
    }
    for (BackupJob job : pending) {
      uploader
          .markFailed(job.id(), LEADER_CHANGED)
          .whenComplete(
              (status, error) ->
                  active.finish(job, BackupOutcome.failed(job.checkpoint().id(), LEADER_CHANGED)));
    }
    pending.clear();
    for (BackupJob job : running.values()) {
      // its save ends with BackupMarkedFailedException; the job ends (and releases) then
      uploader.markFailed(job.id(), LEADER_CHANGED);
    }
    running.clear();
    if (!ready.isDone()) {
      ready.completeExceptionally(new IllegalStateException("closed before the sweep ended"));
    }
  }

  /** Actor thread: runs sweep attempt {@code attempt}; its end comes back to the actor. */
  private void startSweep(int attempt) {
    sweep
        .attempt()
        .whenComplete((result, error) -> runOnActor(() -> swept(attempt, result, error), () -> {}));
  }

  /** Actor thread: sweep attempt {@code attempt} ended. */
  private void swept(int attempt, InProgressSweep.Result result, Throwable error) {
    if (!(state.get() instanceof State.Sweeping sweeping) || sweeping.attempt() != attempt) {
      return;
    }
    if (error == null) {
      result.completed().forEach(this::rememberCompleted);
      state.transition(
          new State.Open(),
          "the sweep marked "
              + result.markedFailed()
              + " IN_PROGRESS backups of earlier leaders FAILED; backups reach the store from now on",
          null);
      ready.complete(null);
      drain();
      return;
    }
    Throwable cause = Futures.unwrap(error);
    Duration delay = InProgressSweep.retryDelay(attempt);
    Cancellable retry = schedule(delay, () -> retrySweep(attempt));
    state.transition(
        new State.SweepBackoff(attempt, retry),
        "could not check the store for IN_PROGRESS backups of an earlier leader ("
            + cause
            + "); trying again in "
            + delay
            + ", backups wait",
        attempt == 1 ? cause : null);
  }

  /** Actor thread: the backoff after {@code failedAttempts} failed attempts is over. */
  private void retrySweep(int failedAttempts) {
    if (state.get() instanceof State.SweepBackoff backoff
        && backoff.failedAttempts() == failedAttempts) {
      state.transition(new State.Sweeping(failedAttempts + 1), "trying the sweep again", null);
      startSweep(failedAttempts + 1);
    }
  }

  /**
   * Any thread: backup {@code checkpointId} of this node could not be marked FAILED ({@code
   * failedAttempts} times); tries again after {@link InProgressSweep#retryDelay}, on the actor's
   * timer, while this manager leads. Without it a backup whose upload and FAILED mark both failed
   * would stay IN_PROGRESS until the next change of leader, and retention would wait on it. Once
   * leadership is lost the next leader's sweep marks it.
   */
  private void markFailedAgain(long checkpointId, String reason, int failedAttempts) {
    runOnActor(
        () -> {
          if (isStopped()) {
            return;
          }
          schedule(
              InProgressSweep.retryDelay(failedAttempts),
              () ->
                  uploader
                      .markFailed(checkpointId, reason)
                      .whenComplete(
                          (status, error) -> {
                            if (error != null) {
                              markFailedAgain(checkpointId, reason, failedAttempts + 1);
                            } else {
                              LOG.info(
                                  "Partition {}: backup {} marked FAILED at attempt {}",
                                  partitionId,
                                  checkpointId,
                                  failedAttempts + 1);
                            }
                          }));
        },
        () -> {});
  }

  /** Any thread: leadership was lost; nothing more is uploaded, confirmed or retried. */
  private boolean isStopped() {
    return state.get() instanceof State.Stopped;
  }

  // ---- queue (actor thread) -------------------------------------------------------------------

  private void accept(BackupJob job) {
    job.transition(new BackupJob.State.Waiting(), "taken over by the manager");
    if (isStopped()) {
      active.finish(job, BackupOutcome.failed(job.checkpoint().id(), LEADER_CHANGED));
      return;
    }
    if (pending.size() >= config.maxPendingBackups()) {
      active.fail(
          job,
          BackupFailure.QUEUE_FULL.reason(
              "Expected at most "
                  + config.maxPendingBackups()
                  + " backups waiting to upload ("
                  + BackupConfig.MAX_PENDING_BACKUPS_KEY
                  + "), but "
                  + pending.size()
                  + " are waiting (partition "
                  + partitionId
                  + ")"));
      return;
    }
    pending.add(job);
    drain();
  }

  private void drain() {
    while (state.get() instanceof State.Open
        && running.size() < config.maxConcurrentBackups()
        && !pending.isEmpty()) {
      long now = clock().nanos();
      long delayNanos = throttle.delayNanos(now);
      if (delayNanos > 0) {
        if (drainTimer == null) {
          drainTimer =
              schedule(
                  Duration.ofNanos(delayNanos),
                  () -> {
                    drainTimer = null;
                    drain();
                  });
        }
        return;
      }
      BackupJob job = pending.poll();
      running.put(job.id(), job);
      job.transition(new BackupJob.State.Uploading(now), "an upload slot is free");
      upload(job);
    }
  }

  // ---- one backup ------------------------------------------------------------------------------

  /** Actor thread: starts the upload chain; its end comes back through {@link #uploaded}. */
  private void upload(BackupJob job) {
    BackupJob.Reservation reservation = job.reservation();
    if (reservation instanceof BackupJob.Reservation.Unavailable unavailable) {
      running.remove(job.id());
      active.fail(job, unavailable.reason());
      return;
    }
    CheckpointReservation held = ((BackupJob.Reservation.Held) reservation).reservation();
    Optional<BackupIdentifier> previous =
        latestCompleted.filter(completed -> completed.checkpointId() < job.id());
    uploader
        .upload(job, held, previous, this::isStopped)
        .whenComplete(
            (outcome, error) -> {
              // the store no longer reads the files: release them before anything else
              job.release();
              runOnActor(
                  () -> uploaded(job, outcome, error), () -> active.ended(job, outcome, error));
            });
  }

  /** Actor thread: the upload chain of {@code job} ended. */
  private void uploaded(BackupJob job, BackupOutcome outcome, Throwable error) {
    running.remove(job.id());
    if (error == null && outcome.kind() == BackupOutcome.Kind.COMPLETED) {
      BackupSaveResult result = outcome.saveResult().orElseThrow();
      throttle.reserve(result.copiedBytes(), job.uploadStartNanos());
      rememberCompleted(result.status());
      confirmations.confirm(job.checkpoint());
    }
    active.ended(job, outcome, error);
    drain();
  }

  // ---- helpers
  // -----------------------------------------------------------------------------------

  private void rememberCompleted(BackupStatus status) {
    if (status.statusCode() != BackupStatusCode.COMPLETED) {
      return;
    }
    status.lastUpdatedAt().ifPresent(at -> metrics.latestCompleted(at.toEpochMilli()));
    if (latestCompleted.isEmpty()
        || status.id().checkpointId() > latestCompleted.get().checkpointId()) {
      latestCompleted = Optional.of(status.id());
    }
  }

  /**
   * Runs {@code onActor} on the actor; once the actor no longer takes tasks (closing, closed), runs
   * {@code detached} here instead, which must touch no actor state.
   */
  private void runOnActor(Runnable onActor, Runnable detached) {
    submit(onActor)
        .whenComplete(
            (ignored, error) -> {
              if (error != null && isClosed()) {
                detached.run();
              }
            });
  }
}
