package io.cairn.gateway.routing;

import io.cairn.gateway.GatewayErrorCode;
import io.cairn.gateway.GatewayException;
import io.cairn.gateway.GatewayMetrics;
import io.cairn.gateway.topology.ClusterTopology;
import io.cairn.gateway.topology.TopologyManager;
import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.ResponseStatus;
import io.cairn.scheduler.Futures;
import io.cairn.transport.MessagingException;
import io.cairn.transport.MessagingService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends requests to brokers: to a partition's leader with bounded retries (exponential backoff from
 * {@code retryBackoffMin} to {@code retryBackoffMax}, at most {@code maxRetries} resends, never
 * past the deadline), or to one broker.
 *
 * <p>A partition call is sent again — after a topology refresh — when no leader is known, the
 * broker answers NOT_LEADER (to the leader it names, if any) or PARTITION_UNAVAILABLE, or the
 * transport certainly did not deliver it. A timeout or a connection lost after sending is retried
 * only for idempotent calls; otherwise the caller learns that the outcome is unknown. Every other
 * failure answer ends the call at once.
 *
 * <p>RESOURCE_EXHAUSTED means that nothing was written, and clients resend it without checking: it
 * comes from a broker's BACKPRESSURE (refused before its log write), from a retry the timer refused
 * (a request not delivered, or an idempotent one), or — for idempotent calls only — from an answer
 * the full worker queue refused to handle. A command whose answer cannot be handled is UNAVAILABLE
 * with an unknown outcome.
 *
 * <p>Thread-safe. Continuations run on the given executor, never on a transport thread.
 */
public final class BrokerRequester {
  private static final Logger LOG = LoggerFactory.getLogger(BrokerRequester.class);

  private final MessagingService messaging;
  private final TopologyManager topology;
  private final ScheduledExecutorService timer;
  private final Executor executor;
  private final GatewayMetrics metrics;
  private final Duration requestTimeout;
  private final Duration backoffMin;
  private final Duration backoffMax;
  private final int maxRetries;

  public BrokerRequester(
      MessagingService messaging,
      TopologyManager topology,
      ScheduledExecutorService timer,
      Executor executor,
      GatewayMetrics metrics,
      Duration requestTimeout,
      Duration backoffMin,
      Duration backoffMax,
      int maxRetries) {
    this.messaging = messaging;
    this.topology = topology;
    this.timer = timer;
    this.executor = executor;
    this.metrics = metrics;
    this.requestTimeout = requestTimeout;
    this.backoffMin = backoffMin;
    this.backoffMax = backoffMax;
    this.maxRetries = maxRetries;
  }

  /** The topology this requester routes by. */
  public TopologyManager topology() {
    return topology;
  }

  /**
   * Sends {@code call} to its partition's leader and completes with the OK body, or fails with a
   * {@link GatewayException}.
   */
  public <T> CompletableFuture<Routed<T>> toLeader(PartitionCall<T> call, Deadline deadline) {
    Attempts<T> attempts = new Attempts<>(call, deadline);
    attempt(attempts);
    return attempts.result;
  }

  /**
   * Sends one request to broker {@code nodeId} and completes with its answer (OK or a failure), or
   * fails with a {@link GatewayException} when no answer came.
   */
  public <T> CompletableFuture<ApiResponse<T>> toBroker(
      int nodeId,
      String type,
      byte[] payload,
      Function<byte[], ApiResponse<T>> decoder,
      Deadline deadline,
      String context) {
    if (deadline.expired()) {
      return CompletableFuture.failedFuture(deadlineExceeded(context, deadline, "no time left"));
    }
    return send(nodeId, type, payload, deadline)
        .handleAsync(
            (bytes, error) -> {
              if (error != null) {
                Throwable cause = Futures.unwrap(error);
                throw cause instanceof MessagingException.Timeout
                    ? deadlineExceeded(context, deadline, cause.getMessage())
                    : GatewayException.unavailable(
                        "Expected an answer from broker "
                            + nodeId
                            + " ("
                            + context
                            + "), but "
                            + cause.getMessage());
              }
              return decodeOrFail(decoder, bytes, nodeId, context);
            },
            executor);
  }

  /**
   * Sends one request to the first broker of {@code candidates} that answers, trying the next one
   * only when the transport failed; completes with that broker's answer.
   */
  public <T> CompletableFuture<Routed<ApiResponse<T>>> toAnyBroker(
      List<Integer> candidates,
      String type,
      byte[] payload,
      Function<byte[], ApiResponse<T>> decoder,
      Deadline deadline,
      String context) {
    Set<Integer> ordered = new LinkedHashSet<>(candidates);
    return tryNext(
        new ArrayList<>(ordered), 0, type, payload, decoder, deadline, context, new ArrayList<>());
  }

