package io.cairn.tls;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;

/** The key pairs {@link LocalCertificateAuthority} makes, and how it signs with them. */
public enum KeyAlgorithm {
  /** EC on NIST P-256 (secp256r1), signed with SHA256withECDSA: small, fast, everywhere. */
  EC_P256("SHA256withECDSA"),
  /** RSA with a 2048-bit modulus, signed with SHA256withRSA: for peers that want RSA. */
  RSA_2048("SHA256withRSA");

  private final String signatureAlgorithm;

  KeyAlgorithm(String signatureAlgorithm) {
    this.signatureAlgorithm = signatureAlgorithm;
  }

  String signatureAlgorithm() {
    return signatureAlgorithm;
  }

  KeyPair generate(SecureRandom random) {
    try {
      if (this == EC_P256) {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"), random);
        return generator.generateKeyPair();
      }
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048, random);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "Expected the JDK to generate a " + this + " key pair, but it failed", e);
    }
  }

  /** The algorithm of a key the JDK made ({@code "EC"} or {@code "RSA"}). */
  static KeyAlgorithm of(java.security.PrivateKey key) {
    return "RSA".equals(key.getAlgorithm()) ? RSA_2048 : EC_P256;
  }
}
