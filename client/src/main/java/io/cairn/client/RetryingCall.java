package io.cairn.client;

import io.grpc.Deadline;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * One call sent again after RESOURCE_EXHAUSTED, as {@link RetryPolicy} says: every attempt shares
 * the call's deadline; the waits run on the client's scheduler, never on a gRPC thread; cancelling
 * the future cancels the attempt in flight or the one waiting.
 *
 * <p>Attempts follow one another (the next starts only after the previous answered), so the attempt
 * count needs no lock; the fields other threads read are volatile. A call waiting for its next
 * attempt is in the client's {@code waiting} set, so that closing the client can end it.
 *
 * @param <T> what the caller gets
 */
final class RetryingCall<T> {

  /** Retries the client made, and calls that needed at least one. */
  record Counters(LongAdder retries, LongAdder retriedCalls) {
    Counters() {
      this(new LongAdder(), new LongAdder());
    }
  }

  private final String operation;
  private final RetryPolicy policy;
  private final Deadline deadline;
  private final long timeoutMs;
  private final ScheduledExecutorService scheduler;
  private final DoubleSupplier jitter;
  private final Counters counters;
  private final Set<RetryingCall<?>> waiting;
  private final Supplier<CompletableFuture<T>> send;
  private final CompletableFuture<T> result = new CompletableFuture<>();
  private volatile int attempts;
  private volatile Future<?> inFlight;
  private volatile CairnClientException last;

  /**
   * @param send starts one attempt (with {@code deadline}) and returns its future, which fails with
   *     a {@link CairnClientException}
   * @param jitter uniform draws from [0, 1)
   * @param waiting the calls waiting for a retry, which {@link #abandon} ends when the client
   *     closes
   */
  RetryingCall(
      String operation,
      RetryPolicy policy,
      Deadline deadline,
      long timeoutMs,
      ScheduledExecutorService scheduler,
      DoubleSupplier jitter,
      Counters counters,
      Set<RetryingCall<?>> waiting,
      Supplier<CompletableFuture<T>> send) {
    this.operation = operation;
    this.policy = policy;
    this.deadline = deadline;
    this.timeoutMs = timeoutMs;
    this.scheduler = scheduler;
    this.jitter = jitter;
    this.counters = counters;
    this.waiting = waiting;
    this.send = send;
  }

  /** Sends the first attempt; the future completes with the first answer that is not retried. */
  CompletableFuture<T> start() {
    result.whenComplete(
        (ignored, error) -> {
          if (error instanceof CancellationException) {
            waiting.remove(this);
            Future<?> current = inFlight;
            if (current != null) {
              current.cancel(true);
            }
          }
        });
    attempt();
    return result;
  }

  /**
   * Ends the call with its last RESOURCE_EXHAUSTED because the client closes — unless its next
   * attempt has started: taking the call out of {@code waiting} decides which of the two runs.
   */
  void abandon() {
    if (!waiting.remove(this)) {
      return;
    }
    inFlight.cancel(false);
    result.completeExceptionally(
        exhausted(last, "the client was closed before attempt " + (attempts + 1)));
  }

  private void retry() {
    if (waiting.remove(this)) {
      attempt();
    }
  }

  private void attempt() {
    if (result.isDone()) {
      return; // cancelled while waiting
    }
    if (last != null && deadline.isExpired()) {
      result.completeExceptionally(
          exhausted(last, "no time was left for attempt " + (attempts + 1)));
      return;
    }
    attempts++;
    if (attempts > 1) {
      counters.retries().increment();
      if (attempts == 2) {
        counters.retriedCalls().increment();
      }
    }
    CompletableFuture<T> call = send.get();
    inFlight = call;
    if (result.isCancelled()) {
      call.cancel(true);
      return;
    }
    call.whenComplete(this::onAnswer);
  }

  private void onAnswer(T value, Throwable error) {
    if (error == null) {
      result.complete(value);
      return;
    }
    CairnClientException failure = failure(error);
    if (!GrpcCall.isBackpressure(failure)) {
      result.completeExceptionally(failure);
      return;
    }
    if (attempts >= policy.maxAttempts()) {
      result.completeExceptionally(
          attempts == 1
              ? failure
              : exhausted(
                  failure, "no attempt is" + " left (maxAttempts " + policy.maxAttempts() + ")"));
      return;
    }
    long delayNanos = policy.backoffNanos(attempts, jitter.getAsDouble());
    if (delayNanos >= deadline.timeRemaining(TimeUnit.NANOSECONDS)) {
      result.completeExceptionally(
          exhausted(
              failure,
              "the wait of "
                  + delayNanos / 1_000_000
                  + " ms before attempt "
                  + (attempts + 1)
                  + " would reach the deadline"));
      return;
    }
    last = failure;
    // in the set before the wait is scheduled, so that a close from now on finds it
    inFlight = CompletableFuture.completedFuture(null);
    waiting.add(this);
    try {
      inFlight = scheduler.schedule(this::retry, delayNanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      abandon(); // the client is closing
      return;
    }
    if (scheduler.isShutdown()) {
      abandon(); // closed meanwhile: its wait may have been dropped
    }
  }

  private CairnClientException exhausted(CairnClientException lastFailure, String why) {
    return new CairnClientException(
        ErrorCode.RESOURCE_EXHAUSTED,
        "Expected "
            + operation
            + " to be accepted within "
            + policy.maxAttempts()
            + " attempts and "
            + timeoutMs
            + " ms, but the gateway answered RESOURCE_EXHAUSTED to"
            + " every attempt ("
            + attempts
            + " made) and "
            + why
            + "; last: "
            + lastFailure.getMessage()
            + ". It was not carried out; send it again later",
        lastFailure);
  }

  private static CairnClientException failure(Throwable error) {
    Throwable cause = error;
    while (cause instanceof CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof CairnClientException e) {
      return e;
    }
    return new CairnClientException(ErrorCode.UNKNOWN, String.valueOf(cause), cause);
  }
}
