package io.cairn.tls;

import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;

/**
 * A certificate {@link LocalCertificateAuthority} issued, with its private key, ready to be written
 * as the PEM files a {@link TlsFiles} names.
 */
public final class IssuedCertificate {

  private final X509Certificate certificate;
  private final PrivateKey privateKey;

  IssuedCertificate(X509Certificate certificate, PrivateKey privateKey) {
    this.certificate = certificate;
    this.privateKey = privateKey;
  }

  public X509Certificate certificate() {
    return certificate;
  }

  public PrivateKey privateKey() {
    return privateKey;
  }

  /** Writes the certificate as PEM ({@code rw-r--r--}), replacing the file atomically. */
  public void writeCertificate(Path file) {
    PemWriter.writeCertificates(file, certificate);
  }

  /** Writes the key as PKCS#8 PEM ({@code rw-------}), replacing the file atomically. */
  public void writePrivateKey(Path file) {
    writePrivateKey(file, KeyFormat.PKCS8);
  }

  /** Writes the key as PEM in {@code format} ({@code rw-------}), replacing the file atomically. */
  public void writePrivateKey(Path file, KeyFormat format) {
    PemWriter.writePrivateKey(file, privateKey, certificate.getPublicKey(), format);
  }

  /**
   * Writes {@code <name>.crt} and {@code <name>.key} (PKCS#8) into {@code directory}, creating it
   * when missing; the key is written first, so that a reader that sees the new certificate finds
   * its key beside it.
   */
  public PemPair writeInto(Path directory, String name) {
    PemPair pair = new PemPair(directory.resolve(name + ".crt"), directory.resolve(name + ".key"));
    writePrivateKey(pair.privateKey());
    writeCertificate(pair.certificate());
    return pair;
  }

  /** The certificate's public facts; never the key. */
  @Override
  public String toString() {
    return "IssuedCertificate{" + CertificateText.describe(certificate) + "}";
  }
}
