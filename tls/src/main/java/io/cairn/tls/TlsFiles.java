package io.cairn.tls;

import java.util.Objects;
import java.util.Optional;

/**
 * The PEM files of one endpoint: its certificate chain and private key (its identity), and the CA
 * bundle it checks its peers against.
 *
 * <p>Which parts an endpoint needs depends on its side: a server always has an identity, and a CA
 * bundle when clients must present certificates; a client always has a CA bundle (it checks the
 * server), and an identity for mutual TLS. {@link ServerTls} and {@link ClientTls} say which part
 * is missing, naming the files they were given.
 *
 * @param certificateChain the endpoint's certificate, then any intermediates (PEM {@code
 *     CERTIFICATE} blocks, leaf first); present together with {@code privateKey}
 * @param privateKey the endpoint's unencrypted private key (PKCS#8, PKCS#1 RSA or SEC1 EC)
 * @param trustedCertificates the CA certificates peers' chains must lead to
 */
public record TlsFiles(
    Optional<TlsFile> certificateChain,
    Optional<TlsFile> privateKey,
    Optional<TlsFile> trustedCertificates) {

  public TlsFiles {
    Objects.requireNonNull(certificateChain, "certificateChain");
    Objects.requireNonNull(privateKey, "privateKey");
    Objects.requireNonNull(trustedCertificates, "trustedCertificates");
    if (certificateChain.isPresent() != privateKey.isPresent()) {
      throw new IllegalArgumentException(
          "Expected a certificate chain file and a private key file together, but only "
              + certificateChain.or(() -> privateKey).orElseThrow()
              + " is set. Set both, or neither.");
    }
    if (certificateChain.isEmpty() && trustedCertificates.isEmpty()) {
      throw new IllegalArgumentException(
          "Expected a certificate chain and private key, a CA bundle, or both, but no file is"
              + " set. Set the files of the endpoint.");
    }
  }

  /** An identity alone: a server that does not check client certificates. */
  public static TlsFiles identity(TlsFile certificateChain, TlsFile privateKey) {
    return new TlsFiles(Optional.of(certificateChain), Optional.of(privateKey), Optional.empty());
  }

  /** An identity and a CA bundle: mutual TLS, on either side. */
  public static TlsFiles identityAndTrust(
      TlsFile certificateChain, TlsFile privateKey, TlsFile trustedCertificates) {
    return new TlsFiles(
        Optional.of(certificateChain), Optional.of(privateKey), Optional.of(trustedCertificates));
  }

  /** A CA bundle alone: a client that checks the server and presents no certificate. */
  public static TlsFiles trustOnly(TlsFile trustedCertificates) {
    return new TlsFiles(Optional.empty(), Optional.empty(), Optional.of(trustedCertificates));
  }

  /** Whether a certificate chain and private key are set. */
  public boolean hasIdentity() {
    return certificateChain.isPresent();
  }

  /** The files, as shown in messages: {@code key = path} each, comma separated. */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    certificateChain.ifPresent(f -> text.append(f));
    privateKey.ifPresent(f -> text.append(", ").append(f));
    trustedCertificates.ifPresent(f -> text.append(text.isEmpty() ? "" : ", ").append(f));
    return text.toString();
  }
}
