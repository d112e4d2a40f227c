package io.cairn.scheduler;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Clock} that only moves when told to, for tests and simulations.
 *
 * <p>Time is kept in nanoseconds: {@code nanos() == millis() * 1_000_000 + sub-millisecond part}.
 * It is monotone: nothing ever moves it back. It may be read from any thread; it is normally
 * advanced by {@link DeterministicScheduler} as it runs tasks.
 */
public final class SimClock implements Clock {

  private static final long NANOS_PER_MILLI = 1_000_000L;

  private final AtomicLong nowNanos;

  /**
   * @param startMillis the initial value of {@link #millis()}, at least 0
   */
  public SimClock(long startMillis) {
    if (startMillis < 0 || startMillis > Long.MAX_VALUE / NANOS_PER_MILLI) {
      throw new IllegalArgumentException(
          "Expected startMillis in [0, "
              + Long.MAX_VALUE / NANOS_PER_MILLI
              + "], but was "
              + startMillis
              + " (SimClock)");
    }
    this.nowNanos = new AtomicLong(startMillis * NANOS_PER_MILLI);
  }

  @Override
  public long millis() {
    return nowNanos.get() / NANOS_PER_MILLI;
  }

  @Override
  public long nanos() {
    return nowNanos.get();
  }

  /**
   * Moves time forward by {@code d}.
   *
   * @throws IllegalArgumentException if {@code d} is negative
   */
  public void advance(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException(
          "Expected a duration >= 0, but was " + d + " (SimClock.advance)");
    }
    long delta = d.toNanos();
    nowNanos.getAndUpdate(now -> now + delta);
  }

  /** Moves time to {@code millis} (with no sub-millisecond part); a no-op if that is not later. */
  public void advanceTo(long millis) {
    advanceToNanos(millis * NANOS_PER_MILLI);
  }

  /** Moves time to {@code nanos}; a no-op if that is not later than now. */
  public void advanceToNanos(long nanos) {
    nowNanos.accumulateAndGet(nanos, Math::max);
  }

  @Override
  public String toString() {
    long now = nowNanos.get();
    return "SimClock{millis="
        + now / NANOS_PER_MILLI
        + ", subMillisNanos="
        + now % NANOS_PER_MILLI
        + "}";
  }
}
