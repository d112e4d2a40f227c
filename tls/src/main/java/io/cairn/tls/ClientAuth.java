package io.cairn.tls;

/** Whether a server asks its clients for certificates. */
public enum ClientAuth {
  /** Clients present no certificate; anyone who reaches the port may connect (server-only TLS). */
  NONE,
  /**
   * Mutual TLS: every client presents a certificate whose chain leads to the server's CA bundle; a
   * client without one, or with one from another CA, fails the handshake.
   */
  REQUIRED
}
