package io.cairn.transport.netty;

import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.Socket;
import java.security.cert.X509Certificate;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

/**
 * A TLS server on 127.0.0.1 made from the JDK's {@link SSLContext} (one context for its whole life,
 * so a client could resume its sessions): it completes each connection's handshake, records the
 * serial of the certificate the client presented, and closes the connection.
 */
final class RecordingTlsServer implements AutoCloseable {

  private final SSLServerSocket socket;
  private final BlockingQueue<BigInteger> clientSerials = new LinkedBlockingQueue<>();
  private final Thread acceptor;

  RecordingTlsServer(SSLContext context) throws IOException {
    socket =
        (SSLServerSocket)
            context
                .getServerSocketFactory()
                .createServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
    acceptor = new Thread(this::acceptAll, "recording-tls-server");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return socket.getLocalPort();
  }

  /** The serials of the client certificates seen so far, in order. */
  BlockingQueue<BigInteger> clientSerials() {
    return clientSerials;
  }

  private void acceptAll() {
    while (!socket.isClosed()) {
      try (Socket accepted = socket.accept()) {
        SSLSocket connection = (SSLSocket) accepted;
        connection.setSoTimeout(10_000);
        connection.startHandshake();
        clientSerials.add(
            ((X509Certificate) connection.getSession().getPeerCertificates()[0]).getSerialNumber());
      } catch (IOException e) {
        // a refused or closed connection: nothing to record
      }
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    socket.close();
    acceptor.join(10_000);
  }
}
