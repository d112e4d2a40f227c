package io.cairn.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Mutual TLS between members: the certificate a member presents, as a server to the members that
 * dial it and as a client to the members it dials, and the check of the other side's certificate.
 * Given to {@code NettyMessagingService}; without it the transport speaks plaintext.
 *
 * <p>The managers are asked on every handshake, so managers that reload their files themselves (the
 * tls module's {@code ReloadingKeyManager} and {@code ReloadingTrustManager}) make a renewed
 * certificate or CA bundle count from the next connection on, without a restart. The transport adds
 * the host check: a member's certificate must name the host it is dialled at (endpoint
 * identification {@code HTTPS}, DNS or IP subject alternative names).
 *
 * @param keyManager the member's certificate chain and private key
 * @param trustManager checks peers' certificate chains (the cluster's CA bundle)
 * @param protocols the TLS versions to enable, among {@code TLSv1.3} and {@code TLSv1.2}
 */
public record TransportTls(
    X509ExtendedKeyManager keyManager,
    X509ExtendedTrustManager trustManager,
    List<String> protocols) {

  /** The TLS versions a member may enable; nothing older than TLS 1.2 (RFC 8996). */
  public static final List<String> ALLOWED_PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

  /**
   * @throws IllegalArgumentException when no protocol, or one outside {@link #ALLOWED_PROTOCOLS},
   *     is given
   */
  public TransportTls {
    Objects.requireNonNull(keyManager, "keyManager");
    Objects.requireNonNull(trustManager, "trustManager");
    Objects.requireNonNull(protocols, "protocols");
    List<String> refused = new ArrayList<>();
    for (String protocol : protocols) {
      if (!ALLOWED_PROTOCOLS.contains(protocol)) {
        refused.add(protocol);
      }
    }
    if (protocols.isEmpty() || !refused.isEmpty()) {
      throw new IllegalArgumentException(
          "Expected TLS protocols among "
              + ALLOWED_PROTOCOLS
              + ", at least one, but was "
              + protocols
              + " (transport TLS). Pass the tls module's TlsProtocols.ENABLED");
    }
    protocols = List.copyOf(protocols);
  }

  /** The protocols and the managers' types; never key material. */
  @Override
  public String toString() {
    return "TransportTls{protocols="
        + protocols
        + ", keyManager="
        + keyManager.getClass().getSimpleName()
        + ", trustManager="
        + trustManager.getClass().getSimpleName()
        + '}';
  }
}
