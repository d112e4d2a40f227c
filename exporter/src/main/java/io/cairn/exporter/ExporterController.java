package io.cairn.exporter;

import java.time.Duration;

/**
 * What an {@link Exporter} tells the broker, and its timer. Call only from the exporter's thread
 * (inside {@link Exporter#open}, {@link Exporter#export}, {@link Exporter#close} or a scheduled
 * task).
 */
public interface ExporterController {

  /**
   * Acknowledges every record up to and including {@code position}: they are durable where the
   * exporter puts them, and need not be exported again. Positions only move forward: a lower one
   * than acknowledged already is ignored, and one above the last record handed over is capped to
   * it. The broker stores acknowledged positions in the partition's state (they survive restarts
   * with the next snapshot) and compacts the log only below the lowest of them.
   */
  void updateLastExportedPosition(long position);

  /**
   * The last acknowledged position; {@link ExportedRecord#NO_POSITION} if none yet. Read at open to
   * know where export resumes.
   */
  long lastExportedPosition();

  /**
   * Runs {@code task} on the exporter's thread after {@code delay} (a periodic flush schedules the
   * next run from its task). A task that throws is logged; it is not retried.
   *
   * @return a handle to cancel it; tasks still pending when the exporter closes never run
   */
  ScheduledTask scheduleTask(Duration delay, Runnable task);

  /** A pending task. */
  @FunctionalInterface
  interface ScheduledTask {

    /** Cancels the task if it has not run yet. Idempotent. */
    void cancel();
  }
}
