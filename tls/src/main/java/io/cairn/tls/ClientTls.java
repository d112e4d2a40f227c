package io.cairn.tls;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The TLS side of one connecting endpoint: the CA bundle it checks servers against and, for mutual
 * TLS, the certificate it presents; loaded and validated at start and reloaded when the files
 * change.
 *
 * <ul>
 *   <li>The JDK ({@code SSLSocket}, {@code HttpClient}): {@link #sslContext()}; its sockets and
 *       engines made with a host check that the server's certificate names that host.
 *   <li>Netty: {@code SslContextBuilder.forClient().trustManager(tls.trustManager())}, {@code
 *       .keyManager(tls.keyManager().orElseThrow())} for mutual TLS, {@code
 *       .protocols(TlsProtocols.ENABLED)}; netty 4.2 checks the host name by default.
 * </ul>
 */
public final class ClientTls {

  private final TlsMaterialSource material;
  private final ReloadingKeyManager keyManager;
  private final ReloadingTrustManager trustManager;
  private final SSLContext sslContext;

  private ClientTls(TlsMaterialSource material) {
    this.material = material;
    this.keyManager = material.files().hasIdentity() ? new ReloadingKeyManager(material) : null;
    this.trustManager = new ReloadingTrustManager(material);
    this.sslContext =
        LimitedSslContext.create(keyManager, trustManager, LimitedSslContext.Side.CLIENT);
  }

  /**
   * {@link #load(TlsFiles, Clock, Duration)} on the system clock, checking for changed files at
   * most every {@link TlsMaterialSource#DEFAULT_CHECK_INTERVAL}: what a client process uses.
   */
  public static ClientTls load(TlsFiles files) {
    return load(files, Clock.systemUTC(), TlsMaterialSource.DEFAULT_CHECK_INTERVAL);
  }

  /**
   * Loads the client's material now.
   *
   * @param files a CA bundle; and a certificate chain and private key for mutual TLS
   * @param clock time for the validity checks and the check interval
   * @param checkInterval how long at least between two checks for changed files
   * @throws TlsConfigurationException naming the key and file of the first problem found
   */
  public static ClientTls load(TlsFiles files, Clock clock, Duration checkInterval) {
    if (files.trustedCertificates().isEmpty()) {
      throw new TlsConfigurationException(
          null,
          TlsConfigurationException.format(
              "a CA bundle for a TLS client to check servers against",
              "none is set",
              files.toString(),
              "Set the CA bundle file (the cluster's CA certificate)."));
    }
    return new ClientTls(TlsMaterialSource.load(files, clock, checkInterval));
  }

  /** A context for the JDK's clients. */
  public SSLContext sslContext() {
    return sslContext;
  }

  /** The server check, for netty's {@code SslContextBuilder.trustManager}. */
  public X509ExtendedTrustManager trustManager() {
    return trustManager;
  }

  /** The client's certificate and key, present when the files set them (mutual TLS). */
  public Optional<X509ExtendedKeyManager> keyManager() {
    return Optional.ofNullable(keyManager);
  }

  /** The TLS versions to enable: {@link TlsProtocols#ENABLED}. */
  public List<String> protocols() {
    return TlsProtocols.ENABLED;
  }

  /** The material behind the managers, to look at or to {@link TlsMaterialSource#checkNow()}. */
  public TlsMaterialSource material() {
    return material;
  }
}
