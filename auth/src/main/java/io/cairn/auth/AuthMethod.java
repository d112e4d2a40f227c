package io.cairn.auth;

/** How a {@link Principal} proved who it is, recorded with every audited operation. */
public enum AuthMethod {
  /** An API key from the credentials file ({@code Authorization: ApiKey <keyId>.<secret>}). */
  API_KEY("api-key"),
  /** A JWT bearer token signed by a key of the configured JWKS. */
  JWT("jwt"),
  /**
   * Nothing: authentication is switched off ({@code security.auth.enabled: false}) and every caller
   * is the anonymous administrator, as before authentication existed.
   */
  NONE("none");

  private final String id;

  AuthMethod(String id) {
    this.id = id;
  }

  /** The method as logs, the audit trail and meter tags spell it. */
  public String id() {
    return id;
  }

  @Override
  public String toString() {
    return id;
  }
}
