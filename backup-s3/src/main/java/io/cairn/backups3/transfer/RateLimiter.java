package io.cairn.backups3.transfer;

import io.cairn.backupapi.BackupStoreException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A token bucket in bytes: {@code bytesPerSecond} tokens a second, at most one second's worth saved
 * up. A transfer reserves its bytes before sending them; a reservation larger than what is saved up
 * is granted at once and paid back by waiting, so one large part never blocks forever and the
 * long-run rate stays at the limit. Thread-safe; waits happen outside the lock.
 */
public final class RateLimiter {

  /** Waits a number of nanoseconds; production sleeps, tests hold a transfer. */
  @FunctionalInterface
  public interface Pause {
    void pause(long nanos) throws InterruptedException;
  }

  /** Sleeps the calling thread. */
  public static final Pause SLEEP = TimeUnit.NANOSECONDS::sleep;

  private static final double NANOS_PER_SECOND = 1e9;

  private final long bytesPerSecond;
  private final LongSupplier nanoClock;
  private final Pause pause;
  private double tokens;
  private long lastNanos;
  private boolean started;

  /**
   * @param bytesPerSecond the limit; 0 = none
   * @param nanoClock a monotonic clock in nanoseconds
   */
  public RateLimiter(long bytesPerSecond, LongSupplier nanoClock) {
    this(bytesPerSecond, nanoClock, SLEEP);
  }

  /**
   * @param bytesPerSecond the limit; 0 = none
   * @param nanoClock a monotonic clock in nanoseconds
   * @param pause how to wait
   */
  public RateLimiter(long bytesPerSecond, LongSupplier nanoClock, Pause pause) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("Expected bytesPerSecond >= 0, but was " + bytesPerSecond);
    }
    this.bytesPerSecond = bytesPerSecond;
    this.nanoClock = nanoClock;
    this.pause = pause;
  }

  public boolean isUnlimited() {
    return bytesPerSecond == 0;
  }

  /**
   * Reserves {@code bytes} at {@code nowNanos} and returns how long to wait before sending them.
   * Pure bookkeeping; {@link #acquire} does the waiting.
   */
  public synchronized Duration reserve(long bytes, long nowNanos) {
    if (bytesPerSecond == 0 || bytes <= 0) {
      return Duration.ZERO;
    }
    if (!started) {
      started = true;
      tokens = bytesPerSecond;
      lastNanos = nowNanos;
    }
    if (nowNanos > lastNanos) {
      tokens =
          Math.min(
              bytesPerSecond,
              tokens + (nowNanos - lastNanos) * (bytesPerSecond / NANOS_PER_SECOND));
      lastNanos = nowNanos;
    }
    tokens -= bytes;
    if (tokens >= 0) {
      return Duration.ZERO;
    }
    return Duration.ofNanos((long) Math.ceil(-tokens * NANOS_PER_SECOND / bytesPerSecond));
  }

  /**
   * Reserves {@code bytes} and waits until they may be sent.
   *
   * @return how long it waited
   */
  public Duration acquire(long bytes) {
    Duration wait = reserve(bytes, nanoClock.getAsLong());
    if (!wait.isZero()) {
      try {
        pause.pause(wait.toNanos());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new BackupStoreException(
            "Expected to wait "
                + wait
                + " for the bytes/s limit, but "
                + "the thread was interrupted",
            e);
      }
    }
    return wait;
  }
}
