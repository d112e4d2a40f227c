package io.cairn.scheduler;

import java.time.Instant;

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

  /** Wall-clock time as an {@link Instant}, at millisecond precision. */
  default Instant instant() {
    return Instant.ofEpochMilli(millis());
  }

  /** The clock of the running system. */
  static Clock system() {
    return SystemClock.INSTANCE;
  }

  /**
   * A meter registry's clock seen as a {@code Clock}, for code timed on the same base as its meters
   * (tests drive both with one Micrometer {@code MockClock}).
   */
  static Clock of(io.micrometer.core.instrument.Clock registryClock) {
    return new Clock() {
      @Override
      public long millis() {
        return registryClock.wallTime();
      }

      @Override
      public long nanos() {
        return registryClock.monotonicTime();
      }
    };
  }
}