  private <T> CompletableFuture<Routed<ApiResponse<T>>> tryNext(
      List<Integer> candidates,
      int index,
      String type,
      byte[] payload,
      Function<byte[], ApiResponse<T>> decoder,
      Deadline deadline,
      String context,
      List<String> errors) {
    if (index >= candidates.size()) {
      return CompletableFuture.failedFuture(
          GatewayException.unavailable(
              "Expected a reachable broker ("
                  + context
                  + "), but "
                  + (errors.isEmpty() ? "none is configured" : String.join("; ", errors))));
    }
    int nodeId = candidates.get(index);
    return toBroker(nodeId, type, payload, decoder, deadline, context)
        .handle(
            (answer, error) -> {
              if (error == null) {
                return CompletableFuture.completedFuture(new Routed<>(0, nodeId, answer));
              }
              Throwable cause = Futures.unwrap(error);
              if (cause instanceof GatewayException gateway
                  && gateway.code() == GatewayErrorCode.UNAVAILABLE) {
                errors.add(gateway.getMessage());
                return tryNext(
                    candidates, index + 1, type, payload, decoder, deadline, context, errors);
              }
              return CompletableFuture.<Routed<ApiResponse<T>>>failedFuture(cause);
            })
        .thenCompose(Function.identity());
  }

  private <T> void attempt(Attempts<T> attempts) {
    PartitionCall<T> call = attempts.call;
    if (attempts.deadline.expired()) {
      attempts.fail(deadlineExceeded(attempts.context(), attempts.deadline, attempts.lastError));
      return;
    }
    ClusterTopology current = topology.current();
    if (attempts.partitionId == 0) {
      attempts.partitionId = call.partitionId(current);
      if (attempts.partitionId == 0) {
        retryLater(attempts, "the partition count is not known yet (no broker answered)", true);
        return;
      }
    }
    int nodeId;
    if (attempts.leaderHint >= 0) {
      nodeId = attempts.leaderHint;
      attempts.leaderHint = -1;
    } else {
      OptionalInt leader = current.leaderOf(attempts.partitionId);
      if (leader.isEmpty()) {
        retryLater(attempts, "no leader is known for partition " + attempts.partitionId, true);
        return;
      }
      nodeId = leader.getAsInt();
    }
    byte[] payload;
    try {
      payload = call.payload(attempts.partitionId);
    } catch (ProtocolException e) {
      attempts.fail(GatewayException.invalid(e.getMessage() + " (" + call.operation() + ")"));
      return;
    }
    send(nodeId, call.messageType(), payload, attempts.deadline)
        .handleAsync(
            (bytes, error) -> {
              onAnswer(attempts, nodeId, bytes, error);
              return null;
            },
            executor)
        .exceptionally(
            error -> {
              Throwable cause = Futures.unwrap(error);
              if (cause instanceof RejectedExecutionException) {
                // The executor refused to handle the broker's answer: the gateway is overloaded
                // or closing. The request was delivered, so a command may have been applied.
                attempts.fail(overloadedAfterSending(attempts, nodeId, cause));
              } else {
                LOG.warn("Handling the answer to {} failed", attempts.context(), cause);
                attempts.fail(
                    new GatewayException(
                        GatewayErrorCode.INTERNAL,
                        "Expected to handle the answer ("
                            + attempts.context()
                            + "), but the gateway failed: "
                            + cause,
                        cause));
              }
              return null;
            });
  }

  private <T> void onAnswer(Attempts<T> attempts, int nodeId, byte[] bytes, Throwable error) {
    if (error != null) {
      Throwable cause = Futures.unwrap(error);
      if (Failures.notDelivered(cause)) {
        retryLater(attempts, cause.getMessage(), true);
      } else if (attempts.call.idempotent()) {
        attempts.doubt = true;
        retryLater(attempts, cause.getMessage(), true);
      } else if (cause instanceof MessagingException.Timeout) {
        attempts.fail(
            new GatewayException(
                GatewayErrorCode.DEADLINE_EXCEEDED,
                "Expected an answer from broker "
                    + nodeId
                    + " ("
                    + attempts.context()
                    + ") within "
                    + millis(requestTimeout)
                    + ", but none came; the command may"
                    + " or may not have been applied. Check its effect before sending it again"));
      } else {
        attempts.fail(
            GatewayException.unavailable(
                "Expected an answer from broker "
                    + nodeId
                    + " ("
                    + attempts.context()
                    + "), but "
                    + cause.getMessage()
                    + "; the command may or may not have been applied."
                    + " Check its effect before sending it again"));
      }
      return;
    }
    ApiResponse<T> response;
    try {
      response = decodeOrFail(attempts.call::decode, bytes, nodeId, attempts.context());
    } catch (GatewayException e) {
      attempts.fail(e);
      return;
    }
    if (response instanceof ApiResponse.Ok<T> ok) {
      attempts.result.complete(
          new Routed<>(attempts.partitionId, nodeId, ok.body(), attempts.doubt));
      return;
    }
    ApiResponse.Failure<T> failure = (ApiResponse.Failure<T>) response;
    if (failure.status() == ResponseStatus.NOT_LEADER) {
      if (failure.leaderNodeId() >= 0 && failure.leaderNodeId() != nodeId) {
        attempts.leaderHint = failure.leaderNodeId();
      }
      retryLater(attempts, "broker " + nodeId + " is not the leader: " + failure.reason(), true);
    } else if (failure.status() == ResponseStatus.PARTITION_UNAVAILABLE) {
      retryLater(attempts, "broker " + nodeId + ": " + failure.reason(), true);
    } else {
      attempts.fail(Failures.fromBroker(failure, nodeId, attempts.context()));
    }
  }

