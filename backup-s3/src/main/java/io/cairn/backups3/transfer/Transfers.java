package io.cairn.backups3.transfer;

import io.cairn.backupapi.BackupStoreException;
import io.cairn.backups3.client.S3Access;
import io.cairn.backups3.client.S3Calls;
import io.cairn.pacing.RateLimiter;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * What content transfers share: S3 access, the part size, the bytes/s limit, and the permits that
 * bound content requests in flight (uploads, part uploads, ranged GETs, copies) to {@code
 * maxConcurrentTransfers} — at most half the connection pool, so manifest reads and listings never
 * starve behind a large backup.
 *
 * <p>A permit is returned when its call has {@linkplain S3Calls.Call#ended() ended}, not when its
 * result completes: a cancelled result (a reader closed, a waiting thread interrupted, an upload
 * aborted) completes at once while its request is still on the wire, and returning the permit then
 * would let more requests than the bound be in flight.
 */
public final class Transfers {

  private final S3Access s3;
  private final long partSizeBytes;
  private final RateLimiter limiter;
  private final Semaphore permits;
  private final int maxConcurrent;

  public Transfers(S3Access s3, long partSizeBytes, RateLimiter limiter, int maxConcurrent) {
    this.s3 = s3;
    this.partSizeBytes = partSizeBytes;
    this.limiter = limiter;
    this.permits = new Semaphore(maxConcurrent, true);
    this.maxConcurrent = maxConcurrent;
  }

  public S3Access s3() {
    return s3;
  }

  public long partSizeBytes() {
    return partSizeBytes;
  }

  public int maxConcurrent() {
    return maxConcurrent;
  }

  /** Waits until {@code bytes} may be sent under the bytes/s limit. */
  public void throttle(long bytes) {
    long waitedNanos;
    try {
      waitedNanos = limiter.acquire(bytes);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BackupStoreException(
          "Expected to wait for the limit of "
              + limiter.ratePerSecond()
              + " bytes/s, but the thread was interrupted",
          e);
    }
    if (waitedNanos > 0) {
      s3.metrics().throttled(Duration.ofNanos(waitedNanos));
    }
  }

  /**
   * Waits for a permit, then starts {@code request}; the permit is returned when the call has
   * ended. Returns the call's result.
   */
  public <T> CompletableFuture<T> start(Supplier<S3Calls.Call<T>> request) {
    try {
      permits.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BackupStoreException(
          "Expected a transfer permit, but the thread was interrupted", e);
    }
    return startWithPermit(request);
  }

  /** Starts {@code request} if a permit is free at once; else returns null. */
  public <T> CompletableFuture<T> tryStart(Supplier<S3Calls.Call<T>> request) {
    return permits.tryAcquire() ? startWithPermit(request) : null;
  }

  private <T> CompletableFuture<T> startWithPermit(Supplier<S3Calls.Call<T>> request) {
    S3Calls.Call<T> call;
    try {
      call = request.get();
    } catch (RuntimeException e) {
      permits.release();
      throw e;
    }
    // Not when the result completes: a cancelled result may still have its request on the wire.
    call.ended().thenRun(permits::release);
    return call.result();
  }
}
