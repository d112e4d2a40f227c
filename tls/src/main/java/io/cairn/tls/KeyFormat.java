package io.cairn.tls;

/** How a private key is written as PEM; every format Cairn reads, unencrypted. */
public enum KeyFormat {
  /** PKCS#8, {@code BEGIN PRIVATE KEY}: one format for every algorithm, what Cairn writes. */
  PKCS8,
  /**
   * OpenSSL's traditional form: PKCS#1 for RSA ({@code BEGIN RSA PRIVATE KEY}), SEC1 for EC ({@code
   * BEGIN EC PRIVATE KEY}), as older tools write them.
   */
  TRADITIONAL
}
