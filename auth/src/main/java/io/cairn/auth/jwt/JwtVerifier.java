package io.cairn.auth.jwt;

import static io.cairn.auth.SafeText.quote;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import io.cairn.auth.AuthFailure;
import io.cairn.auth.AuthMethod;
import io.cairn.auth.AuthOutcome;
import io.cairn.auth.JwtSettings;
import io.cairn.auth.Principal;
import io.cairn.auth.Role;
import io.cairn.scheduler.Clock;
import java.text.ParseException;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a bearer token and makes a {@link Principal} of it.
 *
 * <p>A token is accepted when, in this order: it is a signed JWT in compact form; its algorithm is
 * RS256 or ES256 ({@code none} and the HMAC algorithms are refused: an HMAC "signature" made with
 * the public key as secret is the classic forgery); its signature verifies with a key of the {@link
 * JwksCache} (by {@code kid}); its {@code iss} is the configured issuer; its {@code aud} holds the
 * configured audience; it has an {@code exp} not past and an {@code nbf} (if any) reached, both
 * give or take the clock skew, on the injected clock; and it has a name claim. The roles are mapped
 * from the roles claim; a token whose values map to no role is authenticated but may do nothing.
 *
 * <p>Claims are only looked at once the signature is verified. Neither the token nor any part of it
 * beyond short, cleaned header and claim values ever appears in a reason.
 */
public final class JwtVerifier {

  /** The longest token looked at; real ones are a few kilobytes. */
  public static final int MAX_TOKEN_CHARS = 16 * 1024;

  private static final Set<JWSAlgorithm> ALGORITHMS =
      Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256);

  private final JwtSettings settings;
  private final JwksCache keys;
  private final Clock clock;

  public JwtVerifier(JwtSettings settings, JwksCache keys, Clock clock) {
    this.settings = settings;
    this.keys = keys;
    this.clock = clock;
  }

  /**
   * Checks {@code token}, what follows {@code Bearer } in the header.
   *
   * @return the principal, or why not
   */
  public AuthOutcome verify(String token) {
    if (token.length() > MAX_TOKEN_CHARS) {
      return rejected(
          AuthFailure.INVALID_TOKEN, "token longer than " + MAX_TOKEN_CHARS + " characters");
    }
    JWT jwt;
    try {
      jwt = JWTParser.parse(token);
    } catch (ParseException e) {
      return rejected(AuthFailure.INVALID_TOKEN, "not a JWT in compact form");
    }
    if (jwt instanceof PlainJWT) {
      return rejected(AuthFailure.UNSUPPORTED_ALGORITHM, "unsigned token (alg none)");
    }
    if (!(jwt instanceof SignedJWT signed)) {
      return rejected(AuthFailure.UNSUPPORTED_ALGORITHM, "encrypted token (JWE), not a signed one");
    }
    JWSHeader header = signed.getHeader();
    JWSAlgorithm algorithm = header.getAlgorithm();
    if (!ALGORITHMS.contains(algorithm)) {
      return rejected(
          AuthFailure.UNSUPPORTED_ALGORITHM,
          "token signed with " + quote(algorithm.getName()) + ", not RS256 or ES256");
    }
    String kid = header.getKeyID();
    Optional<List<JWK>> candidates = keys.candidates(kid, algorithm);
    if (candidates.isEmpty()) {
      return rejected(AuthFailure.KEYS_UNAVAILABLE, keys.lastFailure());
    }
    if (candidates.get().isEmpty()) {
      return rejected(
          AuthFailure.UNKNOWN_SIGNING_KEY,
          "no "
              + algorithm.getName()
              + " key "
              + (kid == null ? "(the token has no kid)" : "with kid " + quote(kid))
              + " in "
              + settings.jwksSource());
    }
    if (candidates.get().stream().noneMatch(key -> verifies(signed, key))) {
      return rejected(
          AuthFailure.BAD_SIGNATURE,
          "signature does not verify with "
              + (kid == null ? "any key" : "key " + quote(kid))
              + " of "
              + settings.jwksSource());
    }
    try {
      return checkClaims(signed.getJWTClaimsSet());
    } catch (ParseException e) {
      return rejected(AuthFailure.INVALID_TOKEN, "claims are not a JSON object");
    }
  }

  private static boolean verifies(SignedJWT signed, JWK key) {
    try {
      JWSVerifier verifier =
          key instanceof RSAKey rsa
              ? new RSASSAVerifier(rsa.toRSAPublicKey())
              : new ECDSAVerifier(((ECKey) key).toECPublicKey());
      return signed.verify(verifier);
    } catch (JOSEException | IllegalStateException e) {
      return false; // a key that cannot verify this token is not its signer
    }
  }

  private AuthOutcome checkClaims(JWTClaimsSet claims) {
    if (!settings.issuer().equals(claims.getIssuer())) {
      return rejected(
          AuthFailure.WRONG_ISSUER,
          "issuer "
              + (claims.getIssuer() == null ? "missing" : quote(claims.getIssuer()))
              + ", expected "
              + quote(settings.issuer()));
    }
    List<String> audience = claims.getAudience();
    if (!audience.contains(settings.audience())) {
      return rejected(
          AuthFailure.WRONG_AUDIENCE,
          "audience "
              + (audience.isEmpty() ? "missing" : quote(String.join(", ", audience)))
              + ", expected "
              + quote(settings.audience()));
    }
    Instant now = Instant.ofEpochMilli(clock.millis());
    Date expiry = claims.getExpirationTime();
    if (expiry == null) {
      return rejected(AuthFailure.BAD_CLAIM, "no 'exp': tokens that never expire are refused");
    }
    if (!now.isBefore(expiry.toInstant().plus(settings.clockSkew()))) {
      return rejected(
          AuthFailure.EXPIRED,
          "expired token (exp " + expiry.toInstant() + ", now " + now + skew() + ")");
    }
    Date notBefore = claims.getNotBeforeTime();
    if (notBefore != null && now.isBefore(notBefore.toInstant().minus(settings.clockSkew()))) {
      return rejected(
          AuthFailure.NOT_YET_VALID,
          "token not valid yet (nbf " + notBefore.toInstant() + ", now " + now + skew() + ")");
    }
    Optional<Object> name = TokenClaims.claim(claims, settings.nameClaim());
    if (name.isEmpty()
        || !(name.get() instanceof String text)
        || text.isBlank()
        || text.length() > 256
        || text.chars().anyMatch(Character::isISOControl)) {
      return rejected(
          AuthFailure.BAD_CLAIM,
          "no name: claim "
              + quote(settings.nameClaim())
              + " is missing or not 1 to 256 printable characters");
    }
    Set<Role> roles =
        TokenClaims.claim(claims, settings.rolesClaim())
            .map(value -> TokenClaims.roles(value, settings.roleMapping()))
            .orElse(Set.of());
    return new AuthOutcome.Authenticated(new Principal(text, roles, AuthMethod.JWT));
  }

  private String skew() {
    return ", clock skew " + settings.clockSkew().toSeconds() + "s";
  }

  private static AuthOutcome rejected(AuthFailure failure, String reason) {
    return new AuthOutcome.Unauthenticated(failure, reason);
  }

  @Override
  public String toString() {
    return "JwtVerifier{" + keys + ", issuer " + settings.issuer() + "}";
  }
}
