package io.cairn.backup.schedule;

import io.cairn.backup.retention.RetentionPolicy;
import io.cairn.backup.retention.RetentionRun;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The backup schedule as the broker running it sees it.
 *
 * @param interval the schedule's interval
 * @param nextRunMillis when the next run is due (epoch ms): the next slot, or the retry of a failed
 *     run
 * @param nextBackupId the id the next run takes (its slot)
 * @param lastRun the run that finished last since this broker began running the schedule
 * @param consecutiveFailures failed attempts since the last run that was not {@code FAILED}, plus
 *     scheduled backups in a row that ended FAILED in the store
 * @param retention the retention policy, if one is configured
 * @param lastRetention the retention pass that finished last on this broker
 * @param markers the markers between backups, if {@code backup.schedule.markerInterval} is set
 * @param cron the schedule's cron expression ({@code backup.schedule.cron}; {@code interval} is
 *     then its shortest gap), empty for an interval schedule
 */
public record ScheduleStatus(
    Duration interval,
    long nextRunMillis,
    long nextBackupId,
    Optional<ScheduledRun> lastRun,
    int consecutiveFailures,
    Optional<RetentionPolicy> retention,
    Optional<RetentionRun> lastRetention,
    Optional<MarkerStatus> markers,
    String cron) {

  public ScheduleStatus {
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(lastRun, "lastRun");
    Objects.requireNonNull(retention, "retention");
    Objects.requireNonNull(lastRetention, "lastRetention");
    Objects.requireNonNull(markers, "markers");
    Objects.requireNonNull(cron, "cron");
  }

  /**
   * The markers: restore points taken between backups.
   *
   * @param interval {@code backup.schedule.markerInterval}
   * @param lastMarker the marker whose run ended last on this broker, if any
   * @param failuresInARow markers in a row not taken on every partition
   */
  public record MarkerStatus(
      Duration interval, Optional<MarkerRun> lastMarker, int failuresInARow) {
    public MarkerStatus {
      Objects.requireNonNull(interval, "interval");
      Objects.requireNonNull(lastMarker, "lastMarker");
    }
  }

  /**
   * One marker's run.
   *
   * @param markerId the slot's id (a checkpoint id)
   * @param finishedMillis when every partition had answered (epoch ms)
   * @param outcome what came of it
   */
  public record MarkerRun(long markerId, long finishedMillis, TakeOutcome outcome) {
    public MarkerRun {
      Objects.requireNonNull(outcome, "outcome");
    }
  }

  /**
   * One run of the schedule.
   *
   * @param backupId the slot's id
   * @param startedMillis when the checkpoint was requested (epoch ms)
   * @param finishedMillis when every partition had answered
   * @param outcome what came of it
   * @param attempt 1 for the slot's first attempt, more for retries after failures
   */
  public record ScheduledRun(
      long backupId, long startedMillis, long finishedMillis, TakeOutcome outcome, int attempt) {
    public ScheduledRun {
      Objects.requireNonNull(outcome, "outcome");
    }
  }
}
