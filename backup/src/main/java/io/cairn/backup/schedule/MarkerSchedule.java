package io.cairn.backup.schedule;

import java.time.Duration;
import java.util.Objects;

/**
 * When markers are taken (DESIGN.md §9, "Markers"): at every multiple of {@code markerInterval}
 * since the epoch (UTC), each with the id of its slot, the slot's start in epoch milliseconds, as
 * backups are. A marker is a checkpoint without a backup: a restore point of the log archive. One
 * within half a marker interval of a backup slot is merged into that backup (not taken): the backup
 * is a restore point there.
 *
 * @param markerInterval the time between two markers, at least 1 s and below {@code backups}'
 *     interval (a cron schedule's shortest gap)
 * @param backups the schedule of backups
 */
public record MarkerSchedule(Duration markerInterval, BackupSchedule backups) {

  public MarkerSchedule {
    Objects.requireNonNull(markerInterval, "markerInterval");
    Objects.requireNonNull(backups, "backups");
    if (markerInterval.compareTo(BackupSchedule.INTERVAL_MIN) < 0
        || markerInterval.compareTo(backups.interval()) >= 0) {
      throw new IllegalArgumentException(
          "Expected a marker interval of at least "
              + BackupSchedule.INTERVAL_MIN
              + " and below the backup interval "
              + backups.interval()
              + ", but was "
              + markerInterval);
    }
  }

  /** The marker slot {@code epochMillis} falls in: its start, which is also its checkpoint id. */
  public long slotAt(long epochMillis) {
    return new BackupSchedule(markerInterval).slotAt(epochMillis);
  }

  /** Whether the marker of {@code slot} is merged into a backup slot close to it. */
  public boolean mergedIntoBackup(long slot) {
    return 2 * backups.distanceToSlot(slot) < markerInterval.toMillis();
  }
}
