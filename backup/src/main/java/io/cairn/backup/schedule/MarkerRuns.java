package io.cairn.backup.schedule;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes the markers of a {@link MarkerSchedule}: {@code CHECKPOINT MARK(slot)} to every partition,
 * once per slot, on the {@link BackupScheduler}'s thread while it runs the schedule. A marker that
 * fails is not tried again — the next slot's marker is the next restore point — and one whose slot
 * is close to a backup's is merged into it. Counted in {@value BackupScheduleMetrics#MARKERS}.
 */
public final class MarkerRuns {

  private static final Logger LOG = LoggerFactory.getLogger(MarkerRuns.class);

  private final MarkerSchedule schedule;
  private final CheckpointTaker marker;
  private final BackupScheduleMetrics metrics;

  // the scheduler's thread
  private long lastSlot = Long.MIN_VALUE;
  private boolean inFlight;
  private int failuresInARow;
  private ScheduleStatus.MarkerRun lastRun;

  /**
   * @param marker writes {@code MARK(id)} to every partition's leader
   */
  public MarkerRuns(
      MarkerSchedule schedule, CheckpointTaker marker, BackupScheduleMetrics metrics) {
    this.schedule = Objects.requireNonNull(schedule, "schedule");
    this.marker = Objects.requireNonNull(marker, "marker");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /** The scheduler's thread: the markers' status for {@link BackupScheduler#status()}. */
  ScheduleStatus.MarkerStatus status() {
    return new ScheduleStatus.MarkerStatus(
        schedule.markerInterval(), Optional.ofNullable(lastRun), failuresInARow);
  }

  /**
   * The scheduler's thread, while it runs the schedule: takes the current slot's marker once.
   *
   * @param millis the scheduler's clock, read when the marker's run ends
   */
  void tick(long nowMillis, Executor thread, LongSupplier millis) {
    long slot = schedule.slotAt(nowMillis);
    if (slot <= lastSlot || inFlight) {
      return;
    }
    lastSlot = slot;
    if (schedule.mergedIntoBackup(slot)) {
      metrics.marker("merged");
      return;
    }
    inFlight = true;
    CompletableFuture<TakeOutcome> taken;
    try {
      taken = marker.take(slot);
    } catch (RuntimeException e) {
      taken = CompletableFuture.completedFuture(TakeOutcome.failed(slot, e.toString()));
    }
    taken.whenCompleteAsync(
        (outcome, error) -> {
          inFlight = false;
          TakeOutcome ended = error != null ? TakeOutcome.failed(slot, error.toString()) : outcome;
          lastRun = new ScheduleStatus.MarkerRun(slot, millis.getAsLong(), ended);
          metrics.marker(ended.kind().label());
          if (ended.kind() == TakeOutcome.Kind.FAILED) {
            failuresInARow++;
            if (failuresInARow == 1 || failuresInARow % 60 == 0) {
              LOG.warn(
                  "Marker {} was not taken on every partition ({} in a row): {}",
                  slot,
                  failuresInARow,
                  ended.detail());
            }
          } else {
            failuresInARow = 0;
          }
        },
        thread);
  }

  /** The scheduler stopped running the schedule (this broker no longer leads partition 1). */
  void stopped() {
    lastSlot = Long.MIN_VALUE;
  }
}
