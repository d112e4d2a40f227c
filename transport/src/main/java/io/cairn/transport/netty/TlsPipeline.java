package io.cairn.transport.netty;

import io.cairn.transport.MemberAddress;
import io.cairn.transport.TransportMetrics.TlsRole;
import io.cairn.transport.TransportTls;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Enumeration;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSessionContext;

/**
 * Mutual TLS of one member: netty's SSL contexts, built once from a {@link TransportTls} (whose
 * managers reload their files themselves), and the stages every connection starts with: netty's
 * {@link SslHandler} first, then the {@link TlsHandshakeHandler}.
 *
 * <ul>
 *   <li>Accepted connections: the member's certificate; the client must present one its trust
 *       manager accepts ({@code ClientAuth.REQUIRE}).
 *   <li>Dialled connections: the member's certificate as client certificate; the server's
 *       certificate must pass the trust manager and name the host dialled (endpoint identification
 *       {@code HTTPS}, the engine made with the member's host and port).
 *   <li>A dialled connection never resumes a TLS session: the client's session cache is emptied
 *       before each new connection, so that every handshake presents and checks the material in use
 *       (a renewed certificate, a changed CA bundle) rather than the one of an earlier session. A
 *       peer that does resume one has its certificate chain checked again ({@link
 *       ResumptionCheckingTrustManager}).
 *   <li>The handshake must complete within the connect timeout.
 * </ul>
 *
 * Only the JDK provider: the managers are the JDK's types and OpenSSL is not on the class path.
 */
final class TlsPipeline {

  static final String SSL_STAGE = "tls";
  static final String HANDSHAKE_STAGE = "tls-handshake";

  /** Dialled connections check the server's name with the rules of HTTPS (RFC 2818). */
  static final String ENDPOINT_IDENTIFICATION = "HTTPS";

  private final int localNodeId;
  private final SslContext serverContext;
  private final SslContext clientContext;
  private final long handshakeTimeoutMillis;
  private final TlsRefusals refusals;

  /**
   * @throws IllegalArgumentException when netty cannot build the contexts from the managers
   */
  TlsPipeline(int localNodeId, TransportTls tls, Duration handshakeTimeout, TlsRefusals refusals) {
    this.localNodeId = localNodeId;
    this.handshakeTimeoutMillis = handshakeTimeout.toMillis();
    this.refusals = refusals;
    try {
      this.serverContext =
          SslContextBuilder.forServer(tls.keyManager())
              .trustManager(new ResumptionCheckingTrustManager(tls.trustManager()))
              .clientAuth(ClientAuth.REQUIRE)
              .protocols(tls.protocols())
              .sslProvider(SslProvider.JDK)
              .build();
      this.clientContext =
          SslContextBuilder.forClient()
              .keyManager(tls.keyManager())
              .trustManager(new ResumptionCheckingTrustManager(tls.trustManager()))
              .protocols(tls.protocols())
              .endpointIdentificationAlgorithm(ENDPOINT_IDENTIFICATION)
              .sslProvider(SslProvider.JDK)
              .build();
    } catch (SSLException e) {
      throw new IllegalArgumentException(
          "Expected netty to build TLS contexts from "
              + tls
              + ", but it failed: "
              + e.getMessage()
              + " (node "
              + localNodeId
              + "). Check the key and trust managers given to the transport",
          e);
    }
  }

  /**
   * Puts the server's TLS stages at the front of an accepted connection's pipeline. The engine
   * knows the client's address only for the trust manager's messages.
   */
  void addServerStages(SocketChannel channel) {
    InetSocketAddress client = channel.remoteAddress();
    SslHandler ssl =
        client == null
            ? serverContext.newHandler(channel.alloc())
            : serverContext.newHandler(channel.alloc(), client.getHostString(), client.getPort());
    ssl.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
    channel
        .pipeline()
        .addLast(SSL_STAGE, ssl)
        .addLast(
            HANDSHAKE_STAGE, new TlsHandshakeHandler(localNodeId, TlsRole.SERVER, ssl, refusals));
  }

  /** Puts the client's TLS stages at the front of a connection dialled to {@code target}. */
  void addClientStages(SocketChannel channel, MemberAddress target) {
    forgetSessions();
    SslHandler ssl = clientContext.newHandler(channel.alloc(), target.host(), target.port());
    ssl.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
    channel
        .pipeline()
        .addLast(SSL_STAGE, ssl)
        .addLast(
            HANDSHAKE_STAGE, new TlsHandshakeHandler(localNodeId, TlsRole.CLIENT, ssl, refusals));
  }

  private void forgetSessions() {
    SSLSessionContext sessions = clientContext.sessionContext();
    for (Enumeration<byte[]> ids = sessions.getIds(); ids.hasMoreElements(); ) {
      SSLSession session = sessions.getSession(ids.nextElement());
      if (session != null) {
        session.invalidate();
      }
    }
  }
}
