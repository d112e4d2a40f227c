package io.cairn.transport;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Messaging between cluster members, addressed by node id. Implemented over netty for real clusters
 * and by a simulated network for deterministic tests; both run the same contract test kit.
 *
 * <p>Message types are short names ("raft-append"); payloads are opaque bytes, encoded by the
 * caller. Handlers run on the executor given at registration (typically the owning actor's), never
 * on an I/O thread.
 *
 * <p>The futures returned by {@link #sendAndReceive} and {@link #send} may complete on a transport
 * thread (netty: an event loop; simulation: the scheduler's thread): continue with the {@code
 * *Async} variants and the caller's own executor, never with blocking work. A member with no known
 * address, a payload whose frame exceeds maxFrameSizeBytes, and a closed service fail with {@link
 * MessagingException.Rejected} before anything is sent; closing fails the requests still waiting
 * with {@link MessagingException.Unreachable}.
 */
public interface MessagingService extends AutoCloseable {

  /** The node id of this member. */
  int localNodeId();

  /**
   * Registers the handler of requests of {@code type}. Its future's value is sent back as the
   * response; a future completed exceptionally, or a handler that throws, is answered with a {@link
   * MessagingException.RemoteHandlerFailure} on the requester's side.
   *
   * @throws IllegalStateException if a handler is already registered for the type
   */
  void registerRequestHandler(String type, RequestHandler handler, Executor executor);

  /** Registers the handler of one-way messages of {@code type}. */
  void registerMessageHandler(String type, MessageHandler handler, Executor executor);

  /** Removes the handler of {@code type}, if any. */
  void unregisterHandler(String type);

  /**
   * Sends a request and waits for the response. The future fails with a {@link MessagingException}
   * subclass: {@link MessagingException.Timeout} when no response arrived within {@code timeout},
   * {@link MessagingException.NoRemoteHandler} when the member has no handler for the type, {@link
   * MessagingException.RemoteHandlerFailure} when the handler failed, and {@link
   * MessagingException.Unreachable} when no connection could be made.
   */
  CompletableFuture<byte[]> sendAndReceive(
      int nodeId, String type, byte[] payload, Duration timeout);

  /**
   * Sends a one-way message. The future completes when the message was handed to the network (not
   * when it arrived); delivery is not guaranteed.
   */
  CompletableFuture<Void> send(int nodeId, String type, byte[] payload);

  @Override
  void close();

  /** Handles a request from another member. */
  @FunctionalInterface
  interface RequestHandler {
    CompletableFuture<byte[]> handle(int senderNodeId, byte[] payload);
  }

  /** Handles a one-way message from another member. */
  @FunctionalInterface
  interface MessageHandler {
    void handle(int senderNodeId, byte[] payload);
  }
}
