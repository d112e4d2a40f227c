package io.cairn.tls;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The TLS side of one listening endpoint: its material, loaded and validated at start and reloaded
 * when the files change, as the JDK objects each kind of server wraps.
 *
 * <ul>
 *   <li>The JDK's {@code HttpsServer}: {@code new HttpsConfigurator(tls.sslContext())}; the
 *       context's default parameters carry the protocols and, with {@link ClientAuth#REQUIRED},
 *       {@code needClientAuth}, which the default configurator applies to every connection.
 *   <li>Netty (plain or grpc-netty-shaded): {@code SslContextBuilder.forServer(tls.keyManager())},
 *       {@code .trustManager(tls.trustManager().orElseThrow())} and {@code
 *       .clientAuth(ClientAuth.REQUIRE)} for mutual TLS, {@code .protocols(TlsProtocols.ENABLED)}.
 * </ul>
 *
 * Both see a renewed certificate or CA bundle from the next handshake on (see {@link
 * TlsMaterialSource}).
 */
public final class ServerTls {

  private final TlsMaterialSource material;
  private final ClientAuth clientAuth;
  private final ReloadingKeyManager keyManager;
  private final ReloadingTrustManager trustManager;
  private final SSLContext sslContext;

  private ServerTls(TlsMaterialSource material, ClientAuth clientAuth) {
    this.material = material;
    this.clientAuth = clientAuth;
    this.keyManager = new ReloadingKeyManager(material);
    this.trustManager =
        clientAuth == ClientAuth.REQUIRED ? new ReloadingTrustManager(material) : null;
    this.sslContext =
        LimitedSslContext.create(
            keyManager,
            trustManager,
            clientAuth == ClientAuth.REQUIRED
                ? LimitedSslContext.Side.SERVER_REQUIRING_CLIENT_CERTIFICATES
                : LimitedSslContext.Side.SERVER);
  }

  /**
   * The same material served requiring client certificates (mutual TLS), without reading the files
   * again: one process's listeners share one source and its reloads.
   *
   * @throws TlsConfigurationException if the files have no CA bundle to check clients against
   */
  public ServerTls requiringClientCertificates() {
    if (clientAuth == ClientAuth.REQUIRED) {
      return this;
    }
    requireCaBundle(material.files());
    return new ServerTls(material, ClientAuth.REQUIRED);
  }

  /**
   * {@link #load(TlsFiles, ClientAuth, Clock, Duration)} on the system clock, checking for changed
   * files at most every {@link TlsMaterialSource#DEFAULT_CHECK_INTERVAL}: what a process serves.
   */
  public static ServerTls load(TlsFiles files, ClientAuth clientAuth) {
    return load(files, clientAuth, Clock.systemUTC(), TlsMaterialSource.DEFAULT_CHECK_INTERVAL);
  }

  /**
   * Loads the server's material now.
   *
   * @param files a certificate chain and private key; and a CA bundle when {@code clientAuth} is
   *     {@link ClientAuth#REQUIRED} (with {@link ClientAuth#NONE} a CA bundle is still validated,
   *     but not used)
   * @param clock time for the validity checks and the check interval
   * @param checkInterval how long at least between two checks for changed files
   * @throws TlsConfigurationException naming the key and file of the first problem found
   */
  public static ServerTls load(
      TlsFiles files, ClientAuth clientAuth, Clock clock, Duration checkInterval) {
    if (!files.hasIdentity()) {
      throw new TlsConfigurationException(
          null,
          TlsConfigurationException.format(
              "a certificate chain and private key for a TLS server",
              "only a CA bundle is set",
              files.toString(),
              "Set the server's certificate chain and private key files."));
    }
    if (clientAuth == ClientAuth.REQUIRED) {
      requireCaBundle(files);
    }
    return new ServerTls(TlsMaterialSource.load(files, clock, checkInterval), clientAuth);
  }

  /** A context for the JDK's servers: {@code SSLServerSocket}s, engines, {@code HttpsServer}. */
  public SSLContext sslContext() {
    return sslContext;
  }

  /** The server's certificate and key, for netty's {@code SslContextBuilder.forServer}. */
  public X509ExtendedKeyManager keyManager() {
    return keyManager;
  }

  /** The client-certificate check, present with {@link ClientAuth#REQUIRED}. */
  public Optional<X509ExtendedTrustManager> trustManager() {
    return Optional.ofNullable(trustManager);
  }

  /** Whether clients must present certificates. */
  public ClientAuth clientAuth() {
    return clientAuth;
  }

  /** The TLS versions to enable: {@link TlsProtocols#ENABLED}. */
  public List<String> protocols() {
    return TlsProtocols.ENABLED;
  }

  /** The material behind the managers, to look at or to {@link TlsMaterialSource#checkNow()}. */
  public TlsMaterialSource material() {
    return material;
  }

  private static void requireCaBundle(TlsFiles files) {
    if (files.trustedCertificates().isEmpty()) {
      throw new TlsConfigurationException(
          null,
          TlsConfigurationException.format(
              "a CA bundle to check client certificates against, since clients must present"
                  + " one",
              "no CA bundle is set",
              files.toString(),
              "Set the CA bundle file, or do not require client certificates."));
    }
  }
}