  private <T> void retryLater(Attempts<T> attempts, String reason, boolean refresh) {
    attempts.lastError = reason;
    if (attempts.retries >= maxRetries) {
      attempts.fail(
          GatewayException.unavailable(
              "Expected an answer from the leader of partition "
                  + (attempts.partitionId == 0 ? "?" : attempts.partitionId)
                  + " ("
                  + attempts.call.operation()
                  + "), but "
                  + (attempts.retries + 1)
                  + " attempts failed; last: "
                  + reason
                  + ". Retry later"));
      return;
    }
    attempts.retries++;
    metrics.retry(attempts.call.operation());
    if (refresh) {
      // Retry only once the new topology is known: retrying before it arrives would go to the
      // broker that just said it is not the leader. A failed refresh still leads to a retry.
      topology.refresh().whenComplete((ignored, error) -> scheduleRetry(attempts, reason));
    } else {
      scheduleRetry(attempts, reason);
    }
  }

  private <T> void scheduleRetry(Attempts<T> attempts, String reason) {
    long backoffNanos =
        Math.min(backoffMax.toNanos(), backoffMin.toNanos() << Math.min(20, attempts.retries - 1));
    long delayNanos = Math.min(backoffNanos, attempts.deadline.remaining().toNanos());
    LOG.debug("Retrying {} in {} ns: {}", attempts.context(), delayNanos, reason);
    try {
      timer.schedule(() -> attempt(attempts), delayNanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      attempts.fail(overloaded(e));
    }
  }

  private CompletableFuture<byte[]> send(
      int nodeId, String type, byte[] payload, Deadline deadline) {
    Duration remaining = deadline.remaining();
    Duration timeout = remaining.compareTo(requestTimeout) < 0 ? remaining : requestTimeout;
    try {
      return messaging.sendAndReceive(nodeId, type, payload, timeout);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private static <T> ApiResponse<T> decodeOrFail(
      Function<byte[], ApiResponse<T>> decoder, byte[] bytes, int nodeId, String context) {
    try {
      return decoder.apply(bytes);
    } catch (ProtocolException e) {
      throw new GatewayException(
          GatewayErrorCode.INTERNAL,
          "Expected a valid answer from broker "
              + nodeId
              + " ("
              + context
              + "), but "
              + e.getMessage()
              + ". Check that gateway and brokers run the same version",
          e);
    }
  }

  private static GatewayException deadlineExceeded(String context, Deadline deadline, String last) {
    return new GatewayException(
        GatewayErrorCode.DEADLINE_EXCEEDED,
        "Expected an answer within "
            + millis(deadline.budget())
            + " ("
            + context
            + "), but none"
            + " came"
            + (last == null ? "" : "; last: " + last));
  }

  private static GatewayException overloaded(Throwable cause) {
    return new GatewayException(
        GatewayErrorCode.RESOURCE_EXHAUSTED,
        "Expected room in the gateway's request queue, but it is full or closing. Retry later",
        cause);
  }

  /**
   * The failure when the answer to a delivered request cannot be handled. RESOURCE_EXHAUSTED tells
   * a client that nothing was written (clients resend it without checking), so a call that is not
   * idempotent gets UNAVAILABLE with an unknown outcome instead.
   */
  private static <T> GatewayException overloadedAfterSending(
      Attempts<T> attempts, int nodeId, Throwable cause) {
    if (attempts.call.idempotent()) {
      return overloaded(cause);
    }
    return new GatewayException(
        GatewayErrorCode.UNAVAILABLE,
        "Expected room in the gateway's request queue for the answer from broker "
            + nodeId
            + " ("
            + attempts.context()
            + "), but it is full or closing; the command may or may"
            + " not have been applied. Check its effect before sending it again",
        cause);
  }

  private static String millis(Duration duration) {
    return duration.toMillis() + " ms";
  }

  /** The state of one partition call across its attempts. */
  private static final class Attempts<T> {
    final PartitionCall<T> call;
    final Deadline deadline;
    final CompletableFuture<Routed<T>> result = new CompletableFuture<>();
    volatile int partitionId;
    volatile int leaderHint = -1;
    volatile int retries;
    volatile String lastError;
    volatile boolean doubt;

    Attempts(PartitionCall<T> call, Deadline deadline) {
      this.call = call;
      this.deadline = deadline;
    }

    String context() {
      return call.operation() + (partitionId == 0 ? "" : " on partition " + partitionId);
    }

    void fail(Throwable error) {
      result.completeExceptionally(error);
    }
  }
}
