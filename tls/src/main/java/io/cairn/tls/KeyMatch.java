package io.cairn.tls;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.util.Arrays;
import org.bouncycastle.jcajce.provider.asymmetric.util.EC5Util;
import org.bouncycastle.jce.spec.ECParameterSpec;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;

/**
 * Whether a private key belongs to a certificate's public key, decided by comparing public keys:
 * RSA by modulus (and public exponent when the key carries it), EC by deriving the public point
 * from the private scalar and comparing the encoded keys (curve included).
 *
 * <p>Comparing keys, rather than signing and verifying, needs no randomness and says exactly what
 * differs; only RSA and EC keys are accepted, which is what the JDK's TLS offers for certificates
 * Cairn issues or reads.
 */
final class KeyMatch {

  private KeyMatch() {}

  /** Whether the key is RSA or EC, the algorithms {@link #matches} decides. */
  static boolean supported(PrivateKey key) {
    return key instanceof RSAPrivateKey || key instanceof ECPrivateKey;
  }

  /** Whether {@code privateKey} is the private half of {@code publicKey}. */
  static boolean matches(PrivateKey privateKey, PublicKey publicKey) {
    if (privateKey instanceof RSAPrivateKey rsa) {
      if (!(publicKey instanceof RSAPublicKey rsaPublic)
          || !rsa.getModulus().equals(rsaPublic.getModulus())) {
        return false;
      }
      return !(rsa instanceof RSAPrivateCrtKey crt)
          || crt.getPublicExponent().equals(rsaPublic.getPublicExponent());
    }
    if (privateKey instanceof ECPrivateKey ec) {
      return Arrays.equals(derivePublic(ec).getEncoded(), publicKey.getEncoded());
    }
    return false;
  }

  /** Q = d·G on the key's own curve. */
  private static PublicKey derivePublic(ECPrivateKey key) {
    ECParameterSpec curve = EC5Util.convertSpec(key.getParams());
    org.bouncycastle.math.ec.ECPoint q =
        new FixedPointCombMultiplier().multiply(curve.getG(), key.getS()).normalize();
    ECPoint point =
        new ECPoint(q.getAffineXCoord().toBigInteger(), q.getAffineYCoord().toBigInteger());
    try {
      return KeyFactory.getInstance("EC")
          .generatePublic(new ECPublicKeySpec(point, key.getParams()));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "Expected the JDK to build an EC public key, but it failed", e);
    }
  }
}
