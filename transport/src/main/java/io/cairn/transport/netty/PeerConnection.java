package io.cairn.transport.netty;

import io.cairn.scheduler.Clock;
import io.cairn.transport.MemberAddress;
import io.cairn.transport.MessagingException;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.handler.ssl.SslHandler;
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
 *
 * <p>With TLS (an {@link SslHandler} in the channel's pipeline) the channel is handed out only once
 * its handshake has completed, so nothing is written before it. A failed handshake is a failed
 * attempt, and so is a connection the peer closes with a TLS error after the handshake (TLS 1.3
 * servers refuse a client's certificate only then; see {@link TlsHandshakeHandler#REFUSAL}): both
 * are reported through {@link TlsRefusals} and back off. A TLS connection resets the backoff when
 * it ends without such an error.
 */
final class PeerConnection {

  private static final Logger LOG = LoggerFactory.getLogger(PeerConnection.class);

  /** Opens a connection to a member's address; the channel's pipeline is set up for it. */
  @FunctionalInterface
  interface Dialer {
    ChannelFuture connect(MemberAddress target);
  }

  private final int localNodeId;
  private final int nodeId;
  private final Dialer dialer;
  private final Clock clock;
  private final long backoffMinNanos;
  private final long backoffMaxNanos;
  private final Consumer<Channel> onChannelClosed;
  private final TlsRefusals refusals;

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
      Dialer dialer,
      Clock clock,
      long backoffMinNanos,
      long backoffMaxNanos,
      Consumer<Channel> onChannelClosed,
      TlsRefusals refusals) {
    this.localNodeId = localNodeId;
    this.nodeId = nodeId;
    this.address = address;
    this.dialer = dialer;
    this.clock = clock;
    this.backoffMinNanos = backoffMinNanos;
    this.backoffMaxNanos = backoffMaxNanos;
    this.onChannelClosed = onChannelClosed;
    this.refusals = refusals;
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
      connect = dialer.connect(target);
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
    if (!done.isSuccess()) {
      failAttempt(attempt, target, describe(done.cause()), false);
      return;
    }
    SslHandler tls = connected.pipeline().get(SslHandler.class);
    if (tls == null) {
      onReady(connected, attempt, target, false);
      return;
    }
    tls.handshakeFuture()
        .addListener(
            handshake -> {
              if (handshake.isSuccess()) {
                onReady(connected, attempt, target, true);
              } else if (isClosed()) {
                connected.close(); // the service closed while the handshake ran: no refusal
                synchronized (this) {
                  connecting = null;
                }
                attempt.completeExceptionally(
                    new MessagingException.Rejected(
                        "Expected an open messaging service, but node "
                            + localNodeId
                            + " is closed"));
              } else {
                connected.close();
                failAttempt(
                    attempt,
                    target,
                    "the TLS handshake failed: " + TlsRefusals.describe(handshake.cause()),
                    true);
              }
            });
  }

  /** The channel is connected and, with TLS, its handshake completed. */
  private void onReady(
      Channel connected, CompletableFuture<Channel> attempt, MemberAddress target, boolean tls) {
    boolean closeNow;
    synchronized (this) {
      connecting = null;
      closeNow = closed || !target.equals(address);
      if (!closeNow) {
        channel = connected;
        if (!tls) {
          backoffNanos = 0; // with TLS, once the connection ends without a refusal (onClosed)
        }
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
    connected.closeFuture().addListener(closedFuture -> afterClose(connected, target, tls));
    LOG.debug("Node {} connected to member {} at {}", localNodeId, nodeId, target);
    attempt.complete(connected);
  }

  private void failAttempt(
      CompletableFuture<Channel> attempt, MemberAddress target, String failure, boolean tls) {
    long backoff;
    synchronized (this) {
      connecting = null;
      backoff = backOff(failure);
    }
    if (tls) {
      refusals.clientRefused(nodeId, target, failure, backoff);
    } else {
      LOG.debug(
          "Node {} could not connect to member {} at {} ({}); backing off {} ms",
          localNodeId,
          nodeId,
          target,
          failure,
          TimeUnit.NANOSECONDS.toMillis(backoff));
    }
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

  /** Counts one more failed attempt: the next waits twice as long as the last, within bounds. */
  private long backOff(String failure) {
    backoffNanos =
        backoffNanos == 0 ? backoffMinNanos : Math.min(backoffMaxNanos, backoffNanos * 2);
    nextAttemptNanos = clock.nanos() + backoffNanos;
    lastFailure = failure;
    return backoffNanos;
  }

  /**
   * Runs {@link #onClosed} once the close is settled. On a TLS error netty's {@code SslHandler}
   * closes the channel before, in the same call stack, the error reaches the {@link
   * TlsHandshakeHandler} that records it: with TLS, the refusal is read one event-loop task later.
   */
  private void afterClose(Channel closedChannel, MemberAddress target, boolean tls) {
    if (!tls) {
      onClosed(closedChannel, target, false);
      return;
    }
    try {
      closedChannel.eventLoop().execute(() -> onClosed(closedChannel, target, true));
    } catch (RejectedExecutionException stopping) {
      onClosed(closedChannel, target, true);
    }
  }

  private void onClosed(Channel closedChannel, MemberAddress target, boolean tls) {
    String refusal = tls ? closedChannel.attr(TlsHandshakeHandler.REFUSAL).get() : null;
    String failure = "it closed the TLS connection: " + refusal;
    long backoff = 0;
    synchronized (this) {
      if (channel == closedChannel) {
        channel = null;
        if (refusal != null) {
          backoff = backOff(failure);
        } else if (tls) {
          backoffNanos = 0;
        }
      }
    }
    if (refusal != null && backoff > 0) {
      refusals.clientRefused(nodeId, target, failure, backoff);
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

  private synchronized boolean isClosed() {
    return closed;
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
