package io.cairn.tls;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The endpoint's certificate and key for every handshake, taken from a {@link TlsMaterialSource} at
 * the moment of the handshake: a renewed certificate is presented from the next handshake on,
 * without rebuilding the {@code SSLContext} or restarting a listener.
 *
 * <p>Works wherever the JDK's {@code KeyManager} does: an {@code SSLContext} (the JDK's {@code
 * HttpsServer}, {@code SSLSocket}s), and netty's {@code SslContextBuilder.forServer(KeyManager)}
 * and {@code .keyManager(KeyManager)}, which ask it for the alias, chain and key on each handshake.
 *
 * <p>Each load has its own alias, and the source keeps the load before the current one: a handshake
 * that chose an alias just before a reload still gets a chain and key of the same load. The one
 * certificate is offered whatever CAs the peer names (the peer then refuses with a clear reason);
 * only the key type must fit: {@code RSA} for an RSA key, {@code EC} (or {@code EC_EC}, {@code
 * EC_RSA}) for an EC key.
 */
public final class ReloadingKeyManager extends X509ExtendedKeyManager {

  private final TlsMaterialSource source;

  /**
   * @throws IllegalArgumentException when the source's files hold no certificate and key
   */
  public ReloadingKeyManager(TlsMaterialSource source) {
    if (!source.files().hasIdentity()) {
      throw new IllegalArgumentException(
          "Expected TLS files with a certificate chain and a private key, but only a CA bundle is"
              + " set ("
              + source.files()
              + "). Set the certificate chain and private key files.");
    }
    this.source = source;
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return aliasFor(keyType);
  }

  @Override
  public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
    return aliasFor(keyType);
  }

  @Override
  public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
    return aliasFor(keyTypes);
  }

  @Override
  public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
    return aliasFor(keyTypes);
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    String alias = aliasFor(keyType);
    return alias == null ? null : new String[] {alias};
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return getServerAliases(keyType, issuers);
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    TlsMaterial material = source.byAlias(alias);
    return material == null ? null : material.certificateChain().toArray(new X509Certificate[0]);
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    TlsMaterial material = source.byAlias(alias);
    return material == null ? null : material.privateKey();
  }

  private String aliasFor(String... keyTypes) {
    TlsMaterial material = source.current();
    if (keyTypes == null) {
      return null;
    }
    for (String keyType : keyTypes) {
      if (fits(keyType, material.privateKey().getAlgorithm())) {
        return material.alias();
      }
    }
    return null;
  }

  /** {@code RSA} fits an RSA key; {@code EC}, {@code EC_EC}, {@code EC_RSA} fit an EC key. */
  private static boolean fits(String keyType, String keyAlgorithm) {
    return keyType != null
        && (keyType.equals(keyAlgorithm) || keyType.startsWith(keyAlgorithm + "_"));
  }
}
