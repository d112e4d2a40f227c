package io.cairn.protocol.api;

import java.util.List;
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
 * @param retention the retention policy and its last pass, if retention is configured
 * @param markers the markers between backups, if {@code backup.schedule.markerInterval} is set
 * @param cron the schedule's cron expression ({@code intervalMillis} is then its shortest gap),
 *     empty for an interval schedule; at most {@link #CRON_MAX_BYTES}
 */
public record BackupScheduleState(
    int nodeId,
    long intervalMillis,
    long nextRunMillis,
    long nextBackupId,
    Optional<LastRun> lastRun,
    int consecutiveFailures,
    Optional<Retention> retention,
    Optional<Markers> markers,
    String cron) {

  /** The most deleted ids one answer carries. */
  public static final int DELETED_IDS_MAX = 1000;

  /** The longest cron expression (UTF-8 bytes). */
  public static final int CRON_MAX_BYTES = 256;

  public BackupScheduleState {
    Objects.requireNonNull(lastRun, "lastRun");
    Objects.requireNonNull(retention, "retention");
    Objects.requireNonNull(markers, "markers");
    Objects.requireNonNull(cron, "cron");
    if (cron.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > CRON_MAX_BYTES) {
      throw new IllegalArgumentException(
          "Expected a cron expression of at most " + CRON_MAX_BYTES + " bytes, but was " + cron);
    }
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

  /**
   * The retention policy and its last pass.
   *
   * @param maxCount completed backups kept at most; 0: no count limit
   * @param maxAgeMillis completed backups older than this are deleted; 0: no age limit
   * @param minCount completed backups always kept
   * @param lastPass the pass that finished last, if any
   */
  public record Retention(
      int maxCount, long maxAgeMillis, int minCount, Optional<RetentionPass> lastPass) {
    public Retention {
      Objects.requireNonNull(lastPass, "lastPass");
      if (maxCount < 0 || maxAgeMillis < 0 || minCount < 1) {
        throw new IllegalArgumentException(
            "Expected maxCount >= 0, maxAgeMillis >= 0 and minCount >= 1, but were "
                + maxCount
                + ", "
                + maxAgeMillis
                + " and "
                + minCount
                + " (retention)");
      }
    }
  }

  /**
   * A backup due for deletion whose objects the store's object lock holds until {@code
   * untilMillis}.
   */
  public record LockedBackup(long backupId, long untilMillis) {}

  /**
   * One retention pass.
   *
   * @param finishedMillis when it ended (epoch ms)
   * @param kept the backups it left
   * @param deletedIds the ids whose deletion every partition accepted, at most {@link
   *     #DELETED_IDS_MAX}
   * @param failure what failed; empty if nothing did
   * @param locked due backups kept because the store's object lock still holds them, at most {@link
   *     #DELETED_IDS_MAX}
   */
  public record RetentionPass(
      long finishedMillis,
      int kept,
      List<Long> deletedIds,
      String failure,
      List<LockedBackup> locked) {
    public RetentionPass {
      deletedIds = List.copyOf(deletedIds);
      Objects.requireNonNull(failure, "failure");
      locked = List.copyOf(locked);
      if (locked.size() > DELETED_IDS_MAX) {
        throw new IllegalArgumentException(
            "Expected at most "
                + DELETED_IDS_MAX
                + " locked backups, but were "
                + locked.size()
                + " (retention pass)");
      }
      if (kept < 0 || deletedIds.size() > DELETED_IDS_MAX) {
        throw new IllegalArgumentException(
            "Expected kept >= 0 and at most "
                + DELETED_IDS_MAX
                + " deleted ids, but were "
                + kept
                + " and "
                + deletedIds.size()
                + " (retention pass)");
      }
    }
  }

  /**
   * The markers: restore points taken between backups.
   *
   * @param intervalMillis {@code backup.schedule.markerInterval}
   * @param lastMarker the marker whose run ended last on that broker, if any
   * @param failuresInARow markers in a row not taken on every partition
   */
  public record Markers(long intervalMillis, Optional<LastMarker> lastMarker, int failuresInARow) {
    public Markers {
      Objects.requireNonNull(lastMarker, "lastMarker");
      if (intervalMillis <= 0 || failuresInARow < 0) {
        throw new IllegalArgumentException(
            "Expected a marker interval > 0 ms and failures in a row >= 0, but were "
                + intervalMillis
                + " and "
                + failuresInARow
                + " (markers)");
      }
    }
  }

  /**
   * One marker's run.
   *
   * @param markerId its checkpoint id (the slot's start)
   * @param finishedMillis when every partition had answered (epoch ms)
   * @param outcome taken, already_taken, superseded or failed
   * @param detail what failed; empty unless failed
   */
  public record LastMarker(long markerId, long finishedMillis, String outcome, String detail) {
    public LastMarker {
      Objects.requireNonNull(outcome, "outcome");
      Objects.requireNonNull(detail, "detail");
    }
  }
}
