package io.cairn.auth;

import static io.cairn.auth.SettingsProblems.quote;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Authentication settings of one process, validated and immutable: whether authentication is on,
 * the API key credentials file and how often it is checked for changes, and how bearer tokens are
 * checked ({@link JwtSettings}).
 *
 * <p>The keys are constants here so that the broker's and the gateway's configuration readers use
 * the same names; the gateway writes them under its own section, which {@link #keyPrefix()} ({@code
 * gateway.}) adds to every message. Every invalid value is reported at once, naming its key, the
 * value and what is allowed ({@link InvalidAuthSettingsException}).
 *
 * @param keyPrefix put before every key in messages: {@code ""} or {@code "gateway."}
 * @param enabled whether requests must authenticate; when false every caller is {@link
 *     Principal#anonymous()}
 * @param apiKeysFile the credentials file of API keys (format in the module's README)
 * @param apiKeysReloadInterval how often, at most, the file is checked for a change
 * @param jwt how bearer tokens are checked; empty: tokens are not accepted
 */
public record AuthSettings(
    String keyPrefix,
    boolean enabled,
    Optional<Path> apiKeysFile,
    Duration apiKeysReloadInterval,
    Optional<JwtSettings> jwt) {

  public static final String KEY_ENABLED = "security.auth.enabled";
  public static final String KEY_API_KEYS_FILE = "security.auth.apiKeysFile";
  public static final String KEY_API_KEYS_RELOAD_INTERVAL = "security.auth.apiKeysReloadInterval";
  public static final String KEY_JWKS_FILE = "security.auth.jwt.jwksFile";
  public static final String KEY_JWKS_URI = "security.auth.jwt.jwksUri";
  public static final String KEY_ISSUER = "security.auth.jwt.issuer";
  public static final String KEY_AUDIENCE = "security.auth.jwt.audience";
  public static final String KEY_ROLES_CLAIM = "security.auth.jwt.rolesClaim";
  public static final String KEY_NAME_CLAIM = "security.auth.jwt.nameClaim";

  /** A map: {@code security.auth.jwt.roleMapping.<claim value>: <role>}. */
  public static final String KEY_ROLE_MAPPING = "security.auth.jwt.roleMapping";

  public static final String KEY_CLOCK_SKEW = "security.auth.jwt.clockSkew";
  public static final String KEY_JWKS_REFRESH_INTERVAL = "security.auth.jwt.jwksRefreshInterval";
  public static final String KEY_JWKS_MIN_REFRESH_INTERVAL =
      "security.auth.jwt.jwksMinRefreshInterval";
  public static final String KEY_JWKS_TIMEOUT = "security.auth.jwt.jwksTimeout";

  public static final boolean DEFAULT_ENABLED = false;
  public static final Duration DEFAULT_API_KEYS_RELOAD_INTERVAL = Duration.ofSeconds(10);
  public static final String DEFAULT_ROLES_CLAIM = "roles";
  public static final String DEFAULT_NAME_CLAIM = "sub";

  /** {@code client} → client, {@code admin} → admin; replaced by a configured mapping. */
  public static final Map<String, Role> DEFAULT_ROLE_MAPPING =
      Map.of(Role.CLIENT.id(), Role.CLIENT, Role.ADMIN.id(), Role.ADMIN);

  public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(60);
  public static final Duration DEFAULT_JWKS_REFRESH_INTERVAL = Duration.ofMinutes(10);
  public static final Duration DEFAULT_JWKS_MIN_REFRESH_INTERVAL = Duration.ofSeconds(30);
  public static final Duration DEFAULT_JWKS_TIMEOUT = Duration.ofSeconds(5);

  // The ranges, public so that a configuration reader's own checks use the same bounds.
  public static final Duration MIN_RELOAD_INTERVAL = Duration.ofSeconds(1);
  public static final Duration MAX_RELOAD_INTERVAL = Duration.ofHours(1);
  public static final Duration MAX_CLOCK_SKEW = Duration.ofMinutes(5);
  public static final Duration MIN_JWKS_REFRESH_INTERVAL = Duration.ofMinutes(1);
  public static final Duration MAX_JWKS_REFRESH_INTERVAL = Duration.ofDays(1);
  public static final Duration MIN_JWKS_MIN_REFRESH_INTERVAL = Duration.ofSeconds(1);
  public static final Duration MAX_JWKS_MIN_REFRESH_INTERVAL = Duration.ofHours(1);
  public static final Duration MIN_JWKS_TIMEOUT = Duration.ofMillis(100);
  public static final Duration MAX_JWKS_TIMEOUT = Duration.ofMinutes(1);

  /**
   * @throws InvalidAuthSettingsException listing every invalid value
   */
  public AuthSettings {
    Objects.requireNonNull(keyPrefix, "keyPrefix");
    Objects.requireNonNull(apiKeysFile, "apiKeysFile");
    Objects.requireNonNull(apiKeysReloadInterval, "apiKeysReloadInterval");
    Objects.requireNonNull(jwt, "jwt");
    SettingsProblems problems = new SettingsProblems(keyPrefix);
    SettingsCheck.check(
        problems,
        enabled,
        apiKeysFile,
        apiKeysReloadInterval,
        jwt,
        jwt.flatMap(JwtSettings::jwksUri).isPresent());
    problems.throwIfAny();
  }

  /** Authentication off: every caller is {@link Principal#anonymous()}. */
  public static AuthSettings disabled() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The key as the operator writes it, with {@link #keyPrefix()}. */
  public String key(String key) {
    return keyPrefix + key;
  }

  /**
   * Builds {@link AuthSettings} from the values a configuration file holds; unset values take the
   * defaults. Bearer tokens are accepted once a JWKS file or URL is set.
   */
  public static final class Builder {
    private String keyPrefix = "";
    private boolean enabled = DEFAULT_ENABLED;
    private Path apiKeysFile;
    private Duration apiKeysReloadInterval = DEFAULT_API_KEYS_RELOAD_INTERVAL;
    private Path jwksFile;
    private String jwksUri;
    private String issuer = "";
    private String audience = "";
    private String rolesClaim = DEFAULT_ROLES_CLAIM;
    private String nameClaim = DEFAULT_NAME_CLAIM;
    private Map<String, String> roleMapping;
    private Duration clockSkew = DEFAULT_CLOCK_SKEW;
    private Duration jwksRefreshInterval = DEFAULT_JWKS_REFRESH_INTERVAL;
    private Duration jwksMinRefreshInterval = DEFAULT_JWKS_MIN_REFRESH_INTERVAL;
    private Duration jwksTimeout = DEFAULT_JWKS_TIMEOUT;

    private Builder() {}

    /** Put before every key in messages, e.g. {@code "gateway."}. */
    public Builder keyPrefix(String keyPrefix) {
      this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix");
      return this;
    }

    public Builder enabled(boolean enabled) {
      this.enabled = enabled;
      return this;
    }

    public Builder apiKeysFile(Path apiKeysFile) {
      this.apiKeysFile = apiKeysFile;
      return this;
    }

    public Builder apiKeysReloadInterval(Duration interval) {
      this.apiKeysReloadInterval = Objects.requireNonNull(interval, KEY_API_KEYS_RELOAD_INTERVAL);
      return this;
    }

    public Builder jwksFile(Path jwksFile) {
      this.jwksFile = jwksFile;
      return this;
    }

    /** The JWKS URL as written in the configuration; checked by {@link #build()}. */
    public Builder jwksUri(String jwksUri) {
      this.jwksUri = jwksUri;
      return this;
    }

    public Builder issuer(String issuer) {
      this.issuer = Objects.requireNonNull(issuer, KEY_ISSUER);
      return this;
    }

    public Builder audience(String audience) {
      this.audience = Objects.requireNonNull(audience, KEY_AUDIENCE);
      return this;
    }

    public Builder rolesClaim(String rolesClaim) {
      this.rolesClaim = Objects.requireNonNull(rolesClaim, KEY_ROLES_CLAIM);
      return this;
    }

    public Builder nameClaim(String nameClaim) {
      this.nameClaim = Objects.requireNonNull(nameClaim, KEY_NAME_CLAIM);
      return this;
    }

    /**
     * Claim value → role id ({@code client}, {@code admin}), replacing {@link
     * #DEFAULT_ROLE_MAPPING}; e.g. {@code cairn-admin: admin}. Role ids are checked by {@link
     * #build()}.
     */
    public Builder roleMapping(Map<String, String> roleMapping) {
      this.roleMapping = new LinkedHashMap<>(roleMapping);
      return this;
    }

    public Builder clockSkew(Duration clockSkew) {
      this.clockSkew = Objects.requireNonNull(clockSkew, KEY_CLOCK_SKEW);
      return this;
    }

    public Builder jwksRefreshInterval(Duration interval) {
      this.jwksRefreshInterval = Objects.requireNonNull(interval, KEY_JWKS_REFRESH_INTERVAL);
      return this;
    }

    public Builder jwksMinRefreshInterval(Duration interval) {
      this.jwksMinRefreshInterval = Objects.requireNonNull(interval, KEY_JWKS_MIN_REFRESH_INTERVAL);
      return this;
    }

    public Builder jwksTimeout(Duration timeout) {
      this.jwksTimeout = Objects.requireNonNull(timeout, KEY_JWKS_TIMEOUT);
      return this;
    }

    /**
     * @throws InvalidAuthSettingsException listing every invalid value, each with its key
     */
    public AuthSettings build() {
      SettingsProblems problems = new SettingsProblems(keyPrefix);
      Optional<URI> uri = parseUri(problems);
      Map<String, Role> mapping = parseRoleMapping(problems);
      boolean jwtWanted =
          jwksFile != null || jwksUri != null || !issuer.isBlank() || !audience.isBlank();
      Optional<JwtSettings> jwt =
          jwtWanted
              ? Optional.of(
                  new JwtSettings(
                      Optional.ofNullable(jwksFile),
                      uri,
                      issuer,
                      audience,
                      rolesClaim,
                      nameClaim,
                      mapping,
                      clockSkew,
                      jwksRefreshInterval,
                      jwksMinRefreshInterval,
                      jwksTimeout))
              : Optional.empty();
      SettingsCheck.check(
          problems,
          enabled,
          Optional.ofNullable(apiKeysFile),
          apiKeysReloadInterval,
          jwt,
          jwksUri != null);
      problems.throwIfAny();
      return new AuthSettings(
          keyPrefix, enabled, Optional.ofNullable(apiKeysFile), apiKeysReloadInterval, jwt);
    }

    private Optional<URI> parseUri(SettingsProblems problems) {
      if (jwksUri == null) {
        return Optional.empty();
      }
      try {
        return Optional.of(new URI(jwksUri.strip()));
      } catch (URISyntaxException e) {
        problems.add(
            "Expected "
                + problems.key(KEY_JWKS_URI)
                + " to be an https:// (or http://) URL, but it is not a URL ("
                + e.getReason()
                + "; the value is not shown: it may hold a password)");
        return Optional.empty();
      }
    }

    private Map<String, Role> parseRoleMapping(SettingsProblems problems) {
      if (roleMapping == null) {
        return DEFAULT_ROLE_MAPPING;
      }
      Map<String, Role> mapping = new LinkedHashMap<>();
      roleMapping.forEach(
          (value, roleId) -> {
            Optional<Role> role = Role.fromId(roleId);
            if (role.isPresent()) {
              mapping.put(value, role.get());
            } else {
              problems.add(
                  "Expected "
                      + problems.key(KEY_ROLE_MAPPING)
                      + "."
                      + value
                      + " to be one of "
                      + Role.ids()
                      + ", but was "
                      + quote(roleId));
            }
          });
      return mapping;
    }
  }
}
