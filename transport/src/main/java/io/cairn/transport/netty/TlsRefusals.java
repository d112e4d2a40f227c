package io.cairn.transport.netty;

import io.cairn.scheduler.Clock;
import io.cairn.transport.MemberAddress;
import io.cairn.transport.TransportMetrics;
import io.cairn.transport.TransportMetrics.TlsRole;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports refused TLS connections of one member: each is counted in {@code
 * cairn.transport.handshakes.failed} (tag role) and logged at WARN, but the same reason from the
 * same peer at most once per {@link #WARN_INTERVAL_NANOS} (the repeats at DEBUG), so that a
 * misconfigured peer that keeps retrying does not flood the log. The peers remembered for this are
 * bounded by {@link #REMEMBERED_MAX}.
 */
final class TlsRefusals {

  /** Least time between two WARNs for the same peer and reason. */
  static final long WARN_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

  /** Most (peer, reason) pairs remembered for the WARN interval. */
  static final int REMEMBERED_MAX = 1024;

  private static final int REASON_LENGTH_MAX = 600;

  private static final Logger LOG = LoggerFactory.getLogger(TlsRefusals.class);

  private final int localNodeId;
  private final TransportMetrics metrics;
  private final Clock clock;
  private final Map<String, Long> lastWarnNanos = new HashMap<>(); // guarded by this

  TlsRefusals(int localNodeId, TransportMetrics metrics, Clock clock) {
    this.localNodeId = localNodeId;
    this.metrics = metrics;
    this.clock = clock;
  }

  /**
   * A connection this member accepted failed its handshake. One that the peer closed before the
   * handshake completed, without a TLS error (a port probe, a client giving up), is not a refusal:
   * logged at DEBUG only, not counted.
   */
  void serverHandshakeFailed(SocketAddress remote, Throwable failure) {
    String reason = describe(failure);
    if (unwrap(failure) instanceof ClosedChannelException) {
      LOG.debug("Node {}: {} closed before the TLS handshake completed", localNodeId, remote);
      return;
    }
    metrics.handshakeFailed(TlsRole.SERVER);
    String host =
        remote instanceof InetSocketAddress inet ? inet.getHostString() : String.valueOf(remote);
    boolean warn = shouldWarn("server " + host + " " + reason);
    String format =
        "Expected a TLS handshake with a certificate of the cluster's CA from {}, but it failed:"
            + " {} (node {}). Check that TLS is on for that member and that both members hold"
            + " valid certificates of a CA in the other's bundle";
    if (warn) {
      LOG.warn(format, remote, reason, localNodeId);
    } else {
      LOG.debug(format, remote, reason, localNodeId);
    }
  }

  /**
   * A connection to member {@code nodeId} was refused: its handshake failed, or the member closed
   * it with a TLS error after the handshake (TLS 1.3 lets the server refuse the client's
   * certificate only then).
   */
  void clientRefused(int nodeId, MemberAddress address, String failure, long backoffNanos) {
    metrics.handshakeFailed(TlsRole.CLIENT);
    boolean warn = shouldWarn("client " + nodeId + " " + address + " " + failure);
    String format =
        "Expected a TLS connection to member {} at {}, but {} (node {}); next attempt in {} ms."
            + " Check that both members have TLS on and certificates of the same CA, and that the"
            + " member's certificate names {}";
    Object[] arguments = {
      nodeId,
      address,
      failure,
      localNodeId,
      TimeUnit.NANOSECONDS.toMillis(backoffNanos),
      address.host()
    };
    if (warn) {
      LOG.warn(format, arguments);
    } else {
      LOG.debug(format, arguments);
    }
  }

  private synchronized boolean shouldWarn(String key) {
    long now = clock.nanos();
    Long last = lastWarnNanos.get(key);
    if (last != null && now - last < WARN_INTERVAL_NANOS) {
      return false;
    }
    if (last == null && lastWarnNanos.size() >= REMEMBERED_MAX) {
      lastWarnNanos.values().removeIf(warned -> now - warned >= WARN_INTERVAL_NANOS);
      if (lastWarnNanos.size() >= REMEMBERED_MAX) {
        lastWarnNanos.clear();
      }
    }
    lastWarnNanos.put(key, now);
    return true;
  }

  /** Whether a pipeline exception is a TLS failure (handshake, alert, not a TLS record). */
  static boolean isTlsFailure(Throwable failure) {
    return unwrap(failure) instanceof SSLException;
  }

  /**
   * Why a handshake or TLS connection failed, in words: the exception and, when it says more, its
   * root cause. Never the bytes received (netty puts them in its not-a-TLS-record message), never
   * key material.
   */
  static String describe(Throwable failure) {
    Throwable cause = unwrap(failure);
    if (cause == null) {
      return "the attempt was cancelled";
    }
    if (cause instanceof NotSslRecordException) {
      return "the peer does not speak TLS (its first bytes are not a TLS record)";
    }
    if (cause instanceof ClosedChannelException) {
      return "the connection closed before the TLS handshake completed";
    }
    if (cause instanceof SslHandshakeTimeoutException) {
      return cause.getMessage();
    }
    String text = cause.getClass().getSimpleName() + ": " + cause.getMessage();
    Throwable root = cause;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    if (root != cause && root.getMessage() != null && !text.contains(root.getMessage())) {
      text += " (" + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
    }
    return text.length() > REASON_LENGTH_MAX
        ? text.substring(0, REASON_LENGTH_MAX) + " [...]"
        : text;
  }

  private static Throwable unwrap(Throwable failure) {
    Throwable cause = failure;
    while ((cause instanceof DecoderException || cause instanceof CompletionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }
}
