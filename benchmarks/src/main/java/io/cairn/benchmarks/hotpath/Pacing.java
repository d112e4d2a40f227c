package io.cairn.benchmarks.hotpath;

import io.cairn.scheduler.Clock;
import java.util.concurrent.locks.LockSupport;

/** Waiting for a point in time of a {@link Clock}. */
final class Pacing {

  private static final long PARK_MAX_NANOS = 100_000_000;

  private Pacing() {}

  /** Parks until the clock reaches {@code deadlineNanos}. */
  static void sleepUntil(Clock clock, long deadlineNanos) throws InterruptedException {
    long left;
    while ((left = deadlineNanos - clock.nanos()) > 0) {
      LockSupport.parkNanos(Math.min(left, PARK_MAX_NANOS));
      if (Thread.interrupted()) {
        throw new InterruptedException("Interrupted while waiting for the next step");
      }
    }
  }
}
