package io.cairn.tls;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.security.KeyManagementException;
import java.security.SecureRandom;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * An {@link SSLContext} whose sockets, server sockets, engines and default parameters all carry
 * Cairn's settings, so that no caller can forget them: the {@link TlsProtocols#ENABLED} versions;
 * on a server that requires client certificates, {@code needClientAuth}; on a client, endpoint
 * identification ({@code HTTPS}: the server's certificate must name the host dialled) wherever the
 * host is known.
 *
 * <p>The JDK's {@code HttpsServer} takes its engines' parameters from {@link
 * #getDefaultSSLParameters()} through the default {@code HttpsConfigurator}, so the settings reach
 * it too.
 */
final class LimitedSslContext extends SSLContext {

  /** Which settings apply: a server's (with or without client certificates) or a client's. */
  enum Side {
    SERVER,
    SERVER_REQUIRING_CLIENT_CERTIFICATES,
    CLIENT
  }

  private LimitedSslContext(SSLContext delegate, Side side) {
    super(new Spi(delegate, side), delegate.getProvider(), delegate.getProtocol());
  }

  /** A new context over the key and trust managers (either may be null: the JDK's defaults). */
  static SSLContext create(KeyManager keyManager, TrustManager trustManager, Side side) {
    try {
      SSLContext delegate = SSLContext.getInstance("TLS");
      delegate.init(
          keyManager == null ? null : new KeyManager[] {keyManager},
          trustManager == null ? null : new TrustManager[] {trustManager},
          null);
      return new LimitedSslContext(delegate, side);
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(
          "Expected the JDK to make a TLS SSLContext, but it failed", e);
    }
  }

  /** Cairn's settings over {@code parameters}; {@code hostKnown}: the peer's host name is set. */
  static SSLParameters limit(SSLParameters parameters, Side side, boolean hostKnown) {
    parameters.setProtocols(TlsProtocols.ENABLED.toArray(new String[0]));
    if (side == Side.SERVER_REQUIRING_CLIENT_CERTIFICATES) {
      parameters.setNeedClientAuth(true);
    }
    if (side == Side.CLIENT && hostKnown) {
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
    }
    return parameters;
  }

  private static final class Spi extends SSLContextSpi {
    private final SSLContext delegate;
    private final Side side;

    Spi(SSLContext delegate, Side side) {
      this.delegate = delegate;
      this.side = side;
    }

    @Override
    protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom random)
        throws KeyManagementException {
      throw new KeyManagementException(
          "Expected no second init, but this SSLContext is initialised with Cairn's TLS material");
    }

    @Override
    protected SSLSocketFactory engineGetSocketFactory() {
      return new LimitedSocketFactory(delegate.getSocketFactory(), side);
    }

    @Override
    protected SSLServerSocketFactory engineGetServerSocketFactory() {
      return new LimitedServerSocketFactory(delegate.getServerSocketFactory(), side);
    }

    @Override
    protected SSLEngine engineCreateSSLEngine() {
      SSLEngine engine = delegate.createSSLEngine();
      engine.setSSLParameters(limit(engine.getSSLParameters(), side, false));
      return engine;
    }

    @Override
    protected SSLEngine engineCreateSSLEngine(String host, int port) {
      SSLEngine engine = delegate.createSSLEngine(host, port);
      engine.setSSLParameters(limit(engine.getSSLParameters(), side, host != null));
      return engine;
    }

    @Override
    protected SSLSessionContext engineGetServerSessionContext() {
      return delegate.getServerSessionContext();
    }

    @Override
    protected SSLSessionContext engineGetClientSessionContext() {
      return delegate.getClientSessionContext();
    }

    @Override
    protected SSLParameters engineGetDefaultSSLParameters() {
      return limit(delegate.getDefaultSSLParameters(), side, true);
    }

    @Override
    protected SSLParameters engineGetSupportedSSLParameters() {
      return delegate.getSupportedSSLParameters();
    }
  }

  /** Client sockets with the settings; a socket made unconnected gets no host check. */
  private static final class LimitedSocketFactory extends SSLSocketFactory {
    private final SSLSocketFactory delegate;
    private final Side side;

    LimitedSocketFactory(SSLSocketFactory delegate, Side side) {
      this.delegate = delegate;
      this.side = side;
    }

    private Socket limited(Socket socket, boolean hostKnown) {
      SSLSocket ssl = (SSLSocket) socket;
      ssl.setSSLParameters(limit(ssl.getSSLParameters(), side, hostKnown));
      return ssl;
    }

    @Override
    public String[] getDefaultCipherSuites() {
      return delegate.getDefaultCipherSuites();
    }

    @Override
    public String[] getSupportedCipherSuites() {
      return delegate.getSupportedCipherSuites();
    }

    @Override
    public Socket createSocket() throws IOException {
      return limited(delegate.createSocket(), false);
    }

    @Override
    public Socket createSocket(Socket socket, String host, int port, boolean autoClose)
        throws IOException {
      return limited(delegate.createSocket(socket, host, port, autoClose), host != null);
    }

    @Override
    public Socket createSocket(Socket socket, InputStream consumed, boolean autoClose)
        throws IOException {
      return limited(delegate.createSocket(socket, consumed, autoClose), false);
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
      return limited(delegate.createSocket(host, port), true);
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort)
        throws IOException {
      return limited(delegate.createSocket(host, port, localHost, localPort), true);
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
      return limited(delegate.createSocket(host, port), true);
    }

    @Override
    public Socket createSocket(
        InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
      return limited(delegate.createSocket(address, port, localAddress, localPort), true);
    }
  }

  /** Server sockets with the settings; the sockets they accept inherit them. */
  private static final class LimitedServerSocketFactory extends SSLServerSocketFactory {
    private final SSLServerSocketFactory delegate;
    private final Side side;

    LimitedServerSocketFactory(SSLServerSocketFactory delegate, Side side) {
      this.delegate = delegate;
      this.side = side;
    }

    private ServerSocket limited(ServerSocket socket) {
      SSLServerSocket ssl = (SSLServerSocket) socket;
      ssl.setSSLParameters(limit(ssl.getSSLParameters(), side, false));
      return ssl;
    }

    @Override
    public String[] getDefaultCipherSuites() {
      return delegate.getDefaultCipherSuites();
    }

    @Override
    public String[] getSupportedCipherSuites() {
      return delegate.getSupportedCipherSuites();
    }

    @Override
    public ServerSocket createServerSocket() throws IOException {
      return limited(delegate.createServerSocket());
    }

    @Override
    public ServerSocket createServerSocket(int port) throws IOException {
      return limited(delegate.createServerSocket(port));
    }

    @Override
    public ServerSocket createServerSocket(int port, int backlog) throws IOException {
      return limited(delegate.createServerSocket(port, backlog));
    }

    @Override
    public ServerSocket createServerSocket(int port, int backlog, InetAddress address)
        throws IOException {
      return limited(delegate.createServerSocket(port, backlog, address));
    }
  }
}
