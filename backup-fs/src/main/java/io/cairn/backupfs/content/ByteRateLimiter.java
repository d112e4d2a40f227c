package io.cairn.backupfs.content;

import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * A bytes/s limit shared by every copy that holds it: a token bucket kept as a virtual clock. Each
 * {@link #acquire} books its bytes at the limit's rate behind everything booked before; the caller
 * waits until what is booked ahead of now is at most {@code burstBytes}. So over any interval
 * {@code T}, at most {@code burstBytes + rate × T} bytes are let through, whichever threads ask,
 * and a request larger than the burst is let through after its share of waiting (never refused).
 *
 * <p>Thread-safe; waiting happens outside the lock. With a limit of 0, {@link #acquire} returns at
 * once and keeps no state.
 */
public final class ByteRateLimiter {

  /** Waits a number of nanoseconds; production sleeps, tests move a simulated clock. */
  @FunctionalInterface
  public interface Pause {
    void pause(long nanos) throws InterruptedException;
  }

  /** Sleeps the calling thread. */
  public static final Pause SLEEP = TimeUnit.NANOSECONDS::sleep;

  private static final double NANOS_PER_SECOND = 1e9;

  private final long bytesPerSecond;
  private final long burstNanos;
  private final LongSupplier monotonicNanos;
  private final Pause pause;
  private final LongConsumer waited;
  private boolean started;

  /** When everything booked so far would have passed at the rate (monotonic nanos). */
  private long bookedUntilNanos;

  /**
   * @param bytesPerSecond the limit; 0 = none
   * @param burstBytes how many bytes may pass ahead of the rate, {@code >= 1}
   * @param monotonicNanos a monotonic clock in nanoseconds
   * @param pause how to wait
   * @param waited told every wait, in nanoseconds (for a metric)
   */
  public ByteRateLimiter(
      long bytesPerSecond,
      long burstBytes,
      LongSupplier monotonicNanos,
      Pause pause,
      LongConsumer waited) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException(
          "Expected bytesPerSecond >= 0, but was " + bytesPerSecond + " (rate limiter)");
    }
    if (burstBytes < 1) {
      throw new IllegalArgumentException(
          "Expected burstBytes >= 1, but was " + burstBytes + " (rate limiter)");
    }
    this.bytesPerSecond = bytesPerSecond;
    this.burstNanos = bytesPerSecond == 0 ? 0 : nanosFor(burstBytes, bytesPerSecond);
    this.monotonicNanos = monotonicNanos;
    this.pause = pause;
    this.waited = waited;
  }

  public boolean isUnlimited() {
    return bytesPerSecond == 0;
  }

  public long bytesPerSecond() {
    return bytesPerSecond;
  }

  /**
   * Books {@code bytes} at {@code nowNanos} and returns how long the caller must wait before
   * passing them. Pure bookkeeping; {@link #acquire} does the waiting.
   */
  public synchronized long reserve(long bytes, long nowNanos) {
    if (bytesPerSecond == 0 || bytes <= 0) {
      return 0;
    }
    if (!started || bookedUntilNanos - nowNanos < 0) {
      // Idle time is not saved up beyond the burst: booking restarts from now.
      bookedUntilNanos = nowNanos;
      started = true;
    }
    bookedUntilNanos += nanosFor(bytes, bytesPerSecond);
    return Math.max(0, bookedUntilNanos - nowNanos - burstNanos);
  }

  /**
   * Books {@code bytes} and waits until they may pass.
   *
   * @throws InterruptedIOException if the thread is interrupted while waiting (its interrupt flag
   *     is set again)
   */
  public void acquire(long bytes) throws InterruptedIOException {
    if (bytesPerSecond == 0) {
      return;
    }
    long waitNanos = reserve(bytes, monotonicNanos.getAsLong());
    if (waitNanos == 0) {
      return;
    }
    try {
      pause.pause(waitNanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      var interrupted =
          new InterruptedIOException(
              "Expected to wait "
                  + waitNanos
                  + " ns for the limit of "
                  + bytesPerSecond
                  + " bytes/s, but the thread was interrupted");
      interrupted.initCause(e);
      throw interrupted;
    }
    waited.accept(waitNanos);
  }

  private static long nanosFor(long bytes, long bytesPerSecond) {
    return (long) Math.ceil((double) bytes * NANOS_PER_SECOND / bytesPerSecond);
  }
}
