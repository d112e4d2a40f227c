package io.cairn.scheduler;

/**
 * The only source of time for Cairn code. Core modules never call {@code
 * System.currentTimeMillis()} or {@code System.nanoTime()} directly; they are given a {@code
 * Clock}, so that simulations can drive time deterministically (see {@code SimClock}).
 */
public interface Clock {

  /** Wall-clock time in milliseconds since the epoch. */
  long millis();

  /** Monotonic time in nanoseconds, for measuring durations only. */
  long nanos();

  /** The clock of the running system. */
  static Clock system() {
    return SystemClock.INSTANCE;
  }
}
