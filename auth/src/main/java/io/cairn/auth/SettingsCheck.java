package io.cairn.auth;

import static io.cairn.auth.AuthSettings.KEY_API_KEYS_FILE;
import static io.cairn.auth.AuthSettings.KEY_API_KEYS_RELOAD_INTERVAL;
import static io.cairn.auth.AuthSettings.KEY_AUDIENCE;
import static io.cairn.auth.AuthSettings.KEY_CLOCK_SKEW;
import static io.cairn.auth.AuthSettings.KEY_ENABLED;
import static io.cairn.auth.AuthSettings.KEY_ISSUER;
import static io.cairn.auth.AuthSettings.KEY_JWKS_FILE;
import static io.cairn.auth.AuthSettings.KEY_JWKS_MIN_REFRESH_INTERVAL;
import static io.cairn.auth.AuthSettings.KEY_JWKS_REFRESH_INTERVAL;
import static io.cairn.auth.AuthSettings.KEY_JWKS_TIMEOUT;
import static io.cairn.auth.AuthSettings.KEY_JWKS_URI;
import static io.cairn.auth.AuthSettings.KEY_NAME_CLAIM;
import static io.cairn.auth.AuthSettings.KEY_ROLES_CLAIM;
import static io.cairn.auth.AuthSettings.KEY_ROLE_MAPPING;
import static io.cairn.auth.AuthSettings.MAX_CLOCK_SKEW;
import static io.cairn.auth.AuthSettings.MAX_JWKS_MIN_REFRESH_INTERVAL;
import static io.cairn.auth.AuthSettings.MAX_JWKS_REFRESH_INTERVAL;
import static io.cairn.auth.AuthSettings.MAX_JWKS_TIMEOUT;
import static io.cairn.auth.AuthSettings.MAX_RELOAD_INTERVAL;
import static io.cairn.auth.AuthSettings.MIN_JWKS_MIN_REFRESH_INTERVAL;
import static io.cairn.auth.AuthSettings.MIN_JWKS_REFRESH_INTERVAL;
import static io.cairn.auth.AuthSettings.MIN_JWKS_TIMEOUT;
import static io.cairn.auth.AuthSettings.MIN_RELOAD_INTERVAL;
import static io.cairn.auth.SettingsProblems.quote;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * The rules of {@link AuthSettings}, each problem naming its key, the value and what is allowed.
 */
final class SettingsCheck {

  private SettingsCheck() {}

  static void check(
      SettingsProblems problems,
      boolean enabled,
      Optional<Path> apiKeysFile,
      Duration reloadInterval,
      Optional<JwtSettings> jwt,
      boolean jwksUriGiven) {
    problems.durationIn(
        KEY_API_KEYS_RELOAD_INTERVAL, reloadInterval, MIN_RELOAD_INTERVAL, MAX_RELOAD_INTERVAL);
    if (enabled && apiKeysFile.isEmpty() && jwt.isEmpty()) {
      problems.add(
          "Expected "
              + problems.key(KEY_API_KEYS_FILE)
              + ", "
              + problems.key(KEY_JWKS_FILE)
              + " or "
              + problems.key(KEY_JWKS_URI)
              + " when "
              + problems.key(KEY_ENABLED)
              + " is true, but none is set: no caller could authenticate");
    }
    jwt.ifPresent(j -> checkJwt(problems, j, jwksUriGiven));
  }

  private static void checkJwt(SettingsProblems problems, JwtSettings jwt, boolean jwksUriGiven) {
    // a URL that did not parse is reported on its own, not as missing
    if (jwt.jwksFile().isPresent() == jwksUriGiven) {
      problems.add(
          "Expected exactly one of "
              + problems.key(KEY_JWKS_FILE)
              + " and "
              + problems.key(KEY_JWKS_URI)
              + " for bearer tokens, but "
              + (jwt.jwksFile().isPresent() ? "both are set" : "neither is set"));
    }
    jwt.jwksUri().ifPresent(uri -> checkJwksUri(problems, uri));
    if (jwt.issuer().isBlank()) {
      problems.add(
          "Expected "
              + problems.key(KEY_ISSUER)
              + " (the 'iss' every token must carry) when bearer tokens are accepted, but it is"
              + " not set");
    }
    if (jwt.audience().isBlank()) {
      problems.add(
          "Expected "
              + problems.key(KEY_AUDIENCE)
              + " (a value every token's 'aud' must hold) when bearer tokens are accepted, but it"
              + " is not set");
    }
    problems.claimName(KEY_ROLES_CLAIM, jwt.rolesClaim());
    problems.claimName(KEY_NAME_CLAIM, jwt.nameClaim());
    if (jwt.roleMapping().isEmpty()) {
      problems.add(
          "Expected at least one entry in "
              + problems.key(KEY_ROLE_MAPPING)
              + ", but it is empty: no token could hold a role");
    }
    jwt.roleMapping().keySet().stream()
        .filter(value -> !SettingsProblems.isClaimName(value))
        .forEach(
            value ->
                problems.add(
                    "Expected each claim value of "
                        + problems.key(KEY_ROLE_MAPPING)
                        + " to be 1 to 256 characters without control characters, but one is "
                        + quote(value)));
    problems.durationIn(KEY_CLOCK_SKEW, jwt.clockSkew(), Duration.ZERO, MAX_CLOCK_SKEW);
    problems.durationIn(
        KEY_JWKS_REFRESH_INTERVAL,
        jwt.jwksRefreshInterval(),
        MIN_JWKS_REFRESH_INTERVAL,
        MAX_JWKS_REFRESH_INTERVAL);
    problems.durationIn(
        KEY_JWKS_MIN_REFRESH_INTERVAL,
        jwt.jwksMinRefreshInterval(),
        MIN_JWKS_MIN_REFRESH_INTERVAL,
        MAX_JWKS_MIN_REFRESH_INTERVAL);
    if (jwt.jwksMinRefreshInterval().compareTo(jwt.jwksRefreshInterval()) > 0) {
      problems.add(
          "Expected "
              + problems.key(KEY_JWKS_MIN_REFRESH_INTERVAL)
              + " ("
              + SettingsProblems.format(jwt.jwksMinRefreshInterval())
              + ") at most "
              + problems.key(KEY_JWKS_REFRESH_INTERVAL)
              + " ("
              + SettingsProblems.format(jwt.jwksRefreshInterval())
              + "), but it is longer");
    }
    problems.durationIn(KEY_JWKS_TIMEOUT, jwt.jwksTimeout(), MIN_JWKS_TIMEOUT, MAX_JWKS_TIMEOUT);
  }

  private static void checkJwksUri(SettingsProblems problems, URI uri) {
    // user info could be a password: refused, and the URL is not shown
    if (uri.getRawUserInfo() != null) {
      problems.add(
          "Expected "
              + problems.key(KEY_JWKS_URI)
              + " without user information (user:password@), but it has some (the URL is not"
              + " shown)");
      return;
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null) {
      problems.add(
          "Expected "
              + problems.key(KEY_JWKS_URI)
              + " to be an https:// (or http://) URL with a host, but was "
              + quote(uri.toString())
              + ". For a file, set "
              + problems.key(KEY_JWKS_FILE));
    }
  }
}
