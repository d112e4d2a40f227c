package io.cairn.client;

import io.grpc.netty.shaded.io.netty.handler.ssl.DelegatingSslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import java.util.Enumeration;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSessionContext;

/**
 * The client's TLS context for the gateway, which never resumes a TLS session: the sessions it
 * cached are forgotten before each new connection's engine starts its handshake, so every
 * connection checks the gateway's certificate against the CA bundle at that moment.
 *
 * <p>A channel reconnects with the same context, and a resumed session is not checked again (gRPC
 * makes its own {@code SslHandler}, without netty's resumption check): a certificate that expired
 * since the last connection, or a CA removed from the bundle since, would be accepted for the
 * session's lifetime, hours to days. The cost is a full handshake on each reconnection of a
 * long-lived channel. The transport's members dial the same way.
 */
final class FullHandshakeSslContext extends DelegatingSslContext {

  private final SslContext context;

  FullHandshakeSslContext(SslContext context) {
    super(context);
    this.context = context;
  }

  @Override
  protected void initEngine(SSLEngine engine) {
    // both providers look for a session to resume when the handshake starts, not before
    SSLSessionContext sessions = context.sessionContext();
    for (Enumeration<byte[]> ids = sessions.getIds(); ids.hasMoreElements(); ) {
      SSLSession session = sessions.getSession(ids.nextElement());
      if (session != null) {
        session.invalidate();
      }
    }
  }
}
