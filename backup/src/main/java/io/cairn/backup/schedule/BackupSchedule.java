package io.cairn.backup.schedule;

import java.time.Duration;
import java.util.Objects;

/**
 * When scheduled backups run: at every multiple of {@code interval} since the epoch (UTC), each
 * with the id of its slot, the slot's start in epoch milliseconds. Ids derived from time increase
 * without coordination: whichever broker runs the schedule, before or after a leader change or a
 * restart, gives a slot the same id, and a partition takes a checkpoint id only once, so a slot is
 * never backed up twice.
 *
 * @param interval the time between two backups, at least {@link #INTERVAL_MIN}
 */
public record BackupSchedule(Duration interval) {

  /** The shortest interval: a backup per second already keeps every partition busy uploading. */
  public static final Duration INTERVAL_MIN = Duration.ofSeconds(1);

  public BackupSchedule {
    Objects.requireNonNull(interval, "interval");
    if (interval.compareTo(INTERVAL_MIN) < 0) {
      throw new IllegalArgumentException(
          "Expected a backup schedule interval of at least "
              + INTERVAL_MIN
              + ", but was "
              + interval);
    }
  }

  /** The slot {@code epochMillis} falls in: its start, which is also its backup id. */
  public long slotAt(long epochMillis) {
    long length = interval.toMillis();
    return epochMillis - Math.floorMod(epochMillis, length);
  }

  /** The slot after the one starting at {@code slot}. */
  public long slotAfter(long slot) {
    return slot + interval.toMillis();
  }
}
