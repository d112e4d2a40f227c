package io.cairn.tls;

import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;

/**
 * Why a peer's chain was refused, in the operator's words: which certificate (subject, issuer,
 * serial) and whether it expired, is not valid yet, or does not lead to a trusted CA; otherwise the
 * JDK's own reason (a host name the certificate does not carry, a weak algorithm).
 */
final class PeerRefusal {

  private PeerRefusal() {}

  /**
   * The message for a refused chain.
   *
   * @param role "client" or "server": whose certificate it is
   * @param peer the peer's address as far as it is known
   * @param trustFile the CA bundle's file, for the context
   */
  static String describe(
      String role,
      String peer,
      X509Certificate[] chain,
      List<X509Certificate> trusted,
      Instant now,
      TlsFile trustFile,
      CertificateException refusal) {
    String context = "peer " + peer + ", trusted CAs " + CertificateText.subjects(trusted);
    context += " from " + trustFile;
    if (chain == null || chain.length == 0) {
      return TlsConfigurationException.format(
          "the " + role + " to present a certificate",
          "it presented none",
          context,
          "Configure the peer with a certificate issued by a trusted CA.");
    }
    for (X509Certificate certificate : chain) {
      if (now.isAfter(certificate.getNotAfter().toInstant())) {
        return TlsConfigurationException.format(
            "the " + role + "'s certificate chain to be valid now (" + now + ")",
            CertificateText.describe(certificate) + " has expired",
            context,
            "Renew the peer's certificate.");
      }
      if (now.isBefore(certificate.getNotBefore().toInstant())) {
        return TlsConfigurationException.format(
            "the " + role + "'s certificate chain to be valid now (" + now + ")",
            CertificateText.describe(certificate) + " is not valid yet",
            context,
            "Check the clocks of both hosts, or give the peer a certificate valid now.");
      }
    }
    X509Certificate last = chain[chain.length - 1];
    if (!signedByTrusted(last, trusted)) {
      return TlsConfigurationException.format(
          "the " + role + "'s certificate to be signed by a trusted CA (the cluster's CA)",
          CertificateText.identify(chain[0])
              + (chain.length > 1 ? " leads to " + CertificateText.identify(last) + ", which" : "")
              + " is signed by none of them",
          context,
          "Give the peer a certificate issued by a CA in the bundle, or add its CA to the bundle.");
    }
    return TlsConfigurationException.format(
        "the " + role + "'s certificate to be trusted",
        CertificateText.identify(chain[0]) + " was refused: " + refusal.getMessage(),
        context,
        "Check the peer's certificate against the reason.");
  }

  /** Whether the chain's last certificate is a trusted one, or signed by one. */
  private static boolean signedByTrusted(X509Certificate last, List<X509Certificate> trusted) {
    for (X509Certificate anchor : trusted) {
      if (anchor.equals(last)) {
        return true;
      }
      if (anchor.getSubjectX500Principal().equals(last.getIssuerX500Principal())) {
        try {
          last.verify(anchor.getPublicKey());
          return true;
        } catch (GeneralSecurityException e) {
          // another CA of the same name: keep looking
        }
      }
    }
    return false;
  }
}
