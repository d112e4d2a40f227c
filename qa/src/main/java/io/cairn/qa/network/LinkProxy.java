package io.cairn.qa.network;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One direction of one link of the embedded cluster's network: a TCP relay on 127.0.0.1 that the
 * {@code from} node is told to use as {@code to}'s address. Bytes are copied unchanged both ways
 * (requests out, responses back on the same connection), with backpressure: a side is read only
 * after the previous write to the other side was flushed.
 *
 * <p><b>Blocked</b> (a network partition, or a killed node): every open connection is closed at
 * once and new ones are accepted and closed immediately. The sender's transport therefore sees a
 * reset connection and fails its requests fast as unreachable, instead of waiting for timeouts;
 * accepting (rather than refusing) keeps its reconnect backoff at the minimum, so traffic resumes
 * within milliseconds of {@link #unblock()}. A target that is down (connection refused, or a TCP
 * self-connection to its free port) is treated the same way.
 *
 * <p><b>Held</b>: what the sender writes is kept, in order, and nothing more is read from it (TCP
 * backpressure); answers from the target still flow back. {@link #release()} delivers what was kept
 * at once and relays as before: the sender sees a slow network, never a reset, and the target
 * receives the held bytes as one burst.
 *
 * <p>Thread-safe; all I/O runs on the injected event loop group.
 */
public final class LinkProxy implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LinkProxy.class);
  private static final int CONNECT_TIMEOUT_MS = 2_000;

  private final int fromNodeId;
  private final int toNodeId;
  private volatile InetSocketAddress target;
  private final EventLoopGroup group;
  private final Set<Channel> open = ConcurrentHashMap.newKeySet();
  private volatile boolean blocked;
  private volatile boolean held;

  /** Connections with bytes kept while held. */
  private final Set<InboundHandler> holding = ConcurrentHashMap.newKeySet();

  private volatile Channel server;

  /**
   * @param fromNodeId the node that sends through this proxy
   * @param toNodeId the node the proxy forwards to
   * @param target where {@code toNodeId} listens
   * @param group runs the proxy's channels (shared by every link)
   */
  public LinkProxy(int fromNodeId, int toNodeId, InetSocketAddress target, EventLoopGroup group) {
    this.fromNodeId = fromNodeId;
    this.toNodeId = toNodeId;
    this.target = Objects.requireNonNull(target, "target");
    this.group = Objects.requireNonNull(group, "group");
  }

  /**
   * Binds an ephemeral port on 127.0.0.1.
   *
   * @throws IllegalStateException if it cannot be bound, or was started already
   */
  public synchronized void start() {
    if (server != null) {
      throw new IllegalStateException(
          "Expected a new link proxy, but " + this + " was started already");
    }
    var bind =
        new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.AUTO_READ, false)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel inbound) {
                    inbound.pipeline().addLast(new InboundHandler());
                  }
                })
            .bind("127.0.0.1", 0)
            .awaitUninterruptibly();
    if (!bind.isSuccess()) {
      throw new IllegalStateException(
          "Expected to bind a port on 127.0.0.1 for " + this + ", but " + bind.cause(),
          bind.cause());
    }
    server = bind.channel();
  }

  /** Where {@code fromNodeId} must send to reach {@code toNodeId}. */
  public InetSocketAddress address() {
    Channel bound = server;
    if (bound == null) {
      throw new IllegalStateException("Expected a started link proxy, but " + this + " is not");
    }
    return (InetSocketAddress) bound.localAddress();
  }

  /** Points new connections at {@code newTarget} (the node listens elsewhere after a restart). */
  public void retarget(InetSocketAddress newTarget) {
    target = Objects.requireNonNull(newTarget, "newTarget");
  }

  public int fromNodeId() {
    return fromNodeId;
  }

  public int toNodeId() {
    return toNodeId;
  }

  /** Cuts the link: closes every open connection and resets new ones until unblocked. */
  public void block() {
    if (!blocked) {
      blocked = true;
      LOG.debug("Link {} -> {} blocked", fromNodeId, toNodeId);
    }
    open.forEach(Channel::close);
  }

  /** Lets new connections through again. */
  public void unblock() {
    if (blocked) {
      blocked = false;
      LOG.debug("Link {} -> {} unblocked", fromNodeId, toNodeId);
    }
  }

  public boolean isBlocked() {
    return blocked;
  }

  /** Keeps what the sender writes from now on until {@link #release()}; see the class comment. */
  public void hold() {
    if (!held) {
      held = true;
      LOG.debug("Link {} -> {} held", fromNodeId, toNodeId);
    }
  }

  /** Delivers what was kept, in order, and relays as before. */
  public void release() {
    if (held) {
      held = false;
      LOG.debug("Link {} -> {} released", fromNodeId, toNodeId);
    }
    for (InboundHandler handler : holding) {
      handler.releaseLater();
    }
  }

  public boolean isHeld() {
    return held;
  }

  /** Open connections, counting both sides of each relayed connection. */
  public int openChannels() {
    return open.size();
  }

  /** Unbinds and closes every connection. Idempotent. */
  @Override
  public synchronized void close() {
    blocked = true;
    Channel bound = server;
    if (bound != null) {
      bound.close().awaitUninterruptibly();
    }
    open.forEach(Channel::close);
  }

  private void track(Channel channel) {
    open.add(channel);
    channel.closeFuture().addListener(closed -> open.remove(channel));
  }

  @Override
  public String toString() {
    return "LinkProxy{" + fromNodeId + " -> " + toNodeId + " at " + target + "}";
  }

  /** The side the sender connected to: connects to the target, then relays. */
  private final class InboundHandler extends ChannelInboundHandlerAdapter {
    private Channel inbound;
    private Channel outbound;

    /** Kept while held; touched on the connection's event loop only. */
    private final ArrayDeque<Object> kept = new ArrayDeque<>();

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      inbound = ctx.channel();
      track(inbound);
      if (blocked) {
        inbound.close();
        return;
      }
      var connect =
          new Bootstrap()
              .group(inbound.eventLoop())
              .channel(NioSocketChannel.class)
              .option(ChannelOption.TCP_NODELAY, true)
              .option(ChannelOption.AUTO_READ, false)
              .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MS)
              .handler(new RelayHandler(inbound))
              .connect(target);
      outbound = connect.channel();
      track(outbound);
      connect.addListener(
          (ChannelFutureListener)
              done -> {
                if (done.isSuccess() && !blocked && !connectedToItself(outbound)) {
                  inbound.read();
                  outbound.read();
                } else {
                  inbound.close();
                  outbound.close();
                }
              });
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
      if (held || !kept.isEmpty()) {
        kept.add(message); // not read again until released
        holding.add(this);
        if (!held) {
          // release() ran after the check above but may have looked at holding before this
          // connection was in it: it would never be told, and with no read pending, stall
          deliverKept();
        }
        return;
      }
      relay(ctx.channel(), outbound, message);
    }

    void releaseLater() {
      inbound.eventLoop().execute(this::deliverKept);
    }

    /** Writes what was kept in one flush; reads on once the last one was written. */
    private void deliverKept() {
      if (held || kept.isEmpty()) {
        return;
      }
      holding.remove(this);
      Object message;
      while ((message = kept.poll()) != null) {
        if (kept.isEmpty()) {
          relay(inbound, outbound, message);
        } else if (blocked || outbound == null || !outbound.isActive()) {
          ReferenceCountUtil.release(message);
        } else {
          outbound.write(message);
        }
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      holding.remove(this);
      kept.forEach(ReferenceCountUtil::release);
      kept.clear();
      closeAfterFlush(outbound);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      LOG.debug("Link {} -> {}: inbound connection failed", fromNodeId, toNodeId, cause);
      ctx.channel().close();
    }
  }

  /** The side towards the target: relays its bytes back to the sender. */
  private final class RelayHandler extends ChannelInboundHandlerAdapter {
    private final Channel inbound;

    RelayHandler(Channel inbound) {
      this.inbound = inbound;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
      relay(ctx.channel(), inbound, message);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      closeAfterFlush(inbound);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      LOG.debug("Link {} -> {}: outbound connection failed", fromNodeId, toNodeId, cause);
      ctx.channel().close();
    }
  }

  /** Writes {@code message} to {@code to}; reads {@code from} again once it was flushed. */
  private void relay(Channel from, Channel to, Object message) {
    if (blocked || to == null || !to.isActive()) {
      ReferenceCountUtil.release(message);
      from.close();
      return;
    }
    to.writeAndFlush(message)
        .addListener(
            (ChannelFutureListener)
                written -> {
                  if (written.isSuccess()) {
                    from.read();
                  } else {
                    from.close();
                    written.channel().close();
                  }
                });
  }

  /**
   * Whether a connection to a port nobody listens on became a TCP self-connection (the kernel
   * picked the target port as the source port): it must count as "target down", or it would reflect
   * the sender's bytes back and keep the port from its broker.
   */
  private static boolean connectedToItself(Channel channel) {
    InetSocketAddress local = (InetSocketAddress) channel.localAddress();
    InetSocketAddress remote = (InetSocketAddress) channel.remoteAddress();
    return local != null && local.equals(remote);
  }

  private static void closeAfterFlush(Channel channel) {
    if (channel != null && channel.isActive()) {
      channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }
  }
}
