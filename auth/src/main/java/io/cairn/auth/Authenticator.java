package io.cairn.auth;

import io.cairn.auth.apikey.ApiKeyFormat;
import io.cairn.auth.apikey.ApiKeyStore;
import io.cairn.auth.apikey.InvalidApiKeyFileException;
import io.cairn.auth.jwt.JwksCache;
import io.cairn.auth.jwt.JwksSource;
import io.cairn.auth.jwt.JwtVerifier;
import io.cairn.scheduler.Clock;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/**
 * Tells who is calling from the value of the {@code Authorization} header (HTTP) or the {@code
 * authorization} metadata (gRPC): the one place every transport asks, so that every transport
 * accepts the same credentials and rejects them the same way.
 *
 * <ul>
 *   <li>{@code ApiKey <keyId>.<secret>}: a key of the credentials file ({@link ApiKeyStore}).
 *   <li>{@code Bearer <jwt>}: a token signed by a key of the JWKS ({@link JwtVerifier}).
 * </ul>
 *
 * <p>Schemes are case-insensitive (RFC 9110). With authentication off every caller is {@link
 * Principal#anonymous()}, credentials or not. Thread-safe; a call may block while the credentials
 * file or the JWKS is read again (bounded by the JWKS timeout).
 */
public final class Authenticator {

  /** The longest header value looked at. */
  public static final int MAX_HEADER_CHARS = JwtVerifier.MAX_TOKEN_CHARS + 16;

  private static final String BEARER = "Bearer";
  private static final Pattern SHOWABLE_SCHEME = Pattern.compile("[A-Za-z0-9_-]{1,20}");

  private final AuthSettings settings;
  private final Optional<ApiKeyStore> apiKeys;
  private final Optional<JwtVerifier> tokens;

  private Authenticator(
      AuthSettings settings, Optional<ApiKeyStore> apiKeys, Optional<JwtVerifier> tokens) {
    this.settings = settings;
    this.apiKeys = apiKeys;
    this.tokens = tokens;
  }

  /**
   * Reads the credentials file and the JWKS the settings name; with authentication off, reads
   * nothing.
   *
   * @throws InvalidApiKeyFileException when the credentials file cannot be used
   * @throws IllegalArgumentException when a JWKS file cannot be read (a JWKS URL that does not
   *     answer is only logged: tokens are refused until it does)
   */
  public static Authenticator create(AuthSettings settings, Clock clock) {
    return create(settings, clock, null);
  }

  /**
   * As {@link #create(AuthSettings, Clock)}, trusting {@code jwksTls} for an {@code https} JWKS URL
   * instead of the JVM's default trust store.
   */
  public static Authenticator create(AuthSettings settings, Clock clock, SSLContext jwksTls) {
    if (!settings.enabled()) {
      return new Authenticator(settings, Optional.empty(), Optional.empty());
    }
    Optional<ApiKeyStore> apiKeys =
        settings
            .apiKeysFile()
            .map(
                file ->
                    ApiKeyStore.open(
                        file,
                        settings.key(AuthSettings.KEY_API_KEYS_FILE),
                        clock,
                        settings.apiKeysReloadInterval()));
    Optional<JwtVerifier> tokens =
        settings
            .jwt()
            .map(
                jwt -> {
                  JwksSource source =
                      jwt.jwksFile()
                          .map(JwksSource::file)
                          .orElseGet(
                              () ->
                                  JwksSource.url(
                                      jwt.jwksUri().orElseThrow(),
                                      jwt.jwksTimeout(),
                                      jwksTls,
                                      clock));
                  JwksCache cache =
                      JwksCache.open(
                          source,
                          clock,
                          jwt.jwksRefreshInterval(),
                          jwt.jwksMinRefreshInterval(),
                          jwt.jwksFile().isPresent());
                  return new JwtVerifier(jwt, cache, clock);
                });
    return new Authenticator(settings, apiKeys, tokens);
  }

  /**
   * Who presents {@code authorization}.
   *
   * @param authorization the header's value; null or blank when the request has none
   */
  public AuthOutcome authenticate(String authorization) {
    if (!settings.enabled()) {
      return new AuthOutcome.Authenticated(Principal.anonymous());
    }
    if (authorization == null || authorization.isBlank()) {
      return rejected(AuthFailure.MISSING, "no Authorization header");
    }
    if (authorization.length() > MAX_HEADER_CHARS) {
      return rejected(
          AuthFailure.MALFORMED, "Authorization longer than " + MAX_HEADER_CHARS + " characters");
    }
    String value = authorization.strip();
    int space = value.indexOf(' ');
    if (space < 0) {
      // not shown: a bare credential would be a secret
      return rejected(
          AuthFailure.MALFORMED, "Authorization not in the form <scheme> <credentials>");
    }
    String scheme = value.substring(0, space);
    String credentials = value.substring(space + 1).strip();
    if (scheme.equalsIgnoreCase(ApiKeyFormat.SCHEME)) {
      return apiKeys
          .map(store -> store.authenticate(credentials))
          .orElseGet(
              () ->
                  rejected(
                      AuthFailure.METHOD_NOT_CONFIGURED,
                      "API key presented, but no credentials file is set ("
                          + settings.key(AuthSettings.KEY_API_KEYS_FILE)
                          + ")"));
    }
    if (scheme.equalsIgnoreCase(BEARER)) {
      return tokens
          .map(verifier -> verifier.verify(credentials))
          .orElseGet(
              () ->
                  rejected(
                      AuthFailure.METHOD_NOT_CONFIGURED,
                      "bearer token presented, but no JWKS is set ("
                          + settings.key(AuthSettings.KEY_JWKS_FILE)
                          + " or "
                          + settings.key(AuthSettings.KEY_JWKS_URI)
                          + ")"));
    }
    return rejected(
        AuthFailure.UNSUPPORTED_SCHEME,
        "scheme "
            + (SHOWABLE_SCHEME.matcher(scheme).matches() ? "'" + scheme + "'" : "(not shown)")
            + " is not ApiKey or Bearer");
  }

  /** Who presents {@code authorization}; empty when the request has none. */
  public AuthOutcome authenticate(Optional<String> authorization) {
    return authenticate(authorization.orElse(null));
  }

  /** Whether requests must authenticate. */
  public boolean enabled() {
    return settings.enabled();
  }

  private static AuthOutcome rejected(AuthFailure failure, String reason) {
    return new AuthOutcome.Unauthenticated(failure, reason);
  }

  @Override
  public String toString() {
    if (!settings.enabled()) {
      return "Authenticator{off}";
    }
    return "Authenticator{"
        + apiKeys.map(Object::toString).orElse("no API keys")
        + ", "
        + tokens.map(Object::toString).orElse("no bearer tokens")
        + "}";
  }
}
