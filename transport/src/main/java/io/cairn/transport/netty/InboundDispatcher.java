package io.cairn.transport.netty;

import io.cairn.transport.MessagingService.MessageHandler;
import io.cairn.transport.MessagingService.RequestHandler;
import io.cairn.transport.TransportMetrics;
import io.cairn.transport.TransportMetrics.Operation;
import io.cairn.transport.TransportMetrics.Result;
import io.cairn.transport.netty.HandlerRegistry.MessageRegistration;
import io.cairn.transport.netty.HandlerRegistry.Registration;
import io.cairn.transport.netty.HandlerRegistry.RequestRegistration;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands received requests and one-way messages to their handler's executor and writes the
 * responses. Called on an event loop; never runs a handler there.
 */
final class InboundDispatcher {

  private static final Logger LOG = LoggerFactory.getLogger(InboundDispatcher.class);
  private static final byte[] EMPTY = new byte[0];
  private static final int MAX_ERROR_TEXT_LENGTH = 512;

  private final int localNodeId;
  private final int maxFrameSizeBytes;
  private final HandlerRegistry handlers;
  private final TransportMetrics metrics;

  InboundDispatcher(
      int localNodeId, int maxFrameSizeBytes, HandlerRegistry handlers, TransportMetrics metrics) {
    this.localNodeId = localNodeId;
    this.maxFrameSizeBytes = maxFrameSizeBytes;
    this.handlers = handlers;
    this.metrics = metrics;
  }

  /** A request arrived on {@code channel}; its response goes back on the same channel. */
  void onRequest(Channel channel, Frame frame) {
    Registration registration = handlers.get(frame.type());
    if (!(registration instanceof RequestRegistration request)) {
      metrics.received(Operation.REQUEST, Result.NO_HANDLER);
      respond(
          channel,
          frame,
          FrameStatus.NO_HANDLER,
          text(
              "Expected a request handler for '"
                  + frame.type()
                  + "' on member "
                  + localNodeId
                  + ", but none is registered"));
      return;
    }
    try {
      request.executor().execute(() -> runRequestHandler(channel, frame, request.handler()));
      metrics.received(Operation.REQUEST, Result.OK);
    } catch (RejectedExecutionException e) {
      metrics.received(Operation.REQUEST, Result.REJECTED);
      respond(
          channel,
          frame,
          FrameStatus.HANDLER_FAILURE,
          text(
              "Expected the executor of '"
                  + frame.type()
                  + "' on member "
                  + localNodeId
                  + " to accept the request, but it refused: "
                  + e.getMessage()));
    }
  }

  /** A one-way message arrived; without a handler it is dropped. */
  void onMessage(Frame frame) {
    Registration registration = handlers.get(frame.type());
    if (!(registration instanceof MessageRegistration message)) {
      metrics.received(Operation.MESSAGE, Result.NO_HANDLER);
      LOG.debug(
          "Node {} dropped message '{}' from member {}: no handler",
          localNodeId,
          frame.type(),
          frame.senderNodeId());
      return;
    }
    try {
      message.executor().execute(() -> runMessageHandler(frame, message.handler()));
      metrics.received(Operation.MESSAGE, Result.OK);
    } catch (RejectedExecutionException e) {
      metrics.received(Operation.MESSAGE, Result.REJECTED);
      LOG.debug(
          "Node {} dropped message '{}' from member {}: its executor refused it",
          localNodeId,
          frame.type(),
          frame.senderNodeId());
    }
  }

  private void runRequestHandler(Channel channel, Frame frame, RequestHandler handler) {
    CompletableFuture<byte[]> result;
    try {
      result = handler.handle(frame.senderNodeId(), frame.payload());
    } catch (RuntimeException e) {
      respondFailure(channel, frame, e);
      return;
    }
    if (result == null) {
      respondFailure(
          channel, frame, new NullPointerException("the request handler returned no future"));
      return;
    }
    result.whenComplete(
        (response, failure) -> {
          if (failure != null) {
            respondFailure(channel, frame, failure);
          } else {
            respond(channel, frame, FrameStatus.OK, response == null ? EMPTY : response);
          }
        });
  }

  private void runMessageHandler(Frame frame, MessageHandler handler) {
    try {
      handler.handle(frame.senderNodeId(), frame.payload());
    } catch (RuntimeException e) {
      LOG.warn(
          "Handler of message '{}' on node {} failed for member {}",
          frame.type(),
          localNodeId,
          frame.senderNodeId(),
          e);
    }
  }

  private void respondFailure(Channel channel, Frame frame, Throwable failure) {
    Throwable cause =
        failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause()
            : failure;
    LOG.debug(
        "Handler of '{}' on node {} failed for a request of member {}",
        frame.type(),
        localNodeId,
        frame.senderNodeId(),
        cause);
    String description = cause.getClass().getSimpleName() + ": " + cause.getMessage();
    if (description.length() > MAX_ERROR_TEXT_LENGTH) {
      description = description.substring(0, MAX_ERROR_TEXT_LENGTH) + "...";
    }
    respond(
        channel,
        frame,
        FrameStatus.HANDLER_FAILURE,
        text(
            "Expected the handler of '"
                + frame.type()
                + "' on member "
                + localNodeId
                + " to answer, but it failed: "
                + description));
  }

  private void respond(Channel channel, Frame request, FrameStatus status, byte[] payload) {
    FrameStatus sentStatus = status;
    byte[] sentPayload = payload;
    long frameLength = FrameDescriptor.frameLength(0, payload.length);
    if (frameLength > maxFrameSizeBytes) {
      sentStatus = FrameStatus.HANDLER_FAILURE;
      sentPayload =
          text(
              "Expected a response to '"
                  + request.type()
                  + "' of at most "
                  + maxFrameSizeBytes
                  + " bytes (maxFrameSizeBytes), but member "
                  + localNodeId
                  + " produced "
                  + frameLength);
    }
    if (!channel.isActive()) {
      metrics.sent(Operation.RESPONSE, Result.UNREACHABLE);
      return;
    }
    ByteBuf frame =
        FrameEncoder.encode(
            channel.alloc(),
            FrameKind.RESPONSE,
            sentStatus,
            request.requestId(),
            localNodeId,
            null,
            sentPayload);
    int length = frame.readableBytes();
    channel
        .writeAndFlush(frame)
        .addListener(
            written -> {
              if (written.isSuccess()) {
                metrics.sent(Operation.RESPONSE, Result.OK);
                metrics.bytesSent(length);
              } else {
                metrics.sent(Operation.RESPONSE, Result.UNREACHABLE);
              }
            });
  }

  private static byte[] text(String message) {
    return message.getBytes(StandardCharsets.UTF_8);
  }
}
