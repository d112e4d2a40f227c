package io.cairn.client;

import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One unary gRPC call as a {@link CompletableFuture}: completes with the mapped response, or
 * exceptionally with a {@link CairnClientException}; cancelling the future cancels the call.
 *
 * @param <Q> the request message
 * @param <R> the response message
 * @param <T> what the caller gets
 */
final class GrpcCall<Q, R, T> implements ClientResponseObserver<Q, R> {
  private final String operation;
  private final HostPort gateway;
  private final Duration timeout;
  private final Deadline deadline;
  private final Function<R, T> mapper;
  private final CompletableFuture<T> future = new CompletableFuture<>();
  private R response;

  GrpcCall(
      String operation,
      HostPort gateway,
      Duration timeout,
      Deadline deadline,
      Function<R, T> mapper) {
    this.operation = operation;
    this.gateway = gateway;
    this.timeout = timeout;
    this.deadline = deadline;
    this.mapper = mapper;
  }

  CompletableFuture<T> future() {
    return future;
  }

  @Override
  public void beforeStart(ClientCallStreamObserver<Q> requestStream) {
    future.whenComplete(
        (ignored, error) -> {
          if (error instanceof CancellationException) {
            requestStream.cancel(operation + " cancelled by the caller", null);
          }
        });
  }

  @Override
  public void onNext(R value) {
    response = value;
  }

  @Override
  public void onError(Throwable error) {
    future.completeExceptionally(toException(error));
  }

  @Override
  public void onCompleted() {
    if (response == null) {
      future.completeExceptionally(
          new CairnClientException(
              ErrorCode.INTERNAL,
              "Expected one response to " + operation + ", but the gateway sent none"));
      return;
    }
    try {
      future.complete(mapper.apply(response));
    } catch (RuntimeException e) {
      future.completeExceptionally(
          new CairnClientException(
              ErrorCode.INTERNAL,
              "Expected a response to "
                  + operation
                  + " this client understands, but mapping it"
                  + " failed: "
                  + e,
              e));
    }
  }

  private CairnClientException toException(Throwable error) {
    Status status;
    if (error instanceof StatusRuntimeException e) {
      status = e.getStatus();
    } else if (error instanceof StatusException e) {
      status = e.getStatus();
    } else {
      status = Status.fromThrowable(error);
    }
    return fromStatus(status, operation, gateway, timeout, deadline.isExpired(), error);
  }

  /**
   * The client exception for a failed call's status.
   *
   * @param deadlinePassed whether this call's deadline had passed when it failed: a
   *     DEADLINE_EXCEEDED is then this client's timeout, also when the gateway's answer (its own
   *     budget is what the client had left) arrived before the client's timer fired
   */
  static CairnClientException fromStatus(
      Status status,
      String operation,
      HostPort gateway,
      Duration timeout,
      boolean deadlinePassed,
      Throwable error) {
    ErrorCode code = code(status.getCode());
    String description = status.getDescription() == null ? "" : status.getDescription();
    Throwable cause = status.getCause();
    String message;
    if (cause != null) {
      // raised on this side: no connection, TLS, a broken stream
      message =
          "Expected the gateway at "
              + gateway
              + " to answer "
              + operation
              + ", but "
              + (description.isEmpty() ? "" : description + ": ")
              + cause.getMessage()
              + (code == ErrorCode.UNAVAILABLE ? ". Is the gateway running?" : "");
    } else if (code == ErrorCode.DEADLINE_EXCEEDED
        && (deadlinePassed || isLocalDeadline(description))) {
      message =
          "Expected an answer to "
              + operation
              + " within "
              + timeout.toMillis()
              + " ms, but none came ("
              + description
              + "); the outcome is unknown";
    } else if (code == ErrorCode.UNKNOWN || code == ErrorCode.CANCELLED) {
      message =
          status.getCode()
              + " from the gateway at "
              + gateway
              + " ("
              + operation
              + ")"
              + (description.isEmpty() ? "" : ": " + description);
    } else {
      message = description.isEmpty() ? status.getCode() + " (" + operation + ")" : description;
    }
    return new CairnClientException(code, message, error);
  }

  /**
   * Whether {@code failure} is a RESOURCE_EXHAUSTED the gateway answered (a broker's BACKPRESSURE
   * or the gateway's full queue: nothing was written, sending again is safe), as opposed to one
   * gRPC raised itself: a message over a size limit, which sending again cannot cure and which, for
   * an answer too large, comes after the call was carried out.
   */
  static boolean isBackpressure(CairnClientException failure) {
    if (failure.code() != ErrorCode.RESOURCE_EXHAUSTED || failure.getCause() == null) {
      return false;
    }
    Status status = Status.fromThrowable(failure.getCause());
    return status.getCode() == Status.Code.RESOURCE_EXHAUSTED
        && status.getCause() == null
        && !String.valueOf(status.getDescription()).contains("exceeds maximum size");
  }

  /** gRPC's own wording when the client's deadline passed (as opposed to a gateway's answer). */
  private static boolean isLocalDeadline(String description) {
    return description.toLowerCase(java.util.Locale.ROOT).contains("deadline exceeded after")
        || description.startsWith("ClientCall started after");
  }

  static ErrorCode code(Status.Code code) {
    return switch (code) {
      case INVALID_ARGUMENT, OUT_OF_RANGE -> ErrorCode.INVALID_ARGUMENT;
      case NOT_FOUND -> ErrorCode.NOT_FOUND;
      case ALREADY_EXISTS -> ErrorCode.ALREADY_EXISTS;
      case FAILED_PRECONDITION -> ErrorCode.FAILED_PRECONDITION;
      case UNAVAILABLE -> ErrorCode.UNAVAILABLE;
      case DEADLINE_EXCEEDED -> ErrorCode.DEADLINE_EXCEEDED;
      case RESOURCE_EXHAUSTED -> ErrorCode.RESOURCE_EXHAUSTED;
      case INTERNAL, DATA_LOSS, UNIMPLEMENTED -> ErrorCode.INTERNAL;
      case CANCELLED -> ErrorCode.CANCELLED;
      case UNAUTHENTICATED -> ErrorCode.UNAUTHENTICATED;
      case PERMISSION_DENIED -> ErrorCode.PERMISSION_DENIED;
      default -> ErrorCode.UNKNOWN;
    };
  }
}
