package io.cairn.tls;

import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks peers' certificate chains against the CA bundle of a {@link TlsMaterialSource}, as the
 * bundle is at the moment of the handshake: a CA added to or removed from the file counts from the
 * next handshake on.
 *
 * <p>The check itself is the JDK's PKIX trust manager over the bundle's certificates (path
 * building, signatures, validity at the system time, key usages, algorithm constraints, and the
 * host name when the socket or engine asks for endpoint identification); it is rebuilt when the
 * bundle changes. When it refuses, one WARN names the certificate (subject, issuer, serial), the
 * peer and the reason — expired, not valid yet, not signed by the cluster's CA, or the JDK's reason
 * — and the {@link CertificateException} goes on to fail the handshake. A flood of refused peers
 * logs a line each.
 *
 * <p>Works wherever the JDK's {@code TrustManager} does, including netty's {@code
 * SslContextBuilder.trustManager(TrustManager)}.
 */
public final class ReloadingTrustManager extends X509ExtendedTrustManager {

  private static final Logger LOG = LoggerFactory.getLogger(ReloadingTrustManager.class);

  /** The JDK trust manager built for one CA bundle. */
  private record Checker(List<X509Certificate> trusted, X509ExtendedTrustManager jdk) {}

  /** One of the JDK's checks, with the peer's chain. */
  @FunctionalInterface
  private interface Check {
    void run(X509ExtendedTrustManager jdk) throws CertificateException;
  }

  private final TlsMaterialSource source;
  private final TlsFile trustFile;
  private volatile Checker checker;

  /**
   * @throws IllegalArgumentException when the source's files have no CA bundle
   */
  public ReloadingTrustManager(TlsMaterialSource source) {
    this.trustFile =
        source
            .files()
            .trustedCertificates()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "Expected TLS files with a CA bundle to check peers against, but none is"
                            + " set ("
                            + source.files()
                            + "). Set the CA bundle file."));
    this.source = source;
    this.checker = build(source.current().trustedCertificates());
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    check("client", "unknown", chain, jdk -> jdk.checkClientTrusted(chain, authType));
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    check("client", peer(socket), chain, jdk -> jdk.checkClientTrusted(chain, authType, socket));
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    check("client", peer(engine), chain, jdk -> jdk.checkClientTrusted(chain, authType, engine));
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    check("server", "unknown", chain, jdk -> jdk.checkServerTrusted(chain, authType));
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    check("server", peer(socket), chain, jdk -> jdk.checkServerTrusted(chain, authType, socket));
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    check("server", peer(engine), chain, jdk -> jdk.checkServerTrusted(chain, authType, engine));
  }

  /** The CA certificates in use, which a server names to its clients. */
  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return checker().trusted().toArray(new X509Certificate[0]);
  }

  private void check(String role, String peer, X509Certificate[] chain, Check check)
      throws CertificateException {
    Checker now = checker();
    try {
      check.run(now.jdk());
    } catch (CertificateException e) {
      LOG.warn(
          "Refused a TLS peer: {}",
          PeerRefusal.describe(
              role, peer, chain, now.trusted(), source.clock().instant(), trustFile, e));
      throw e;
    }
  }

  /** The checker for the bundle in use, rebuilt when a reload changed the bundle. */
  private Checker checker() {
    List<X509Certificate> trusted = source.current().trustedCertificates();
    Checker now = checker;
    if (!now.trusted().equals(trusted)) {
      now = build(trusted);
      checker = now;
    }
    return now;
  }

  private static Checker build(List<X509Certificate> trusted) {
    try {
      KeyStore anchors = KeyStore.getInstance("PKCS12");
      anchors.load(null, null);
      for (int i = 0; i < trusted.size(); i++) {
        anchors.setCertificateEntry("ca-" + i, trusted.get(i));
      }
      TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
      factory.init(anchors);
      for (TrustManager manager : factory.getTrustManagers()) {
        if (manager instanceof X509ExtendedTrustManager jdk) {
          return new Checker(trusted, jdk);
        }
      }
      throw new IllegalStateException(
          "Expected the JDK's PKIX TrustManagerFactory to make an X509ExtendedTrustManager, but"
              + " it made none");
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(
          "Expected the JDK to build a PKIX trust manager over "
              + trusted.size()
              + " CA certificates, but it failed",
          e);
    }
  }

  private static String peer(Socket socket) {
    return socket == null || socket.getRemoteSocketAddress() == null
        ? "unknown"
        : socket.getRemoteSocketAddress().toString();
  }

  private static String peer(SSLEngine engine) {
    return engine == null || engine.getPeerHost() == null
        ? "unknown"
        : engine.getPeerHost() + ":" + engine.getPeerPort();
  }
}
