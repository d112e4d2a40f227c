package io.cairn.tls;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.stream.Collectors;

/** How messages and logs show a certificate: its public facts only, never key material. */
final class CertificateText {

  private CertificateText() {}

  /** {@code subject=..., issuer=..., serial=...}: enough to find the certificate. */
  static String identify(X509Certificate certificate) {
    return "subject="
        + certificate.getSubjectX500Principal().getName()
        + ", issuer="
        + certificate.getIssuerX500Principal().getName()
        + ", serial="
        + serial(certificate);
  }

  /** {@link #identify} and the validity window. */
  static String describe(X509Certificate certificate) {
    return identify(certificate) + ", " + validity(certificate);
  }

  /** {@code notBefore=..., notAfter=...} in UTC (ISO-8601). */
  static String validity(X509Certificate certificate) {
    return "notBefore="
        + certificate.getNotBefore().toInstant()
        + ", notAfter="
        + certificate.getNotAfter().toInstant();
  }

  /** The serial number in hexadecimal, as {@code openssl x509 -serial} prints it. */
  static String serial(X509Certificate certificate) {
    return certificate.getSerialNumber().toString(16).toUpperCase(java.util.Locale.ROOT);
  }

  /** The subjects, in order: {@code [CN=a, CN=b]}. */
  static String subjects(List<X509Certificate> certificates) {
    return certificates.stream()
        .map(c -> c.getSubjectX500Principal().getName())
        .collect(Collectors.joining("; ", "[", "]"));
  }
}
