package io.cairn.client;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The backup schedule ({@code backup.schedule.interval} or {@code backup.schedule.cron}) as the
 * broker running it reports it.
 *
 * @param nodeId the broker running it: the leader of partition 1
 * @param interval the time between two scheduled backups; with a cron schedule the shortest
 * @param nextRunAt when the next run is due: the next slot, or the retry of a failed run
 * @param nextBackupId the id the next run takes (its slot's start in epoch milliseconds)
 * @param lastRun the run that finished last on that broker; null before its first
 * @param consecutiveFailures failed attempts since the last run that did not fail
 * @param retention the retention policy and its last pass; null without {@code backup.retention.*}
 * @param markers the markers between backups; null without {@code backup.schedule.markerInterval}
 * @param cron the cron expression (UTC) of a cron schedule; empty for an interval schedule
 */
public record BackupSchedule(
    int nodeId,
    Duration interval,
    Instant nextRunAt,
    long nextBackupId,
    ScheduledRun lastRun,
    int consecutiveFailures,
    Retention retention,
    Markers markers,
    String cron) {

  public BackupSchedule {
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(nextRunAt, "nextRunAt");
    Objects.requireNonNull(cron, "cron");
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
   * @param backupState the run's backup across the partitions now ({@code DOES_NOT_EXIST} once
   *     retention deleted it); {@code UNKNOWN} when the store did not answer
   */
  public record ScheduledRun(
      long backupId,
      Instant startedAt,
      Instant finishedAt,
      String outcome,
      int attempt,
      String detail,
      BackupState backupState) {}

  /**
   * Which backups the cluster keeps (Elasticsearch's SLM retention is the model).
   *
   * @param maxCount completed backups kept at most; 0: no count limit
   * @param maxAge completed backups older than this are deleted; null: no age limit
   * @param minCount completed backups always kept
   * @param lastPass the pass that finished last; null before the first
   */
  public record Retention(int maxCount, Duration maxAge, int minCount, RetentionPass lastPass) {}

  /**
   * One retention pass, after a scheduled run.
   *
   * @param finishedAt when it ended
   * @param kept backups it left
   * @param deletedBackupIds backups whose deletion every partition accepted
   * @param failure what failed; empty if nothing did (the next pass decides again)
   * @param lockedBackups backups due for deletion that the store's object lock still holds: each is
   *     deleted by the first pass after its lock ends
   */
  public record RetentionPass(
      Instant finishedAt,
      int kept,
      java.util.List<Long> deletedBackupIds,
      String failure,
      java.util.List<LockedBackup> lockedBackups) {
    public RetentionPass {
      deletedBackupIds = java.util.List.copyOf(deletedBackupIds);
      lockedBackups = java.util.List.copyOf(lockedBackups);
    }
  }

  /** A backup due for deletion that the store's object lock holds until {@code lockedUntil}. */
  public record LockedBackup(long backupId, Instant lockedUntil) {}

  /**
   * The markers: restore points of the log archive taken between backups.
   *
   * @param interval {@code backup.schedule.markerInterval}
   * @param lastMarker the marker whose run ended last on that broker; null before the first
   * @param failuresInARow markers in a row not taken on every partition
   */
  public record Markers(Duration interval, MarkerRun lastMarker, int failuresInARow) {}

  /**
   * One marker's run.
   *
   * @param markerId its checkpoint id (the slot's start in epoch milliseconds)
   * @param finishedAt when every partition had answered
   * @param outcome {@code taken}, {@code already_taken}, {@code superseded} or {@code failed}
   * @param detail what failed; empty unless failed
   */
  public record MarkerRun(long markerId, Instant finishedAt, String outcome, String detail) {}
}
