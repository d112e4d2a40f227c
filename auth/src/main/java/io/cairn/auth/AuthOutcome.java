package io.cairn.auth;

import java.util.Objects;
import java.util.Optional;

/**
 * What {@link Authenticator#authenticate} found: a {@link Principal}, or why there is none.
 *
 * <p>A rejected caller is told only {@link #PUBLIC_MESSAGE}, the same for every failure: telling
 * "unknown key id" from "wrong secret" would let anyone probe which key ids exist. The {@link
 * Unauthenticated#reason()} is for the operator's logs and the audit trail. Neither ever holds a
 * secret, a token or a hash.
 */
public sealed interface AuthOutcome {

  /** What every rejected caller is told (gRPC {@code UNAUTHENTICATED}, HTTP 401). */
  String PUBLIC_MESSAGE =
      "Expected valid credentials, but the request has none or they are not valid. Send"
          + " 'Authorization: ApiKey <keyId>.<secret>' or 'Authorization: Bearer <token>'";

  /**
   * The principal when authenticated, else empty. (Java 17 has no pattern matching in {@code
   * switch}; this spares callers an {@code instanceof}.)
   */
  Optional<Principal> principalIfAuthenticated();

  /** The caller is {@code principal}. */
  record Authenticated(Principal principal) implements AuthOutcome {
    public Authenticated {
      Objects.requireNonNull(principal, "principal");
    }

    @Override
    public Optional<Principal> principalIfAuthenticated() {
      return Optional.of(principal);
    }

    @Override
    public String toString() {
      return "Authenticated{" + principal + "}";
    }
  }

  /**
   * The caller is not authenticated.
   *
   * @param failure what kind of failure, from a closed set (meter tags, audit)
   * @param reason what exactly, for logs and the audit trail: e.g. {@code "unknown key id
   *     'ops-1'"}, {@code "expired token (exp 2026-01-01T00:00:00Z, ...)"}; never a secret
   */
  record Unauthenticated(AuthFailure failure, String reason) implements AuthOutcome {
    public Unauthenticated {
      Objects.requireNonNull(failure, "failure");
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public Optional<Principal> principalIfAuthenticated() {
      return Optional.empty();
    }

    /** {@link #PUBLIC_MESSAGE}: what the caller is told, whatever the reason. */
    public String publicMessage() {
      return PUBLIC_MESSAGE;
    }

    @Override
    public String toString() {
      return "Unauthenticated{" + failure + ": " + reason + "}";
    }
  }
}
