package io.cairn.backupfs.content;

import io.cairn.pacing.RateLimiter;
import java.io.InterruptedIOException;
import java.util.function.LongConsumer;

/**
 * The store's bytes/s limit as its copies meet it: every chunk waits at the shared {@link
 * RateLimiter}, each wait is reported (for a metric), and an interrupted wait becomes the {@link
 * InterruptedIOException} that the copy's I/O path expects (the interrupt flag set again).
 */
public final class WriteThrottle {

  private final RateLimiter limiter;
  private final LongConsumer waited;

  /**
   * @param limiter shared by every copy of every save in the store
   * @param waited told every wait, in nanoseconds
   */
  public WriteThrottle(RateLimiter limiter, LongConsumer waited) {
    this.limiter = limiter;
    this.waited = waited;
  }

  public long bytesPerSecond() {
    return limiter.ratePerSecond();
  }

  /** Waits until {@code bytes} may be written. */
  public void acquire(long bytes) throws InterruptedIOException {
    long waitedNanos;
    try {
      waitedNanos = limiter.acquire(bytes);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      var interrupted =
          new InterruptedIOException(
              "Expected to wait for the limit of "
                  + limiter.ratePerSecond()
                  + " bytes/s, but the thread was interrupted");
      interrupted.initCause(e);
      throw interrupted;
    }
    if (waitedNanos > 0) {
      waited.accept(waitedNanos);
    }
  }
}
