package io.cairn.tls;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;

/** One client connection to a {@link TlsEchoServer}: handshake, one byte there and back. */
final class TlsClients {

  /** What a completed connection saw. */
  record Connected(X509Certificate serverCertificate, String protocol) {}

  private TlsClients() {}

  /** Connects to 127.0.0.1:{@code port} with the context's socket factory. */
  static Connected connect(SSLContext context, int port) throws IOException {
    return connect(context, port, null);
  }

  /** As {@link #connect(SSLContext, int)}, with only {@code protocol} enabled when not null. */
  static Connected connect(SSLContext context, int port, String protocol) throws IOException {
    try (SSLSocket socket =
        (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      if (protocol != null) {
        socket.setEnabledProtocols(new String[] {protocol});
      }
      socket.startHandshake();
      OutputStream out = socket.getOutputStream();
      out.write(42);
      out.flush();
      InputStream in = socket.getInputStream();
      int echo = in.read();
      if (echo != 42) {
        throw new IOException("Expected the echo 42, but read " + echo);
      }
      SSLSession session = socket.getSession();
      return new Connected(
          (X509Certificate) session.getPeerCertificates()[0], session.getProtocol());
    }
  }
}
