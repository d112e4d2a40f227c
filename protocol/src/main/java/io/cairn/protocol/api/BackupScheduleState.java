package io.cairn.protocol.api;

import java.util.Objects;
import java.util.Optional;

/**
 * The backup schedule as the broker running it (the leader of partition 1) reports it in answer to
 * {@link ApiDescriptor#TYPE_BACKUP_SCHEDULE}.
 *
 * @param nodeId the broker running the schedule
 * @param intervalMillis the schedule's interval
 * @param nextRunMillis when the next run is due (epoch ms)
 * @param nextBackupId the id the next run takes
 * @param lastRun the run that finished last on this broker, if any
 * @param consecutiveFailures failed attempts since the last run that did not fail
 */
public record BackupScheduleState(
    int nodeId,
    long intervalMillis,
    long nextRunMillis,
    long nextBackupId,
    Optional<LastRun> lastRun,
    int consecutiveFailures) {

  public BackupScheduleState {
    Objects.requireNonNull(lastRun, "lastRun");
    if (intervalMillis <= 0) {
      throw new IllegalArgumentException(
          "Expected an interval > 0 ms, but was " + intervalMillis + " (backup schedule)");
    }
    if (consecutiveFailures < 0) {
      throw new IllegalArgumentException(
          "Expected consecutive failures >= 0, but was " + consecutiveFailures);
    }
  }

  /**
   * One finished run.
   *
   * @param backupId the slot's backup id
   * @param startedMillis when it was requested (epoch ms)
   * @param finishedMillis when every partition had answered
   * @param outcome taken, already_taken, superseded or failed
   * @param attempt 1 for the slot's first attempt
   * @param detail what failed; empty unless failed
   */
  public record LastRun(
      long backupId,
      long startedMillis,
      long finishedMillis,
      String outcome,
      int attempt,
      String detail) {
    public LastRun {
      Objects.requireNonNull(outcome, "outcome");
      Objects.requireNonNull(detail, "detail");
      if (attempt < 1) {
        throw new IllegalArgumentException("Expected an attempt >= 1, but was " + attempt);
      }
    }
  }
}
