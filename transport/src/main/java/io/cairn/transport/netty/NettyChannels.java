package io.cairn.transport.netty;

import io.cairn.transport.MemberAddress;
import io.cairn.transport.TransportConfig;
import io.cairn.transport.TransportMetrics;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The sockets of one member: its event loops, binding the listening port, dialling a member, the
 * pipeline of every connection (with TLS its stages first, see {@link TlsPipeline}; then the frame
 * decoder and handler), and the accepted connections until they close.
 */
final class NettyChannels {

  private final TransportConfig config;
  private final int localNodeId;
  private final TransportMetrics metrics;
  private final InboundDispatcher dispatcher;
  private final PendingRequests pending;
  private final TlsPipeline tls;
  private final BooleanSupplier closed;
  private final EventLoopGroup group;
  private final Bootstrap clientBootstrap;
  private final Set<Channel> accepted = ConcurrentHashMap.newKeySet();

  /**
   * @param tls the TLS stages, or null for plaintext
   * @param closed whether the service is closed: a connection accepted then is closed at once
   */
  NettyChannels(
      TransportConfig config,
      TransportMetrics metrics,
      InboundDispatcher dispatcher,
      PendingRequests pending,
      TlsPipeline tls,
      BooleanSupplier closed) {
    this.config = config;
    this.localNodeId = config.localNodeId();
    this.metrics = metrics;
    this.dispatcher = dispatcher;
    this.pending = pending;
    this.tls = tls;
    this.closed = closed;
    this.group =
        new MultiThreadIoEventLoopGroup(
            config.ioThreadCount(),
            new DefaultThreadFactory("cairn-transport-" + localNodeId, true),
            NioIoHandler.newFactory());
    this.clientBootstrap =
        new Bootstrap()
            .group(group)
            .channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.SO_KEEPALIVE, true)
            .option(
                ChannelOption.CONNECT_TIMEOUT_MILLIS,
                (int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()));
  }

  /** The event loops, for timers as well. */
  EventLoopGroup group() {
    return group;
  }

  boolean tls() {
    return tls != null;
  }

  /** Binds bindHost:bindPort; the future completes once bound or failed. */
  ChannelFuture bind() {
    return new ServerBootstrap()
        .group(group)
        .channel(NioServerSocketChannel.class)
        .option(ChannelOption.SO_REUSEADDR, true)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(ChannelOption.SO_KEEPALIVE, true)
        .childHandler(pipeline(null))
        .bind(config.bindHost(), config.bindPort());
  }

  /** Connects to {@code target}; with TLS the handshake starts once connected. */
  ChannelFuture dial(MemberAddress target) {
    return clientBootstrap.clone().handler(pipeline(target)).connect(target.host(), target.port());
  }

  /** Closes every accepted connection. */
  void closeAccepted() {
    accepted.forEach(Channel::close);
  }

  /** Stops the event loops, waiting up to {@code timeoutMillis}; whether they stopped. */
  boolean shutdown(long timeoutMillis) {
    return group
        .shutdownGracefully(0, timeoutMillis, TimeUnit.MILLISECONDS)
        .awaitUninterruptibly(timeoutMillis + 1_000, TimeUnit.MILLISECONDS);
  }

  /** The pipeline of a connection dialled to {@code target}, or of an accepted one (null). */
  private ChannelInitializer<SocketChannel> pipeline(MemberAddress target) {
    return new ChannelInitializer<>() {
      @Override
      protected void initChannel(SocketChannel channel) {
        if (target == null) {
          accepted.add(channel);
          channel.closeFuture().addListener(done -> accepted.remove(channel));
          if (closed.getAsBoolean()) {
            channel.close();
          }
        }
        if (tls != null && target == null) {
          tls.addServerStages(channel);
        } else if (tls != null) {
          tls.addClientStages(channel, target);
        }
        channel
            .pipeline()
            .addLast(
                "frame-decoder", new FrameDecoder(localNodeId, config.maxFrameSizeBytes(), metrics))
            .addLast("frame-handler", new FrameHandler(localNodeId, dispatcher, pending));
      }
    };
  }
}
