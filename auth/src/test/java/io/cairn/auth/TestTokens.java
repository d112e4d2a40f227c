package io.cairn.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import java.time.Instant;
import java.util.Date;
import java.util.List;

/** Signing keys, a JWKS of their public halves, and tokens signed the right and the wrong ways. */
final class TestTokens {

  static final String ISSUER = "https://idp.example.com/";
  static final String AUDIENCE = "cairn";

  private TestTokens() {}

  static RSAKey rsaKey(String kid) {
    try {
      return new RSAKeyGenerator(2048).keyID(kid).generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  static ECKey ecKey(String kid) {
    try {
      return new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The JWKS of the keys' public halves. */
  static String jwks(JWK... keys) {
    return new JWKSet(List.of(keys).stream().map(JWK::toPublicJWK).toList()).toString();
  }

  /** Claims of a token valid at {@code now} for an hour, for subject {@code sub}. */
  static JWTClaimsSet.Builder claims(Instant now, String sub) {
    return new JWTClaimsSet.Builder()
        .issuer(ISSUER)
        .audience(AUDIENCE)
        .subject(sub)
        .issueTime(Date.from(now))
        .expirationTime(Date.from(now.plusSeconds(3600)));
  }

  static String sign(JWK key, JWTClaimsSet claims) {
    try {
      JWSSigner signer;
      JWSAlgorithm algorithm;
      if (key instanceof RSAKey rsa) {
        signer = new RSASSASigner(rsa);
        algorithm = JWSAlgorithm.RS256;
      } else {
        signer = new ECDSASigner((ECKey) key);
        algorithm = JWSAlgorithm.ES256;
      }
      SignedJWT jwt =
          new SignedJWT(new JWSHeader.Builder(algorithm).keyID(key.getKeyID()).build(), claims);
      jwt.sign(signer);
      return jwt.serialize();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Signed with a header without {@code kid}. */
  static String signWithoutKid(RSAKey key, JWTClaimsSet claims) {
    try {
      SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).build(), claims);
      jwt.sign(new RSASSASigner(key));
      return jwt.serialize();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code alg: none}: no signature at all. */
  static String unsigned(JWTClaimsSet claims) {
    return new PlainJWT(claims).serialize();
  }

  /**
   * HS256 with the RSA public key's bytes as the HMAC secret: the forgery that works against a
   * verifier that lets the token choose the algorithm.
   */
  static String hs256WithPublicKey(RSAKey key, JWTClaimsSet claims) {
    try {
      SignedJWT jwt =
          new SignedJWT(
              new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(key.getKeyID()).build(), claims);
      jwt.sign(new MACSigner(key.toRSAPublicKey().getEncoded()));
      return jwt.serialize();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }
}
