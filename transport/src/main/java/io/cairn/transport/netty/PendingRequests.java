package io.cairn.transport.netty;

import io.cairn.scheduler.Clock;
import io.cairn.transport.MessagingException;
import io.cairn.transport.TransportMetrics;
import io.cairn.transport.TransportMetrics.Operation;
import io.cairn.transport.TransportMetrics.Result;
import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Requests waiting for their response, by request id. Each completes exactly once: with the
 * response, its timeout, a lost connection or the service closing. Thread-safe.
 */
final class PendingRequests {

  /** A request waiting for its response. */
  static final class PendingRequest {
    final long requestId;
    final int nodeId;
    final String type;
    final long startNanos;
    final CompletableFuture<byte[]> future = new CompletableFuture<>();
    volatile ScheduledFuture<?> timeoutTask;
    volatile Channel channel;

    private PendingRequest(long requestId, int nodeId, String type, long startNanos) {
      this.requestId = requestId;
      this.nodeId = nodeId;
      this.type = type;
      this.startNanos = startNanos;
    }
  }

  private final int localNodeId;
  private final Clock clock;
  private final TransportMetrics metrics;
  private final ConcurrentMap<Long, PendingRequest> requests = new ConcurrentHashMap<>();
  private final AtomicLong nextRequestId = new AtomicLong();

  PendingRequests(int localNodeId, Clock clock, TransportMetrics metrics) {
    this.localNodeId = localNodeId;
    this.clock = clock;
    this.metrics = metrics;
  }

  /** Adds a request to member {@code nodeId} with a new id. */
  PendingRequest add(int nodeId, String type) {
    PendingRequest request =
        new PendingRequest(nextRequestId.incrementAndGet(), nodeId, type, clock.nanos());
    requests.put(request.requestId, request);
    return request;
  }

  /** Completes a request once; returns false if it was completed already. */
  boolean complete(long requestId, byte[] response, MessagingException failure) {
    PendingRequest request = requests.remove(requestId);
    if (request == null) {
      return false;
    }
    ScheduledFuture<?> timeoutTask = request.timeoutTask;
    if (timeoutTask != null) {
      timeoutTask.cancel(false);
    }
    metrics.requestCompleted(
        TransportMetrics.resultOf(failure), clock.nanos() - request.startNanos);
    if (failure != null) {
      request.future.completeExceptionally(failure);
    } else {
      request.future.complete(response);
    }
    return true;
  }

  /** Fails the request with {@link MessagingException.Timeout}, unless it completed already. */
  void expire(long requestId, Duration timeout) {
    PendingRequest request = requests.get(requestId);
    if (request == null) {
      return;
    }
    complete(
        requestId,
        null,
        new MessagingException.Timeout(
            "Expected a response from member "
                + request.nodeId
                + " to '"
                + request.type
                + "' within "
                + timeout.toMillis()
                + " ms, but none arrived (node "
                + localNodeId
                + ")"));
  }

  /** Completes the request a response frame answers; counts it. */
  void onResponse(Frame frame) {
    String text = new String(frame.payload(), StandardCharsets.UTF_8);
    boolean matched =
        switch (frame.status()) {
          case OK -> complete(frame.requestId(), frame.payload(), null);
          case NO_HANDLER ->
              complete(frame.requestId(), null, new MessagingException.NoRemoteHandler(text));
          case HANDLER_FAILURE ->
              complete(frame.requestId(), null, new MessagingException.RemoteHandlerFailure(text));
        };
    Result result;
    if (!matched) {
      result = Result.LATE;
    } else {
      result =
          switch (frame.status()) {
            case OK -> Result.OK;
            case NO_HANDLER -> Result.NO_HANDLER;
            case HANDLER_FAILURE -> Result.HANDLER_FAILURE;
          };
    }
    metrics.received(Operation.RESPONSE, result);
  }

  /** Fails with {@link MessagingException.Unreachable} every request sent on {@code channel}. */
  void failSentOn(Channel channel) {
    for (PendingRequest request : requests.values()) {
      if (request.channel == channel) {
        complete(
            request.requestId,
            null,
            new MessagingException.Unreachable(
                "Expected a response from member "
                    + request.nodeId
                    + " to '"
                    + request.type
                    + "', but the connection was lost (node "
                    + localNodeId
                    + ")"));
      }
    }
  }

  /** Fails every request with {@link MessagingException.Unreachable}: the service closes. */
  void failAll() {
    for (PendingRequest request : requests.values()) {
      complete(
          request.requestId,
          null,
          new MessagingException.Unreachable(
              "Expected a response from member "
                  + request.nodeId
                  + " to '"
                  + request.type
                  + "', but the messaging service of node "
                  + localNodeId
                  + " closed"));
    }
  }

  int size() {
    return requests.size();
  }
}
