package io.cairn.pacing;

import io.cairn.scheduler.Clock;
import java.util.concurrent.TimeUnit;

/**
 * A rate limit in units per second (bytes, mostly) shared by every caller that holds it: a token
 * bucket kept as a virtual clock. Each booking is placed at the limit's rate behind everything
 * booked before; a caller waits until what is booked ahead of now is at most the burst. So over any
 * interval {@code T} at most {@code burst + rate × T} units pass, whichever threads ask, and a
 * booking larger than the burst passes after its share of waiting (it is never refused). Idle time
 * is not saved up beyond the burst.
 *
 * <p>The burst sets the behaviour: a fraction of a second of the rate smooths a stream of chunks;
 * one second of it is the classic bucket of one second's tokens; zero spaces bookings exactly (the
 * next may start only once the last one's units have passed at the rate).
 *
 * <p>Thread-safe; {@link #acquire} waits outside the lock. With a rate of 0 nothing ever waits and
 * no state is kept.
 */
public final class RateLimiter {

  /** Waits a number of nanoseconds; production sleeps, tests move a simulated clock. */
  @FunctionalInterface
  public interface Pause {
    void pause(long nanos) throws InterruptedException;
  }

  /** Sleeps the calling thread. */
  public static final Pause SLEEP = TimeUnit.NANOSECONDS::sleep;

  private static final double NANOS_PER_SECOND = 1e9;

  private final long ratePerSecond;
  private final long burstNanos;
  private final Clock clock;
  private final Pause pause;
  private boolean started;

  /** When everything booked so far will have passed at the rate (the clock's nanos). */
  private long bookedUntilNanos;

  /**
   * @param ratePerSecond the limit; 0 = none
   * @param burst how many units may pass ahead of the rate, {@code >= 0}
   * @param clock the monotonic time {@link #acquire} books at
   * @param pause how {@link #acquire} waits
   */
  public RateLimiter(long ratePerSecond, long burst, Clock clock, Pause pause) {
    if (ratePerSecond < 0) {
      throw new IllegalArgumentException(
          "Expected a rate >= 0 per second, but was " + ratePerSecond + " (rate limiter)");
    }
    if (burst < 0) {
      throw new IllegalArgumentException(
          "Expected a burst >= 0, but was " + burst + " (rate limiter)");
    }
    this.ratePerSecond = ratePerSecond;
    this.burstNanos = ratePerSecond == 0 ? 0 : nanosFor(burst, ratePerSecond);
    this.clock = clock;
    this.pause = pause;
  }

  /**
   * A limiter for a caller that passes the time in ({@link #reserve}, {@link #delayNanos}) and
   * waits on its own timers, as an actor does; it has no clock, so {@link #acquire} is refused.
   */
  public static RateLimiter withoutClock(long ratePerSecond, long burst) {
    return new RateLimiter(ratePerSecond, burst, null, null);
  }

  /** A limiter that never waits. */
  public static RateLimiter unlimited() {
    return new RateLimiter(0, 0, Clock.system(), SLEEP);
  }

  public boolean isUnlimited() {
    return ratePerSecond == 0;
  }

  public long ratePerSecond() {
    return ratePerSecond;
  }

  /**
   * Books {@code units} at {@code nowNanos} and returns how long the caller must wait before they
   * pass. Pure bookkeeping; {@link #acquire} does the waiting.
   */
  public synchronized long reserve(long units, long nowNanos) {
    if (ratePerSecond == 0 || units <= 0) {
      return 0;
    }
    if (!started || bookedUntilNanos - nowNanos < 0) {
      bookedUntilNanos = nowNanos;
      started = true;
    }
    bookedUntilNanos += nanosFor(units, ratePerSecond);
    return Math.max(0, bookedUntilNanos - nowNanos - burstNanos);
  }

  /**
   * How long a booking at {@code nowNanos} would wait before its first unit passes, without booking
   * anything: what is booked ahead of now beyond the burst.
   */
  public synchronized long delayNanos(long nowNanos) {
    if (ratePerSecond == 0 || !started) {
      return 0;
    }
    return Math.max(0, bookedUntilNanos - nowNanos - burstNanos);
  }

  /**
   * Books {@code units} now and waits until they may pass.
   *
   * @return how long it waited, in nanoseconds
   * @throws InterruptedException if the thread is interrupted while waiting
   */
  public long acquire(long units) throws InterruptedException {
    if (ratePerSecond == 0) {
      return 0;
    }
    if (clock == null) {
      throw new IllegalStateException(
          "Expected a limiter with a clock to wait on, but this one is driven by its caller's time"
              + " (rate limiter)");
    }
    long waitNanos = reserve(units, clock.nanos());
    if (waitNanos > 0) {
      pause.pause(waitNanos);
    }
    return waitNanos;
  }

  private static long nanosFor(long units, long ratePerSecond) {
    return (long) Math.ceil((double) units * NANOS_PER_SECOND / ratePerSecond);
  }
}
