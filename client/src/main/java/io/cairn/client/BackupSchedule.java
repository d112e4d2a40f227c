package io.cairn.client;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The backup schedule ({@code backup.schedule.interval}) as the broker running it reports it.
 *
 * @param nodeId the broker running it: the leader of partition 1
 * @param interval the time between two scheduled backups
 * @param nextRunAt when the next run is due: the next slot, or the retry of a failed run
 * @param nextBackupId the id the next run takes (its slot's start in epoch milliseconds)
 * @param lastRun the run that finished last on that broker; null before its first
 * @param consecutiveFailures failed attempts since the last run that did not fail
 */
public record BackupSchedule(
    int nodeId,
    Duration interval,
    Instant nextRunAt,
    long nextBackupId,
    ScheduledRun lastRun,
    int consecutiveFailures) {

  public BackupSchedule {
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(nextRunAt, "nextRunAt");
  }

  /** {@link #lastRun()}, empty before the first run. */
  public Optional<ScheduledRun> lastRunIfAny() {
    return Optional.ofNullable(lastRun);
  }

  /**
   * One run of the schedule.
   *
   * @param backupId the slot's backup id
   * @param startedAt when the checkpoint was requested
   * @param finishedAt when every partition had answered
   * @param outcome {@code taken}, {@code already_taken} (before a leader change), {@code
   *     superseded} (a higher id was taken by hand) or {@code failed} (retried with the same id)
   * @param attempt 1 for the slot's first attempt
   * @param detail what failed; empty unless failed
   */
  public record ScheduledRun(
      long backupId,
      Instant startedAt,
      Instant finishedAt,
      String outcome,
      int attempt,
      String detail) {}
}
