package io.cairn.backup.schedule;

import io.cairn.backup.retention.Retention;
import io.cairn.backup.retention.RetentionRun;
import io.cairn.backupapi.ClusterBackupStatus;
import io.cairn.backupapi.ClusterBackupStatusCode;
import io.cairn.pacing.Backoff;
import io.cairn.scheduler.Actor;
import io.cairn.scheduler.Cancellable;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes the cluster's scheduled backups. Every broker with a schedule runs one; it acts only while
 * its broker leads partition 1, so the cluster runs the schedule once, and a leader change or a
 * restart moves it with the leadership.
 *
 * <p>Each slot of the {@link BackupSchedule} is one backup whose id is the slot's start, taken
 * through the {@link CheckpointTaker} like an operator's {@code TakeBackup}. A broker that begins
 * to lead partition 1 first takes the current slot: if its predecessor took it, every partition
 * answers that it has the id ({@link TakeOutcome.Kind#ALREADY_TAKEN}), nothing is taken twice; if
 * the predecessor died before, or the cluster was down over the slot's start, the slot is taken
 * now, not skipped. Slots missed entirely while nobody led partition 1 are not made up: the newest
 * one stands for them.
 *
 * <p>A run that fails (a partition unreachable or refusing) is tried again with the same id after
 * an exponential backoff, until it succeeds or the next slot begins; a slot superseded by a higher
 * id (a backup taken by hand, or a marker taken while it was retried) is skipped. Status through
 * {@link #status()}, meters in {@link BackupScheduleMetrics}.
 *
 * <p>With {@link Retention} configured, every run that did not fail is followed by one retention
 * pass (never two at once): the backups the policy gives up are deleted through the partitions'
 * logs.
 */
public final class BackupScheduler extends Actor {

  private static final Logger LOG = LoggerFactory.getLogger(BackupScheduler.class);

  /** How often leadership and the due time are looked at; a run starts at most this late. */
  static final Duration TICK = Duration.ofMillis(500);

  /**
   * The waits between attempts of a failed run: 1 s, doubling to a minute; a slot shorter than that
   * is retried until the next one begins.
   */
  public static final Backoff BACKOFF = new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(1));

  /** How long the store's answer about the previous backup is awaited before a run. */
  static final Duration ANSWER_TIMEOUT = Duration.ofMinutes(1);

  /** How long a retention pass may run before another may start. */
  static final Duration RETENTION_TIMEOUT = Duration.ofMinutes(10);

  private final BackupSchedule schedule;
  private final BooleanSupplier leadsPartitionOne;
  private final CheckpointTaker taker;
  private final Backoff backoff;
  private final BackupScheduleMetrics metrics;
  private final Optional<Retention> retention;
  private final Optional<LongFunction<CompletableFuture<ClusterBackupStatus>>> stored;
  private final Backoff storeBackoff;
  private final Optional<MarkerRuns> markers;

  // actor thread only
  private boolean running;
  private boolean inFlight;
  private long dueSlot;
  private long retryAtMillis;
  private int attempt;
  private int consecutiveFailures;
  private ScheduleStatus.ScheduledRun lastRun;
  private RetentionRun lastRetention;

  /** The newest backup this broker's schedule took, and the newest whose end it looked at. */
  private long lastTakenId = -1;

  private long judgedId = -1;
  private boolean checking;
  private long checkStartedMillis;
  private int storeFailures;

  /** No run before this (epoch ms): the backoff after scheduled backups FAILED in the store. */
  private long holdUntilMillis;

  private boolean retentionRunning;
  private long retentionStartedMillis;
  private long retentionGeneration;
  private Cancellable ticks;

  /**
   * @param leadsPartitionOne whether this broker leads partition 1 now
   * @param backoff the waits between attempts of a failed run
   * @param retention run after every run that did not fail, if configured
   * @param stored the cluster status of a backup in the store (empty without a store): before a
   *     run, the previous scheduled backup's end is looked at, and one that FAILED holds the
   *     schedule back
   */
  public BackupScheduler(
      BackupSchedule schedule,
      BooleanSupplier leadsPartitionOne,
      CheckpointTaker taker,
      Backoff backoff,
      BackupScheduleMetrics metrics,
      Optional<Retention> retention,
      Optional<LongFunction<CompletableFuture<ClusterBackupStatus>>> stored) {
    this(schedule, leadsPartitionOne, taker, backoff, metrics, retention, stored, Optional.empty());
  }

  /**
   * @param markers the markers taken between backups, if {@code backup.schedule.markerInterval} is
   *     set
   */
  public BackupScheduler(
      BackupSchedule schedule,
      BooleanSupplier leadsPartitionOne,
      CheckpointTaker taker,
      Backoff backoff,
      BackupScheduleMetrics metrics,
      Optional<Retention> retention,
      Optional<LongFunction<CompletableFuture<ClusterBackupStatus>>> stored,
      Optional<MarkerRuns> markers) {
    super("backup-scheduler");
    this.markers = Objects.requireNonNull(markers, "markers");
    this.schedule = Objects.requireNonNull(schedule, "schedule");
    this.leadsPartitionOne = Objects.requireNonNull(leadsPartitionOne, "leadsPartitionOne");
    this.taker = Objects.requireNonNull(taker, "taker");
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.retention = Objects.requireNonNull(retention, "retention");
    this.stored = Objects.requireNonNull(stored, "stored");
    Duration hour = Duration.ofHours(1);
    this.storeBackoff =
        new Backoff(
            schedule.interval(),
            schedule.interval().compareTo(hour) > 0 ? schedule.interval() : hour);
  }

  @Override
  protected void onStart() {
    ticks = scheduleAtFixedRate(Duration.ZERO, TICK, this::tick);
  }

  @Override
  protected void onClose() {
    if (ticks != null) {
      ticks.cancel();
    }
    metrics.running(false, 0);
  }

  /**
   * The schedule as this broker runs it; empty while it does not lead partition 1 (ask that
   * broker).
   */
  public CompletableFuture<Optional<ScheduleStatus>> status() {
    return call(
        () ->
            running
                ? Optional.of(
                    new ScheduleStatus(
                        schedule.interval(),
                        nextRunMillis(),
                        dueSlot,
                        Optional.ofNullable(lastRun),
                        consecutiveFailures + storeFailures,
                        retention.map(Retention::policy),
                        Optional.ofNullable(lastRetention),
                        markers.map(MarkerRuns::status),
                        schedule.cron().map(CronExpression::toString).orElse("")))
                : Optional.empty());
  }

  private long nextRunMillis() {
    return Math.max(Math.max(dueSlot, retryAtMillis), holdUntilMillis);
  }

  private void tick() {
    long now = clock().millis();
    if (!leadsPartitionOne.getAsBoolean()) {
      if (running) {
        running = false;
        LOG.info("No longer leading partition 1: the backup schedule runs on its new leader");
        metrics.running(false, 0);
        markers.ifPresent(MarkerRuns::stopped);
      }
      return;
    }
    if (!running) {
      running = true;
      dueSlot = schedule.slotAt(now);
      retryAtMillis = 0;
      attempt = 0;
      LOG.info(
          "Leading partition 1: running the backup schedule ({}), starting with slot {} ({})",
          schedule.describe(),
          dueSlot,
          Instant.ofEpochMilli(dueSlot));
    }
    long current = schedule.slotAt(now);
    if (!inFlight && current > dueSlot) {
      // a failing or held slot overtaken by the next one: the newest slot stands for it
      if (attempt > 0) {
        LOG.warn(
            "Scheduled backup {} was not taken before its next slot began ({} attempts); taking"
                + " backup {} instead",
            dueSlot,
            attempt,
            current);
      }
      dueSlot = current;
      retryAtMillis = 0;
      attempt = 0;
    }
    metrics.running(true, nextRunMillis());
    if (checking && now - checkStartedMillis > ANSWER_TIMEOUT.toMillis()) {
      // a store that does not answer must not stop the schedule: its answer is ignored when late
      LOG.warn(
          "The store did not say within {} how scheduled backup {} ended; taking the next one",
          ANSWER_TIMEOUT,
          lastTakenId);
      checking = false;
      judgedId = lastTakenId;
    }
    if (inFlight || checking) {
      return;
    }
    if (now < nextRunMillis()) {
      // markers between backups, never before a backup that is due: a higher marker id first
      // would make the partitions ignore the backup's
      markers.ifPresent(m -> m.tick(now, executor(), () -> clock().millis()));
      return;
    }
    if (stored.isPresent() && lastTakenId > judgedId) {
      checkPrevious(stored.get(), lastTakenId);
      return;
    }
    run(dueSlot, now);
  }

  /**
   * Looks at how the previous scheduled backup ended before taking the next one. FAILED (the store
   * refused it, or a leader changed during it): the schedule holds back for a backoff that starts
   * at one interval and doubles with each backup that FAILED in a row, up to an hour (or the
   * interval, if longer), so a store that is down does not collect a failed backup per slot.
   * COMPLETED ends the backoff; a backup still running, or a store that does not answer, does not
   * hold the next run.
   */
  private void checkPrevious(
      LongFunction<CompletableFuture<ClusterBackupStatus>> status, long backupId) {
    checking = true;
    checkStartedMillis = clock().millis();
    CompletableFuture<ClusterBackupStatus> answer;
    try {
      answer = status.apply(backupId);
    } catch (RuntimeException e) {
      answer = CompletableFuture.failedFuture(e);
    }
    answer.whenCompleteAsync((cluster, error) -> checked(backupId, cluster, error), executor());
  }

  private void checked(long backupId, ClusterBackupStatus cluster, Throwable error) {
    if (!checking || backupId != lastTakenId) {
      return; // answered after the timeout: the schedule went on without it
    }
    checking = false;
    long now = clock().millis();
    ClusterBackupStatusCode code = error == null ? cluster.statusCode() : null;
    if (code == ClusterBackupStatusCode.FAILED) {
      judgedId = backupId;
      storeFailures++;
      metrics.failedInStore();
      Duration hold = storeBackoff.ceiling(storeFailures);
      holdUntilMillis = now + hold.toMillis();
      LOG.warn(
          "Scheduled backup {} FAILED ({}); {} in a row: the next scheduled backup waits {}",
          backupId,
          cluster.reason().orElse("no reason given"),
          storeFailures,
          hold);
      return;
    }
    if (code == ClusterBackupStatusCode.COMPLETED) {
      judgedId = backupId;
      storeFailures = 0;
    } else if (code == ClusterBackupStatusCode.INCOMPLETE
        || code == ClusterBackupStatusCode.DOES_NOT_EXIST) {
      // neither ends a backoff: no status at all may be a store that refused every write
      judgedId = backupId;
    }
    // IN_PROGRESS, or no answer: the next run is not held back for it
    runIfDue(now);
  }

  private void runIfDue(long now) {
    if (running && !inFlight && now >= nextRunMillis() && leadsPartitionOne.getAsBoolean()) {
      run(dueSlot, now);
    }
  }

  private void run(long backupId, long startedMillis) {
    inFlight = true;
    attempt++;
    int thisAttempt = attempt;
    CompletableFuture<TakeOutcome> answer;
    try {
      answer = taker.take(backupId);
    } catch (RuntimeException e) {
      answer = CompletableFuture.failedFuture(e);
    }
    answer
        .exceptionally(e -> TakeOutcome.failed(backupId, String.valueOf(e)))
        .thenAcceptAsync(
            outcome -> finished(backupId, startedMillis, thisAttempt, outcome), executor());
  }

  private void finished(long backupId, long startedMillis, int thisAttempt, TakeOutcome outcome) {
    inFlight = false;
    long now = clock().millis();
    lastRun = new ScheduleStatus.ScheduledRun(backupId, startedMillis, now, outcome, thisAttempt);
    metrics.run(outcome);
    switch (outcome.kind()) {
      case TAKEN -> {
        LOG.info("Scheduled backup {} taken", backupId);
        lastTakenId = backupId;
      }
      case ALREADY_TAKEN ->
          LOG.info("Scheduled backup {} was taken already (before a leader change)", backupId);
      case SUPERSEDED ->
          LOG.warn(
              "Scheduled backup {} skipped: partitions hold the higher checkpoint id {} (a"
                  + " backup taken by hand, or a marker taken while this one was retried);"
                  + " the schedule goes on with the next slot",
              backupId,
              outcome.highestId());
      case FAILED -> {
        consecutiveFailures++;
        Duration wait = backoff.ceiling(thisAttempt);
        retryAtMillis = now + wait.toMillis();
        LOG.warn(
            "Scheduled backup {} failed (attempt {}): {}; trying again in {}",
            backupId,
            thisAttempt,
            outcome.detail(),
            wait);
        return;
      }
    }
    consecutiveFailures = 0;
    if (dueSlot == backupId) {
      dueSlot = schedule.slotAfter(Math.max(backupId, schedule.slotAt(now)));
    }
    retryAtMillis = 0;
    attempt = 0;
    if (running && leadsPartitionOne.getAsBoolean()) {
      // a run that ended after the leadership moved leaves retention to the new leader
      retention.ifPresent(this::runRetention);
    }
  }

  /**
   * After a run: one retention pass, unless one still runs (a pass that has not ended after {@link
   * #RETENTION_TIMEOUT}, its store not answering, no longer holds the next one back).
   */
  private void runRetention(Retention pass) {
    long now = clock().millis();
    if (retentionRunning && now - retentionStartedMillis < RETENTION_TIMEOUT.toMillis()) {
      return;
    }
    if (retentionRunning) {
      LOG.warn(
          "The retention pass started {} ago has not ended; starting another", RETENTION_TIMEOUT);
    }
    retentionRunning = true;
    retentionStartedMillis = now;
    long generation = ++retentionGeneration;
    CompletableFuture<RetentionRun> ended;
    try {
      ended = pass.run(clock().millis());
    } catch (RuntimeException e) {
      ended =
          CompletableFuture.completedFuture(
              new RetentionRun(now, now, 0, List.of(), "retention failed: " + e));
    }
    ended.thenAcceptAsync(
        done -> {
          if (generation == retentionGeneration) {
            retentionRunning = false;
          }
          lastRetention =
              new RetentionRun(
                  done.startedMillis(),
                  clock().millis(),
                  done.kept(),
                  done.requested(),
                  done.failure(),
                  done.locked());
          metrics.retention(done);
        },
        executor());
  }
}
