package io.cairn.auth;

/**
 * Why a request did not authenticate: a closed set, so that it can tag a meter and be counted in
 * the audit trail. The caller never sees it (it would tell a prober whether a key id exists); it
 * sees {@link AuthOutcome#PUBLIC_MESSAGE}.
 */
public enum AuthFailure {
  /** No credentials: no {@code Authorization} header, or an empty one. */
  MISSING("missing"),
  /** Not {@code ApiKey <keyId>.<secret>} or {@code Bearer <jwt>}, or too long. */
  MALFORMED("malformed"),
  /** A scheme other than {@code ApiKey} and {@code Bearer}. */
  UNSUPPORTED_SCHEME("unsupported-scheme"),
  /** A method this process does not accept (no credentials file, or no JWKS configured). */
  METHOD_NOT_CONFIGURED("method-not-configured"),
  /** An API key whose id is not in the credentials file. */
  UNKNOWN_KEY("unknown-key"),
  /** An API key whose id is known but whose secret does not match. */
  WRONG_SECRET("wrong-secret"),
  /** A token that is not a signed JWT in compact form. */
  INVALID_TOKEN("invalid-token"),
  /** A token signed with an algorithm other than RS256 and ES256 ({@code none}, HS256, ...). */
  UNSUPPORTED_ALGORITHM("unsupported-algorithm"),
  /** A token whose {@code kid} (or key type) matches no key of the JWKS, even after a refresh. */
  UNKNOWN_SIGNING_KEY("unknown-signing-key"),
  /** A token whose signature does not verify with the JWKS key it names. */
  BAD_SIGNATURE("bad-signature"),
  /** A token past its {@code exp} (beyond the allowed clock skew). */
  EXPIRED("expired"),
  /** A token before its {@code nbf} (beyond the allowed clock skew). */
  NOT_YET_VALID("not-yet-valid"),
  /** A token from another issuer. */
  WRONG_ISSUER("wrong-issuer"),
  /** A token for another audience. */
  WRONG_AUDIENCE("wrong-audience"),
  /** A token without a claim that is required ({@code exp}, the name claim) or with a bad one. */
  BAD_CLAIM("bad-claim"),
  /** The JWKS could not be read or fetched, so no token can be checked. */
  KEYS_UNAVAILABLE("keys-unavailable");

  private final String id;

  AuthFailure(String id) {
    this.id = id;
  }

  /** The failure as logs and meter tags spell it. */
  public String id() {
    return id;
  }

  @Override
  public String toString() {
    return id;
  }
}
