package io.cairn.backup.schedule;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * When scheduled backups run: at every multiple of {@code interval} since the epoch (UTC), or at
 * every firing of a {@link CronExpression} (UTC), each with the id of its slot, the slot's start in
 * epoch milliseconds. Ids derived from time increase without coordination: whichever broker runs
 * the schedule, before or after a leader change or a restart, gives a slot the same id, and a
 * partition takes a checkpoint id only once, so a slot is never backed up twice.
 *
 * @param interval the time between two backups, at least {@link #INTERVAL_MIN}; with a cron
 *     expression its shortest gap (backoff and marker spacing are measured against it)
 * @param cron the cron expression, if the slots come from one
 */
public record BackupSchedule(Duration interval, Optional<CronExpression> cron) {

  /** The shortest interval: a backup per second already keeps every partition busy uploading. */
  public static final Duration INTERVAL_MIN = Duration.ofSeconds(1);

  public BackupSchedule {
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(cron, "cron");
    if (interval.compareTo(INTERVAL_MIN) < 0) {
      throw new IllegalArgumentException(
          "Expected a backup schedule interval of at least "
              + INTERVAL_MIN
              + ", but was "
              + interval);
    }
  }

  /** A backup at every multiple of {@code interval}. */
  public BackupSchedule(Duration interval) {
    this(interval, Optional.empty());
  }

  /** A backup at every firing of {@code cron}. */
  public static BackupSchedule cron(CronExpression cron) {
    return new BackupSchedule(cron.shortestGap(), Optional.of(cron));
  }

  /** The slot {@code epochMillis} falls in: its start, which is also its backup id. */
  public long slotAt(long epochMillis) {
    if (cron.isPresent()) {
      return cron.get().previousOrSame(epochMillis);
    }
    long length = interval.toMillis();
    return epochMillis - Math.floorMod(epochMillis, length);
  }

  /** The slot after the one starting at {@code slot}. */
  public long slotAfter(long slot) {
    return cron.isPresent() ? cron.get().next(slot) : slot + interval.toMillis();
  }

  /** How far {@code epochMillis} is from the nearest slot start, before or after it. */
  public long distanceToSlot(long epochMillis) {
    long before = slotAt(epochMillis);
    return Math.min(epochMillis - before, slotAfter(before) - epochMillis);
  }

  /** For logs and messages: "every PT1H" or "cron '0 2 * * *' (UTC)". */
  public String describe() {
    return cron.map(c -> "cron '" + c + "' (UTC)").orElse("every " + interval);
  }
}
