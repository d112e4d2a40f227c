package io.cairn.tls;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.security.cert.X509Certificate;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

/**
 * A TLS server on 127.0.0.1 made from an {@link SSLContext}'s server socket factory: it accepts
 * connections one after the other, completes the handshake, echoes one byte and records how each
 * connection ended (the client's certificate, or the failure).
 */
final class TlsEchoServer implements AutoCloseable {

  /** How one connection ended: the client's certificate (null when it sent none), or a failure. */
  record Outcome(X509Certificate clientCertificate, Exception failure) {}

  private final SSLServerSocket socket;
  private final BlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
  private final Thread acceptor;

  TlsEchoServer(SSLContext context) throws IOException {
    socket =
        (SSLServerSocket)
            context
                .getServerSocketFactory()
                .createServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
    acceptor = new Thread(this::acceptAll, "tls-echo-server");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return socket.getLocalPort();
  }

  SSLServerSocket socket() {
    return socket;
  }

  /** The next connection's outcome, waiting at most 10 s for it. */
  Outcome nextOutcome() throws InterruptedException {
    Outcome outcome = outcomes.poll(10, TimeUnit.SECONDS);
    if (outcome == null) {
      throw new AssertionError("Expected a connection to end within 10 s, but none did");
    }
    return outcome;
  }

  private void acceptAll() {
    while (!socket.isClosed()) {
      try (Socket accepted = socket.accept()) {
        outcomes.add(serve((SSLSocket) accepted));
      } catch (IOException e) {
        if (!socket.isClosed()) {
          outcomes.add(new Outcome(null, e));
        }
      }
    }
  }

  private static Outcome serve(SSLSocket connection) {
    try {
      connection.setSoTimeout(10_000);
      connection.startHandshake();
      InputStream in = connection.getInputStream();
      int b = in.read();
      if (b < 0) {
        throw new IOException("the client closed before sending its byte");
      }
      OutputStream out = connection.getOutputStream();
      out.write(b);
      out.flush();
      X509Certificate client;
      try {
        client = (X509Certificate) connection.getSession().getPeerCertificates()[0];
      } catch (SSLPeerUnverifiedException e) {
        client = null;
      }
      return new Outcome(client, null);
    } catch (IOException e) {
      return new Outcome(null, e);
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    socket.close();
    acceptor.join(10_000);
  }
}
