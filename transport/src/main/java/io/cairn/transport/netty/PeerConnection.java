package io.cairn.transport.netty;

import io.cairn.scheduler.Clock;
import io.cairn.transport.MemberAddress;
import io.cairn.transport.MessagingException;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one outbound channel to a peer: connects on demand, reuses the channel while it is open, and
 * after a failed attempt refuses new attempts (failing fast with {@link
 * MessagingException.Unreachable}) for a backoff that doubles from the minimum to the maximum. A
 * successful connection resets the backoff; a lost connection is re-established on the next use.
 */
final class PeerConnection {

  private static final Logger LOG = LoggerFactory.getLogger(PeerConnection.class);

  private final int localNodeId;
  private final int nodeId;
  private final Bootstrap bootstrap;
  private final Clock clock;
  private final long backoffMinNanos;
  private final long backoffMaxNanos;
  private final Consumer<Channel> onChannelClosed;

  // Guarded by this.
  private MemberAddress address;
  private Channel channel;
  private CompletableFuture<Channel> connecting;
  private long backoffNanos;
  private long nextAttemptNanos;
  private String lastFailure;
  private boolean closed;

  PeerConnection(
      int localNodeId,
      int nodeId,
      MemberAddress address,
      Bootstrap bootstrap,
      Clock clock,
      long backoffMinNanos,
      long backoffMaxNanos,
      Consumer<Channel> onChannelClosed) {
    this.localNodeId = localNodeId;
    this.nodeId = nodeId;
    this.address = address;
    this.bootstrap = bootstrap;
    this.clock = clock;
    this.backoffMinNanos = backoffMinNanos;
    this.backoffMaxNanos = backoffMaxNanos;
    this.onChannelClosed = onChannelClosed;
  }

  /**
   * The open channel to the peer, connecting if there is none. Fails with {@link
   * MessagingException.Unreachable} when the connection attempt fails or while backing off.
   */
  CompletableFuture<Channel> acquire() {
    CompletableFuture<Channel> attempt;
    MemberAddress target;
    synchronized (this) {
      if (closed) {
        return CompletableFuture.failedFuture(
            new MessagingException.Rejected(
                "Expected an open messaging service, but node " + localNodeId + " is closed"));
      }
      if (channel != null && channel.isActive()) {
        return CompletableFuture.completedFuture(channel);
      }
      if (connecting != null) {
        return connecting;
      }
      long waitNanos = nextAttemptNanos - clock.nanos();
      if (backoffNanos > 0 && waitNanos > 0) {
        return CompletableFuture.failedFuture(
            new MessagingException.Unreachable(
                "Expected member "
                    + nodeId
                    + " at "
                    + address
                    + " to accept a connection, but the last attempt failed ("
                    + lastFailure
                    + "); next attempt in "
                    + TimeUnit.NANOSECONDS.toMillis(waitNanos)
                    + " ms (node "
                    + localNodeId
                    + ")"));
      }
      attempt = new CompletableFuture<>();
      connecting = attempt;
      target = address;
    }
    ChannelFuture connect;
    try {
      connect = bootstrap.connect(target.host(), target.port());
    } catch (RejectedExecutionException e) {
      synchronized (this) {
        connecting = null;
      }
      attempt.completeExceptionally(
          new MessagingException.Rejected(
              "Expected running event loops, but node " + localNodeId + " is closing"));
      return attempt;
    }
    connect.addListener((ChannelFuture done) -> onConnectDone(done, attempt, target));
    return attempt;
  }

  private void onConnectDone(
      ChannelFuture done, CompletableFuture<Channel> attempt, MemberAddress target) {
    Channel connected = done.channel();
    if (done.isSuccess()) {
      boolean closeNow;
      synchronized (this) {
        connecting = null;
        closeNow = closed || !target.equals(address);
        if (!closeNow) {
          channel = connected;
          backoffNanos = 0;
        }
      }
      if (closeNow) {
        connected.close();
        attempt.completeExceptionally(
            new MessagingException.Unreachable(
                "Expected to keep the connection to member "
                    + nodeId
                    + " at "
                    + target
                    + ", but it was closed or its address changed (node "
                    + localNodeId
                    + ")"));
        return;
      }
      connected.closeFuture().addListener(closedFuture -> onClosed(connected));
      LOG.debug("Node {} connected to member {} at {}", localNodeId, nodeId, target);
      attempt.complete(connected);
    } else {
      long backoff;
      String failure = describe(done.cause());
      synchronized (this) {
        connecting = null;
        backoffNanos =
            backoffNanos == 0 ? backoffMinNanos : Math.min(backoffMaxNanos, backoffNanos * 2);
        nextAttemptNanos = clock.nanos() + backoffNanos;
        lastFailure = failure;
        backoff = backoffNanos;
      }
      LOG.debug(
          "Node {} could not connect to member {} at {} ({}); backing off {} ms",
          localNodeId,
          nodeId,
          target,
          failure,
          TimeUnit.NANOSECONDS.toMillis(backoff));
      attempt.completeExceptionally(
          new MessagingException.Unreachable(
              "Expected member "
                  + nodeId
                  + " at "
                  + target
                  + " to accept a connection, but "
                  + failure
                  + " (node "
                  + localNodeId
                  + ")"));
    }
  }

  private void onClosed(Channel closedChannel) {
    synchronized (this) {
      if (channel == closedChannel) {
        channel = null;
      }
    }
    LOG.debug("Node {} lost its connection to member {}", localNodeId, nodeId);
    onChannelClosed.accept(closedChannel);
  }

  /** Points the peer at a new address; an open channel to the old one is closed. */
  void setAddress(MemberAddress newAddress) {
    Channel old;
    synchronized (this) {
      if (newAddress.equals(address)) {
        return;
      }
      address = newAddress;
      backoffNanos = 0;
      old = channel;
      channel = null;
    }
    if (old != null) {
      old.close();
    }
  }

  synchronized MemberAddress address() {
    return address;
  }

  /** Closes the channel; every later {@link #acquire()} fails with Rejected. */
  void close() {
    Channel open;
    synchronized (this) {
      closed = true;
      open = channel;
      channel = null;
    }
    if (open != null) {
      open.close();
    }
  }

  private static String describe(Throwable cause) {
    if (cause == null) {
      return "the attempt was cancelled";
    }
    return cause.getClass().getSimpleName() + ": " + cause.getMessage();
  }
}
