package io.cairn.transport.netty;

import io.cairn.scheduler.Clock;
import io.cairn.transport.MemberAddress;
import io.cairn.transport.MessagingException;
import io.cairn.transport.MessagingService;
import io.cairn.transport.TransportConfig;
import io.cairn.transport.TransportMetrics;
import io.cairn.transport.TransportMetrics.Operation;
import io.cairn.transport.TransportMetrics.Result;
import io.cairn.transport.TransportTls;
import io.cairn.transport.netty.HandlerRegistry.MessageRegistration;
import io.cairn.transport.netty.HandlerRegistry.RequestRegistration;
import io.cairn.transport.netty.PendingRequests.PendingRequest;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link MessagingService} over TCP with netty (NIO). Each member listens on one port and keeps one
 * outbound channel per peer; requests and one-way messages go out on it and responses come back on
 * the same channel. Frames are laid out as in {@link FrameDescriptor}.
 *
 * <p>Event loops only decode frames and hand them to the handler's executor, which must therefore
 * not run tasks inline. Futures returned by {@link #sendAndReceive} and {@link #send} may complete
 * on an event loop: continue with the {@code *Async} variants and your own executor.
 *
 * <p>Lifecycle: construct, register handlers, {@link #start()} (returns once bound), learn the
 * bound address with {@link #localAddress()}, give peers' addresses in the config or with {@link
 * #setMemberAddress}, and {@link #close()}.
 *
 * <p>With a {@link TransportTls} every connection is mutual TLS (see {@link TlsPipeline}): a
 * connection carries frames only once its handshake has completed, and a failed handshake closes
 * it; refusals are logged and counted by {@link TlsRefusals}. Without one, frames go in plaintext.
 */
public final class NettyMessagingService implements MessagingService {

  private static final Logger LOG = LoggerFactory.getLogger(NettyMessagingService.class);

  private enum State {
    NEW,
    STARTED,
    CLOSED
  }

  private final TransportConfig config;
  private final int localNodeId;
  private final Clock clock;
  private final TransportMetrics metrics;
  private final HandlerRegistry handlers;
  private final NettyChannels channels;
  private final EventLoopGroup group;
  private final TlsRefusals refusals;
  private final ConcurrentMap<Integer, PeerConnection> peers = new ConcurrentHashMap<>();
  private final PendingRequests pending;
  private final InboundDispatcher dispatcher;
  private final Object lifecycleLock = new Object();
  private volatile State state = State.NEW;
  private volatile Channel serverChannel;

  /** A service speaking plaintext. */
  public NettyMessagingService(TransportConfig config, Clock clock, MeterRegistry registry) {
    this(config, clock, registry, Optional.empty());
  }

  /**
   * A service speaking mutual TLS with every member when {@code tls} is present, plaintext when it
   * is empty. The TLS contexts are built here, once: the managers reload their material themselves.
   *
   * @throws IllegalArgumentException when netty cannot build TLS contexts from the managers
   */
  public NettyMessagingService(
      TransportConfig config, Clock clock, MeterRegistry registry, Optional<TransportTls> tls) {
    this.config = Objects.requireNonNull(config, "config");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.localNodeId = config.localNodeId();
    this.metrics = new TransportMetrics(registry, localNodeId);
    this.handlers = new HandlerRegistry(localNodeId);
    this.pending = new PendingRequests(localNodeId, clock, metrics);
    this.dispatcher =
        new InboundDispatcher(localNodeId, config.maxFrameSizeBytes(), handlers, metrics);
    this.refusals = new TlsRefusals(localNodeId, metrics, clock);
    TlsPipeline tlsPipeline =
        Objects.requireNonNull(tls, "tls")
            .map(
                material ->
                    new TlsPipeline(localNodeId, material, config.connectTimeout(), refusals))
            .orElse(null);
    this.channels =
        new NettyChannels(
            config, metrics, dispatcher, pending, tlsPipeline, () -> state == State.CLOSED);
    this.group = channels.group();
    config.members().forEach(this::setMemberAddress);
  }

  /**
   * Binds the listening port and returns once bound.
   *
   * @throws IllegalStateException if the service was started or closed already, or binding failed
   */
  public void start() {
    synchronized (lifecycleLock) {
      if (state != State.NEW) {
        throw new IllegalStateException(
            "Expected a new messaging service, but node " + localNodeId + " is " + state);
      }
      ChannelFuture bind = channels.bind().awaitUninterruptibly();
      if (!bind.isSuccess()) {
        throw new IllegalStateException(
            "Expected to bind "
                + config.bindHost()
                + ":"
                + config.bindPort()
                + ", but "
                + bind.cause()
                + " (node "
                + localNodeId
                + "). Free the port or change bindHost/bindPort",
            bind.cause());
      }
      serverChannel = bind.channel();
      state = State.STARTED;
    }
    LOG.info(
        "Messaging service of node {} listening on {}{}",
        localNodeId,
        localAddress(),
        channels.tls() ? " (mutual TLS)" : "");
  }

  /**
   * The address the service is bound to (with the real port when bindPort was 0).
   *
   * @throws IllegalStateException before {@link #start()}
   */
  public MemberAddress localAddress() {
    Channel server = serverChannel;
    if (server == null) {
      throw new IllegalStateException(
          "Expected a started messaging service, but node " + localNodeId + " is " + state);
    }
    InetSocketAddress bound = (InetSocketAddress) server.localAddress();
    return new MemberAddress(bound.getHostString(), bound.getPort());
  }

  /**
   * Sets (or changes) where member {@code nodeId} listens. An open connection to its old address is
   * closed; the backoff is reset.
   */
  public void setMemberAddress(int nodeId, MemberAddress address) {
    Objects.requireNonNull(address, "address");
    if (nodeId < 0 || address.port() == 0) {
      throw new IllegalArgumentException(
          "Expected a node id >= 0 and a port > 0, but was " + nodeId + " -> " + address);
    }
    PeerConnection existing =
        peers.computeIfAbsent(
            nodeId,
            id ->
                new PeerConnection(
                    localNodeId,
                    id,
                    address,
                    channels::dial,
                    clock,
                    config.reconnectBackoffMin().toNanos(),
                    config.reconnectBackoffMax().toNanos(),
                    pending::failSentOn,
                    refusals));
    existing.setAddress(address);
  }

  /** The configured members' addresses as currently known. */
  public Map<Integer, MemberAddress> memberAddresses() {
    Map<Integer, MemberAddress> addresses = new TreeMap<>();
    peers.forEach((nodeId, peer) -> addresses.put(nodeId, peer.address()));
    return addresses;
  }

  @Override
  public int localNodeId() {
    return localNodeId;
  }

  @Override
  public void registerRequestHandler(String type, RequestHandler handler, Executor executor) {
    handlers.register(
        type,
        new RequestRegistration(
            Objects.requireNonNull(handler, "handler"),
            Objects.requireNonNull(executor, "executor")));
  }

  @Override
  public void registerMessageHandler(String type, MessageHandler handler, Executor executor) {
    handlers.register(
        type,
        new MessageRegistration(
            Objects.requireNonNull(handler, "handler"),
            Objects.requireNonNull(executor, "executor")));
  }

  @Override
  public void unregisterHandler(String type) {
    handlers.unregister(type);
  }

  @Override
  public CompletableFuture<byte[]> sendAndReceive(
      int nodeId, String type, byte[] payload, Duration timeout) {
    Objects.requireNonNull(payload, "payload");
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("Expected a positive timeout, but was " + timeout);
    }
    byte[] typeBytes = FrameDescriptor.typeBytes(type);
    PeerConnection peer = peers.get(nodeId);
    MessagingException refusal = refusal(nodeId, peer, type, typeBytes, payload);
    if (refusal != null) {
      metrics.sent(Operation.REQUEST, Result.REJECTED);
      metrics.requestCompleted(Result.REJECTED, 0);
      return CompletableFuture.failedFuture(refusal);
    }
    PendingRequest request = pending.add(nodeId, type);
    long requestId = request.requestId;
    try {
      request.timeoutTask =
          group.schedule(
              () -> pending.expire(requestId, timeout), timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      // The event loops stopped: close() ran concurrently.
      pending.complete(requestId, null, closedRefusal());
      return request.future;
    }
    if (state == State.CLOSED) {
      // close() may have failed the pending requests before this one was added.
      pending.complete(requestId, null, closedRefusal());
      return request.future;
    }
    peer.acquire()
        .whenComplete(
            (channel, failure) -> {
              if (failure != null) {
                metrics.sent(Operation.REQUEST, Result.UNREACHABLE);
                pending.complete(requestId, null, asMessagingException(failure));
                return;
              }
              request.channel = channel;
              if (request.future.isDone()) {
                return; // timed out while connecting
              }
              ByteBuf frame =
                  FrameEncoder.encode(
                      channel.alloc(),
                      FrameKind.REQUEST,
                      FrameStatus.OK,
                      requestId,
                      localNodeId,
                      typeBytes,
                      payload);
              int length = frame.readableBytes();
              channel
                  .writeAndFlush(frame)
                  .addListener(
                      written -> {
                        if (written.isSuccess()) {
                          metrics.sent(Operation.REQUEST, Result.OK);
                          metrics.bytesSent(length);
                        } else {
                          metrics.sent(Operation.REQUEST, Result.UNREACHABLE);
                          pending.complete(
                              requestId,
                              null,
                              new MessagingException.Unreachable(
                                  "Expected to send '"
                                      + type
                                      + "' to member "
                                      + nodeId
                                      + ", but the write failed: "
                                      + written.cause()
                                      + " (node "
                                      + localNodeId
                                      + ")"));
                        }
                      });
            });
    return request.future;
  }

  @Override
  public CompletableFuture<Void> send(int nodeId, String type, byte[] payload) {
    Objects.requireNonNull(payload, "payload");
    byte[] typeBytes = FrameDescriptor.typeBytes(type);
    PeerConnection peer = peers.get(nodeId);
    MessagingException refusal = refusal(nodeId, peer, type, typeBytes, payload);
    if (refusal != null) {
      metrics.sent(Operation.MESSAGE, Result.REJECTED);
      return CompletableFuture.failedFuture(refusal);
    }
    CompletableFuture<Void> handedOff = new CompletableFuture<>();
    peer.acquire()
        .whenComplete(
            (channel, failure) -> {
              if (failure != null) {
                metrics.sent(Operation.MESSAGE, Result.UNREACHABLE);
                handedOff.completeExceptionally(asMessagingException(failure));
                return;
              }
              ByteBuf frame =
                  FrameEncoder.encode(
                      channel.alloc(),
                      FrameKind.MESSAGE,
                      FrameStatus.OK,
                      0,
                      localNodeId,
                      typeBytes,
                      payload);
              int length = frame.readableBytes();
              channel
                  .writeAndFlush(frame)
                  .addListener(
                      written -> {
                        if (written.isSuccess()) {
                          metrics.sent(Operation.MESSAGE, Result.OK);
                          metrics.bytesSent(length);
                          handedOff.complete(null);
                        } else {
                          metrics.sent(Operation.MESSAGE, Result.UNREACHABLE);
                          handedOff.completeExceptionally(
                              new MessagingException.Unreachable(
                                  "Expected to send '"
                                      + type
                                      + "' to member "
                                      + nodeId
                                      + ", but the write failed: "
                                      + written.cause()
                                      + " (node "
                                      + localNodeId
                                      + ")"));
                        }
                      });
            });
    return handedOff;
  }

  /**
   * Closes the listening port and every connection, fails pending requests with {@link
   * MessagingException.Unreachable}, and stops the event loops (waiting up to shutdownTimeout).
   * Later sends fail with {@link MessagingException.Rejected}. Idempotent.
   */
  @Override
  public void close() {
    synchronized (lifecycleLock) {
      if (state == State.CLOSED) {
        return;
      }
      state = State.CLOSED;
    }
    Channel server = serverChannel;
    if (server != null) {
      server.close();
    }
    peers.values().forEach(PeerConnection::close);
    channels.closeAccepted();
    pending.failAll();
    long timeoutMillis = config.shutdownTimeout().toMillis();
    boolean stopped = channels.shutdown(timeoutMillis);
    if (!stopped) {
      LOG.warn(
          "Expected the event loops of node {} to stop within {} ms, but they still run",
          localNodeId,
          timeoutMillis);
    }
    LOG.info("Messaging service of node {} closed", localNodeId);
  }

  private MessagingException closedRefusal() {
    return new MessagingException.Rejected(
        "Expected an open messaging service, but node " + localNodeId + " is closed");
  }

  private MessagingException refusal(
      int nodeId, PeerConnection peer, String type, byte[] typeBytes, byte[] payload) {
    if (state != State.STARTED) {
      return new MessagingException.Rejected(
          "Expected a started messaging service, but node " + localNodeId + " is " + state);
    }
    if (peer == null) {
      return new MessagingException.Rejected(
          "Expected a known member, but node "
              + localNodeId
              + " has no address for member "
              + nodeId
              + ". Add it to the members or call setMemberAddress");
    }
    long frameLength = FrameDescriptor.frameLength(typeBytes.length, payload.length);
    if (frameLength > config.maxFrameSizeBytes()) {
      return new MessagingException.Rejected(
          "Expected a frame of at most "
              + config.maxFrameSizeBytes()
              + " bytes (maxFrameSizeBytes), but '"
              + type
              + "' to member "
              + nodeId
              + " needs "
              + frameLength
              + " (node "
              + localNodeId
              + ")");
    }
    return null;
  }

  private static MessagingException asMessagingException(Throwable failure) {
    Throwable cause =
        failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause()
            : failure;
    if (cause instanceof MessagingException messagingException) {
      return messagingException;
    }
    return new MessagingException.Unreachable(cause.toString());
  }
}
