package io.cairn.backups3.client;

import io.cairn.backupapi.BackupStoreException;
import io.cairn.backups3.S3BackupStoreMetrics;
import io.cairn.backups3.S3BackupStoreMetrics.RequestResult;
import io.cairn.pacing.Backoff;
import io.cairn.scheduler.Futures;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs S3 calls with bounded retries: each attempt is a fresh request (bodies are rebuilt by the
 * supplier), transient failures are retried after {@link Backoff} delays on the scheduler, every
 * attempt is recorded in {@link S3BackupStoreMetrics#REQUESTS} and every retry in {@link
 * S3BackupStoreMetrics#RETRIES}. A call that fails for good completes with an {@link
 * S3RequestException}. The SDK's own retries are off: this is the only retry loop.
 *
 * <p>Cancelling a call's result stops its retries, but not a request already sent: the SDK request
 * is never cancelled and runs until it is answered, fails or times out ({@code apiCallTimeout}).
 * {@link Call#ended()} says when that has happened.
 */
public final class S3Calls {

  private static final Logger LOG = LoggerFactory.getLogger(S3Calls.class);

  private final int maxAttempts;
  private final Backoff backoff;
  private final ScheduledExecutorService scheduler;
  private final S3BackupStoreMetrics metrics;

  public S3Calls(
      int maxAttempts,
      Backoff backoff,
      ScheduledExecutorService scheduler,
      S3BackupStoreMetrics metrics) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("Expected maxAttempts >= 1, but was " + maxAttempts);
    }
    this.maxAttempts = maxAttempts;
    this.backoff = backoff;
    this.scheduler = scheduler;
    this.metrics = metrics;
  }

  /**
   * A call: its {@code result}, and {@code ended}, which completes (never exceptionally) once the
   * result is complete and no request of the call is on the wire or will be sent. A result
   * cancelled while a request is in flight completes at once; {@code ended} waits for that request
   * to end.
   */
  public record Call<T>(CompletableFuture<T> result, CompletableFuture<Void> ended) {}

  public int maxAttempts() {
    return maxAttempts;
  }

  /** The same calls with another number of attempts (start-up checks, failure marking). */
  public S3Calls withMaxAttempts(int attempts) {
    return new S3Calls(attempts, backoff, scheduler, metrics);
  }

  /**
   * Runs {@code attempt} until it succeeds, fails with a final error, or {@link #maxAttempts()}
   * attempts failed transiently.
   *
   * @param operation the S3 API name, for metrics and messages
   * @param target the object or bucket, as {@code s3://bucket/key}
   */
  public <T> CompletableFuture<T> call(
      String operation, String target, Supplier<CompletableFuture<T>> attempt) {
    return callTracked(operation, target, attempt).result();
  }

  /** {@link #call}, also telling when its last request has ended. */
  public <T> Call<T> callTracked(
      String operation, String target, Supplier<CompletableFuture<T>> attempt) {
    CompletableFuture<T> result = new CompletableFuture<>();
    Holds holds = new Holds();
    result.whenComplete((value, error) -> holds.release());
    run(operation, target, attempt, 1, result, holds);
    return new Call<>(result, holds.ended);
  }

  /** {@link #call} and wait for it on the calling (I/O) thread. */
  public <T> T join(String operation, String target, Supplier<CompletableFuture<T>> attempt) {
    return await(call(operation, target, attempt), operation + " of " + target);
  }

  /**
   * Waits for a future on the calling thread; rethrows its failure unwrapped. An interrupt cancels
   * the future, keeps the thread's interrupt flag and fails with a {@link BackupStoreException}.
   */
  public static <T> T await(CompletableFuture<T> future, String what) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new BackupStoreException(
          "Expected " + what + " to finish, but the thread was " + "interrupted", e);
    } catch (ExecutionException e) {
      Throwable cause = Futures.unwrap(e);
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new BackupStoreException("Expected " + what + " to succeed, but " + cause, cause);
    }
  }

  private <T> void run(
      String operation,
      String target,
      Supplier<CompletableFuture<T>> attempt,
      int number,
      CompletableFuture<T> result,
      Holds holds) {
    holds.take(); // before the check: a result cancelled after it waits for this attempt
    if (result.isDone()) {
      holds.release();
      return; // cancelled by the caller
    }
    long started = metrics.monotonicNanos();
    CompletableFuture<T> call;
    try {
      call = attempt.get();
    } catch (RuntimeException e) {
      call = CompletableFuture.failedFuture(e);
    }
    // The SDK future is never cancelled, so its completion is the end of this attempt's request.
    call.whenComplete((value, error) -> holds.release());
    call.whenComplete(
        (value, error) -> {
          long elapsed = metrics.monotonicNanos() - started;
          if (error == null) {
            metrics.request(operation, RequestResult.SUCCESS, elapsed);
            result.complete(value);
            return;
          }
          Throwable cause = Futures.unwrap(error);
          if (S3Errors.isNotFound(cause)) {
            metrics.request(operation, RequestResult.NOT_FOUND, elapsed);
          } else if (S3Errors.isPreconditionFailed(cause)) {
            metrics.request(operation, RequestResult.PRECONDITION_FAILED, elapsed);
          } else if (S3Errors.isTransient(cause)) {
            metrics.request(operation, RequestResult.TRANSIENT_ERROR, elapsed);
            if (number < maxAttempts && !result.isDone()) {
              retry(operation, target, attempt, number, result, holds, cause);
              return;
            }
          } else {
            metrics.request(operation, RequestResult.ERROR, elapsed);
          }
          if (cause instanceof S3RequestException
              || cause instanceof BackupStoreException
              || S3Errors.isCancellation(cause)) {
            result.completeExceptionally(cause);
          } else {
            result.completeExceptionally(new S3RequestException(operation, target, cause, number));
          }
        });
  }

  private <T> void retry(
      String operation,
      String target,
      Supplier<CompletableFuture<T>> attempt,
      int number,
      CompletableFuture<T> result,
      Holds holds,
      Throwable cause) {
    Duration delay = backoff.delay(number, target);
    metrics.retry(operation);
    LOG.debug(
        "Retrying {} of {} in {} after attempt {} failed: {}",
        operation,
        target,
        delay,
        number,
        S3Errors.describe(cause));
    try {
      scheduler.schedule(
          () -> run(operation, target, attempt, number + 1, result, holds),
          delay.toNanos(),
          TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      result.completeExceptionally(new S3RequestException(operation, target, cause, number));
    }
  }

  /**
   * What keeps a call going: its incomplete result (one hold from the start) and its attempt in
   * flight (one hold). {@code ended} completes the first time none is left: the result's hold goes
   * only once the result is complete, and no attempt starts after that (a retry scheduled before it
   * takes a hold, sees the result complete and gives the hold back).
   */
  private static final class Holds {
    private final AtomicInteger count = new AtomicInteger(1);
    private final CompletableFuture<Void> ended = new CompletableFuture<>();

    void take() {
      count.incrementAndGet();
    }

    void release() {
      if (count.decrementAndGet() == 0) {
        ended.complete(null);
      }
    }
  }
}
