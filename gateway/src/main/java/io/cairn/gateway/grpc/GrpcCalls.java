package io.cairn.gateway.grpc;

import io.cairn.gateway.GatewayErrorCode;
import io.cairn.gateway.GatewayException;
import io.cairn.gateway.GatewayMetrics;
import io.cairn.gateway.routing.Deadline;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.Futures;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one unary call: derives the deadline (the earlier of the client's and the gateway's request
 * timeout), completes the observer with the result or the mapped status, and records metrics. A
 * {@link GatewayException}'s code becomes the {@link Status.Code} of the same name and its message
 * the description. Client errors are logged at DEBUG only; unexpected failures at WARN.
 */
final class GrpcCalls {
  private static final Logger LOG = LoggerFactory.getLogger(GrpcCalls.class);

  private final Clock clock;
  private final Duration requestTimeout;
  private final GatewayMetrics metrics;

  GrpcCalls(Clock clock, Duration requestTimeout, GatewayMetrics metrics) {
    this.clock = clock;
    this.requestTimeout = requestTimeout;
    this.metrics = metrics;
  }

  /** The deadline of the current call. */
  Deadline deadline() {
    io.grpc.Deadline client = Context.current().getDeadline();
    Duration budget = requestTimeout;
    if (client != null) {
      Duration remaining =
          Duration.ofNanos(Math.max(0, client.timeRemaining(TimeUnit.NANOSECONDS)));
      if (remaining.compareTo(budget) < 0) {
        budget = remaining;
      }
    }
    return Deadline.after(clock, budget);
  }

  <T, R> void run(
      String operation,
      StreamObserver<R> observer,
      Function<Deadline, CompletableFuture<T>> call,
      Function<T, R> toResponse) {
    long startNanos = clock.nanos();
    CompletableFuture<T> future;
    try {
      future = call.apply(deadline());
    } catch (RuntimeException e) {
      future = CompletableFuture.failedFuture(e);
    }
    future.whenComplete(
        (value, error) -> {
          Throwable failure = error == null ? null : Futures.unwrap(error);
          R response = null;
          if (failure == null) {
            try {
              response = toResponse.apply(value);
            } catch (RuntimeException e) {
              failure = e;
            }
          }
          metrics.request(
              operation,
              GatewayMetrics.result(failure),
              Duration.ofNanos(clock.nanos() - startNanos));
          if (failure == null) {
            observer.onNext(response);
            observer.onCompleted();
          } else {
            observer.onError(toStatus(operation, failure));
          }
        });
  }

  /** Runs a call whose result needs no I/O. */
  <R> void runNow(String operation, StreamObserver<R> observer, Supplier<R> response) {
    run(
        operation,
        observer,
        deadline -> CompletableFuture.completedFuture(null),
        ignored -> response.get());
  }

  static StatusRuntimeException toStatus(String operation, Throwable failure) {
    if (failure instanceof GatewayException gateway) {
      if (gateway.code() == GatewayErrorCode.INTERNAL) {
        LOG.warn("{} failed: {}", operation, gateway.getMessage(), gateway.getCause());
      } else {
        LOG.debug("{} failed: {} {}", operation, gateway.code(), gateway.getMessage());
      }
      return Status.fromCode(Status.Code.valueOf(gateway.code().name()))
          .withDescription(gateway.getMessage())
          .asRuntimeException();
    }
    LOG.warn("{} failed unexpectedly", operation, failure);
    return Status.INTERNAL
        .withDescription(
            "Expected " + operation + " to complete, but the gateway failed: " + failure)
        .asRuntimeException();
  }
}
