package io.cairn.tls;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;

/**
 * One loaded, validated set of an endpoint's TLS material: its certificate chain and private key
 * (when it has an identity) and the CA certificates it trusts (when it checks peers).
 *
 * <p>Immutable: a reload makes a new one and {@link TlsMaterialSource} swaps it in whole, so a
 * handshake never sees a certificate from one load with a key from another. The private key stays
 * inside this package (the key manager hands it to the JDK); {@link #toString} shows certificates
 * only.
 */
public final class TlsMaterial {

  private final List<X509Certificate> chain;
  private final PrivateKey privateKey;
  private final List<X509Certificate> trusted;
  private final String alias;
  private final String fingerprint;

  TlsMaterial(
      List<X509Certificate> chain,
      PrivateKey privateKey,
      List<X509Certificate> trusted,
      String alias,
      String fingerprint) {
    this.chain = List.copyOf(chain);
    this.privateKey = privateKey;
    this.trusted = List.copyOf(trusted);
    this.alias = alias;
    this.fingerprint = fingerprint;
  }

  /** The endpoint's own certificate (the first of its chain); empty without an identity. */
  public Optional<X509Certificate> certificate() {
    return chain.isEmpty() ? Optional.empty() : Optional.of(chain.get(0));
  }

  /** The endpoint's certificate, then its intermediates; empty without an identity. */
  public List<X509Certificate> certificateChain() {
    return chain;
  }

  /** The CA certificates peers' chains must lead to; empty when the endpoint checks no peers. */
  public List<X509Certificate> trustedCertificates() {
    return trusted;
  }

  /** The private key; null without an identity. */
  PrivateKey privateKey() {
    return privateKey;
  }

  /** The key manager's alias for this load, unique per source, so chain and key never mix. */
  String alias() {
    return alias;
  }

  /** SHA-256 over the files' bytes this was parsed from; tells a change from a rewrite. */
  String fingerprint() {
    return fingerprint;
  }

  @Override
  public String toString() {
    return "TlsMaterial{"
        + certificate().map(c -> "certificate " + CertificateText.describe(c) + ", ").orElse("")
        + "trusted "
        + CertificateText.subjects(trusted)
        + "}";
  }
}
