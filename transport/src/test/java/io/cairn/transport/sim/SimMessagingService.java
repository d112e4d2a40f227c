package io.cairn.transport.sim;

import io.cairn.scheduler.Cancellable;
import io.cairn.transport.MessagingException;
import io.cairn.transport.MessagingService;
import io.cairn.transport.netty.FrameDescriptor;
import io.cairn.transport.sim.SimNetwork.Envelope;
import io.cairn.transport.sim.SimNetwork.Kind;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One member's endpoint on a {@link SimNetwork}. Keeps the {@link MessagingService} contract of the
 * netty implementation: unknown member, oversize payload (same frame arithmetic as {@link
 * FrameDescriptor}) and a closed or crashed endpoint are {@link MessagingException.Rejected};
 * requests without a response in time (dropped, partitioned, handler silent) fail with {@link
 * MessagingException.Timeout} on the scheduler's simulated clock; missing handlers and failing
 * handlers answer {@link MessagingException.NoRemoteHandler} and {@link
 * MessagingException.RemoteHandlerFailure}; handlers run through their registered executor.
 * Payloads are copied on send and on every delivery, as bytes on a wire would be.
 *
 * <p>Futures complete on the scheduler's thread, inside network tasks. Use from that thread only.
 */
public final class SimMessagingService implements MessagingService {

  private static final Logger LOG = LoggerFactory.getLogger(SimMessagingService.class);
  private static final byte[] EMPTY = new byte[0];

  /** Outcome carried by a simulated response. */
  enum Status {
    OK,
    NO_HANDLER,
    HANDLER_FAILURE
  }

  private sealed interface Registration permits RequestRegistration, MessageRegistration {}

  private record RequestRegistration(RequestHandler handler, Executor executor)
      implements Registration {}

  private record MessageRegistration(MessageHandler handler, Executor executor)
      implements Registration {}

  private static final class Pending {
    final int nodeId;
    final String type;
    final CompletableFuture<byte[]> future = new CompletableFuture<>();
    Cancellable timeoutTask;

    Pending(int nodeId, String type) {
      this.nodeId = nodeId;
      this.type = type;
    }
  }

  private final SimNetwork network;
  private final int nodeId;
  private final Map<String, Registration> handlers = new LinkedHashMap<>();
  private final Map<Long, Pending> pending = new LinkedHashMap<>();
  private long nextRequestId;
  private String stoppedBecause;

  SimMessagingService(SimNetwork network, int nodeId) {
    this.network = network;
    this.nodeId = nodeId;
  }

  @Override
  public int localNodeId() {
    return nodeId;
  }

  /** False once closed or crashed. */
  public boolean isOpen() {
    return stoppedBecause == null;
  }

  /** Requests waiting for a response. */
  public int pendingRequestCount() {
    return pending.size();
  }

  @Override
  public void registerRequestHandler(String type, RequestHandler handler, Executor executor) {
    register(
        type,
        new RequestRegistration(
            Objects.requireNonNull(handler, "handler"),
            Objects.requireNonNull(executor, "executor")));
  }

  @Override
  public void registerMessageHandler(String type, MessageHandler handler, Executor executor) {
    register(
        type,
        new MessageRegistration(
            Objects.requireNonNull(handler, "handler"),
            Objects.requireNonNull(executor, "executor")));
  }

  private void register(String type, Registration registration) {
    FrameDescriptor.typeBytes(type);
    if (handlers.containsKey(type)) {
      throw new IllegalStateException(
          "Expected no handler for type '"
              + type
              + "', but one is registered already (node "
              + nodeId
              + "). Unregister it first");
    }
    handlers.put(type, registration);
  }

  @Override
  public void unregisterHandler(String type) {
    handlers.remove(type);
  }

  @Override
  public CompletableFuture<byte[]> sendAndReceive(
      int targetNodeId, String type, byte[] payload, Duration timeout) {
    Objects.requireNonNull(payload, "payload");
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("Expected a positive timeout, but was " + timeout);
    }
    MessagingException refusal = refusal(targetNodeId, type, payload);
    if (refusal != null) {
      return CompletableFuture.failedFuture(refusal);
    }
    long requestId = ++nextRequestId;
    Pending request = new Pending(targetNodeId, type);
    pending.put(requestId, request);
    request.timeoutTask =
        network
            .scheduler()
            .schedule(
                timeout,
                () ->
                    complete(
                        requestId,
                        null,
                        new MessagingException.Timeout(
                            "Expected a response from member "
                                + targetNodeId
                                + " to '"
                                + type
                                + "' within "
                                + timeout.toMillis()
                                + " ms, but none arrived (node "
                                + nodeId
                                + ")")));
    network.transmit(
        new Envelope(
            Kind.REQUEST,
            this,
            network.current(targetNodeId),
            requestId,
            type,
            Status.OK,
            payload.clone()));
    return request.future;
  }

  @Override
  public CompletableFuture<Void> send(int targetNodeId, String type, byte[] payload) {
    Objects.requireNonNull(payload, "payload");
    MessagingException refusal = refusal(targetNodeId, type, payload);
    if (refusal != null) {
      return CompletableFuture.failedFuture(refusal);
    }
    network.transmit(
        new Envelope(
            Kind.MESSAGE,
            this,
            network.current(targetNodeId),
            0,
            type,
            Status.OK,
            payload.clone()));
    return CompletableFuture.completedFuture(null);
  }

  /**
   * Closes the endpoint: handlers removed, pending requests fail with Unreachable, later sends are
   * Rejected, frames to it are lost. Idempotent.
   */
  @Override
  public void close() {
    stop("closed");
  }

  void stop(String reason) {
    if (stoppedBecause != null) {
      return;
    }
    stoppedBecause = reason;
    handlers.clear();
    List<Long> ids = new ArrayList<>(pending.keySet());
    for (Long requestId : ids) {
      Pending request = pending.get(requestId);
      complete(
          requestId,
          null,
          new MessagingException.Unreachable(
              "Expected a response from member "
                  + request.nodeId
                  + " to '"
                  + request.type
                  + "', but node "
                  + nodeId
                  + " "
                  + reason));
    }
  }

  private MessagingException refusal(int targetNodeId, String type, byte[] payload) {
    byte[] typeBytes = FrameDescriptor.typeBytes(type);
    if (stoppedBecause != null) {
      return new MessagingException.Rejected(
          "Expected an open messaging service, but node " + nodeId + " " + stoppedBecause);
    }
    if (!network.isMember(targetNodeId)) {
      return new MessagingException.Rejected(
          "Expected a known member, but node "
              + nodeId
              + " has no address for member "
              + targetNodeId);
    }
    long frameLength = FrameDescriptor.frameLength(typeBytes.length, payload.length);
    if (frameLength > network.maxFrameSizeBytes()) {
      return new MessagingException.Rejected(
          "Expected a frame of at most "
              + network.maxFrameSizeBytes()
              + " bytes (maxFrameSizeBytes), but '"
              + type
              + "' to member "
              + targetNodeId
              + " needs "
              + frameLength
              + " (node "
              + nodeId
              + ")");
    }
    return null;
  }

  private void complete(long requestId, byte[] response, MessagingException failure) {
    Pending request = pending.remove(requestId);
    if (request == null) {
      return;
    }
    request.timeoutTask.cancel();
    if (failure != null) {
      request.future.completeExceptionally(failure);
    } else {
      request.future.complete(response);
    }
  }

  /** A frame arrived (called by the network in a delivery task). */
  void receive(Envelope envelope) {
    switch (envelope.kind()) {
      case REQUEST -> onRequest(envelope);
      case MESSAGE -> onMessage(envelope);
      case RESPONSE -> onResponse(envelope);
    }
  }

  private void onRequest(Envelope request) {
    Registration registration = handlers.get(request.type());
    if (!(registration instanceof RequestRegistration handler)) {
      respond(
          request,
          Status.NO_HANDLER,
          text(
              "Expected a request handler for '"
                  + request.type()
                  + "' on member "
                  + nodeId
                  + ", but none is registered"));
      return;
    }
    byte[] payload = request.payload().clone();
    try {
      handler.executor().execute(() -> runRequestHandler(request, handler.handler(), payload));
    } catch (RejectedExecutionException e) {
      respond(
          request,
          Status.HANDLER_FAILURE,
          text(
              "Expected the executor of '"
                  + request.type()
                  + "' on member "
                  + nodeId
                  + " to accept the request, but it refused: "
                  + e.getMessage()));
    }
  }

  private void runRequestHandler(Envelope request, RequestHandler handler, byte[] payload) {
    if (!isOpen()) {
      return;
    }
    CompletableFuture<byte[]> result;
    try {
      result = handler.handle(request.sender().localNodeId(), payload);
    } catch (RuntimeException e) {
      respondFailure(request, e);
      return;
    }
    if (result == null) {
      respondFailure(request, new NullPointerException("the request handler returned no future"));
      return;
    }
    result.whenComplete(
        (response, failure) -> {
          if (failure != null) {
            respondFailure(request, failure);
          } else {
            respond(request, Status.OK, response == null ? EMPTY : response.clone());
          }
        });
  }

  private void respondFailure(Envelope request, Throwable failure) {
    Throwable cause =
        failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause()
            : failure;
    respond(
        request,
        Status.HANDLER_FAILURE,
        text(
            "Expected the handler of '"
                + request.type()
                + "' on member "
                + nodeId
                + " to answer, but it failed: "
                + cause.getClass().getSimpleName()
                + ": "
                + cause.getMessage()));
  }

  private void respond(Envelope request, Status status, byte[] payload) {
    if (!isOpen()) {
      return;
    }
    Status sentStatus = status;
    byte[] sentPayload = payload;
    long frameLength = FrameDescriptor.frameLength(0, payload.length);
    if (frameLength > network.maxFrameSizeBytes()) {
      sentStatus = Status.HANDLER_FAILURE;
      sentPayload =
          text(
              "Expected a response to '"
                  + request.type()
                  + "' of at most "
                  + network.maxFrameSizeBytes()
                  + " bytes (maxFrameSizeBytes), but member "
                  + nodeId
                  + " produced "
                  + frameLength);
    }
    network.transmit(
        new Envelope(
            Kind.RESPONSE,
            this,
            request.sender(),
            request.requestId(),
            request.type(),
            sentStatus,
            sentPayload));
  }

  private void onMessage(Envelope message) {
    Registration registration = handlers.get(message.type());
    if (!(registration instanceof MessageRegistration handler)) {
      return;
    }
    byte[] payload = message.payload().clone();
    int sender = message.sender().localNodeId();
    try {
      handler
          .executor()
          .execute(
              () -> {
                if (isOpen()) {
                  runMessageHandler(message.type(), handler.handler(), sender, payload);
                }
              });
    } catch (RejectedExecutionException e) {
      // Dropped, as the netty implementation drops it: one-way delivery is not guaranteed.
    }
  }

  private void runMessageHandler(String type, MessageHandler handler, int sender, byte[] payload) {
    try {
      handler.handle(sender, payload);
    } catch (RuntimeException e) {
      LOG.warn("Handler of message '{}' on node {} failed for member {}", type, nodeId, sender, e);
    }
  }

  private void onResponse(Envelope response) {
    byte[] payload = response.payload().clone();
    switch (response.status()) {
      case OK -> complete(response.requestId(), payload, null);
      case NO_HANDLER ->
          complete(
              response.requestId(),
              null,
              new MessagingException.NoRemoteHandler(new String(payload, StandardCharsets.UTF_8)));
      case HANDLER_FAILURE ->
          complete(
              response.requestId(),
              null,
              new MessagingException.RemoteHandlerFailure(
                  new String(payload, StandardCharsets.UTF_8)));
    }
  }

  @Override
  public String toString() {
    return "SimMessagingService{node="
        + nodeId
        + (stoppedBecause == null ? "" : ", " + stoppedBecause)
        + ", pending="
        + pending.size()
        + '}';
  }

  private static byte[] text(String message) {
    return message.getBytes(StandardCharsets.UTF_8);
  }
}
