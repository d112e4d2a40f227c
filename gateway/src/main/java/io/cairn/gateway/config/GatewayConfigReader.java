package io.cairn.gateway.config;

import static io.cairn.gateway.config.GatewayConfigKeys.*;

import io.cairn.auth.AuthSettings;
import io.cairn.auth.InvalidAuthSettingsException;
import io.cairn.auth.Role;
import io.cairn.config.ConfigException;
import io.cairn.config.ConfigKey;
import io.cairn.config.ConfigValues;
import io.cairn.config.RawConfig;
import io.cairn.gateway.GatewayConfig;
import io.cairn.tls.TlsFile;
import io.cairn.tls.TlsFiles;
import io.cairn.transport.MemberAddress;
import io.cairn.units.Durations;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads a {@link GatewayConfig} from one YAML file and the environment, the way the broker reads
 * its own (module {@code config}):
 *
 * <ol>
 *   <li>Every key lives under {@code gateway:} ({@link GatewayConfigKeys}); an unknown key, a
 *       duplicate, a list or map where one value belongs, or an empty value is an error naming it
 *       (with the closest known key).
 *   <li>Every key can be overridden by {@code CAIRN_} + its path upper-cased, {@code _} for {@code
 *       .} ({@code CAIRN_GATEWAY_GRPC_PORT}, {@code CAIRN_GATEWAY_BROKERS_0=host:port}). A {@code
 *       CAIRN_GATEWAY_*} variable that names no key is an error with the closest one; {@code
 *       CAIRN_GATEWAY} alone (the command line tool's gateway address) and every other variable are
 *       ignored.
 *   <li>Every value is parsed and range-checked, then the rules across keys (at least one broker,
 *       the node id not a broker's, {@code retry.backoffMin <= retry.backoffMax}, those of {@link
 *       AuthSettings}); all problems are reported together in one {@link ConfigException}.
 * </ol>
 *
 * <p>The environment is a parameter so that tests never touch the process's environment.
 */
public final class GatewayConfigReader {
  /** The command line tool's variable naming a gateway to talk to; not a configuration key. */
  static final String CLIENT_GATEWAY_VARIABLE = "CAIRN_GATEWAY";

  private final String sourceName;
  private final List<String> violations = new ArrayList<>();
  private final RawConfig raw;
  private final ConfigValues values;

  private GatewayConfigReader(String sourceName) {
    this.sourceName = sourceName;
    this.raw = new RawConfig(GatewayConfigKeys.catalogue(), sourceName, violations);
    this.values = new ConfigValues(raw, violations);
  }

  /**
   * Reads {@code file} with {@code env}'s overrides.
   *
   * @throws ConfigException listing every problem (including an unreadable file)
   */
  public static EffectiveGatewayConfig read(Path file, Map<String, String> env) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ConfigException(
          "gateway",
          "config file " + file,
          List.of(
              "Expected a readable configuration file, but reading "
                  + file.toAbsolutePath()
                  + " failed: "
                  + e
                  + ". Check the path given with --config"));
    }
    return parse(text, "config file " + file, env);
  }

  /**
   * Reads the YAML {@code text} with {@code env}'s overrides.
   *
   * @param sourceName names the text in messages, e.g. {@code "config file gateway.yaml"}
   * @throws ConfigException listing every problem
   */
  public static EffectiveGatewayConfig parse(
      String text, String sourceName, Map<String, String> env) {
    GatewayConfigReader reader = new GatewayConfigReader(sourceName);
    reader.raw.readYaml(text);
    Map<String, String> overrides = new HashMap<>(env);
    overrides.remove(CLIENT_GATEWAY_VARIABLE);
    reader.raw.readEnv(overrides);
    return reader.build();
  }

  private EffectiveGatewayConfig build() {
    int nodeId = values.get(NODE_ID);
    SortedMap<Integer, MemberAddress> brokers = brokers();
    GatewayConfig.Builder builder =
        GatewayConfig.builder()
            .nodeId(nodeId)
            .brokers(brokers)
            .grpcHost(values.get(GRPC_HOST))
            .grpcPort(values.get(GRPC_PORT))
            .maxMessageSizeBytes(Math.toIntExact(values.get(GRPC_MAX_MESSAGE_SIZE)))
            .httpHost(values.get(HTTP_HOST))
            .httpPort(values.get(HTTP_PORT))
            .httpMaxBodyBytes(Math.toIntExact(values.get(HTTP_MAX_BODY_SIZE)))
            .transportHost(values.get(TRANSPORT_HOST))
            .transportPort(values.get(TRANSPORT_PORT))
            .requestTimeout(values.get(REQUEST_TIMEOUT))
            .topologyRefreshInterval(values.get(TOPOLOGY_REFRESH_INTERVAL))
            .retryBackoffMin(values.get(RETRY_BACKOFF_MIN))
            .retryBackoffMax(values.get(RETRY_BACKOFF_MAX))
            .maxRetries(values.get(RETRY_MAX_RETRIES))
            .maxPendingRequests(values.get(MAX_PENDING_REQUESTS))
            .allowInsecure(values.get(SECURITY_ALLOW_INSECURE))
            .tls(tls())
            .auth(auth());
    checkAcross(nodeId, brokers);
    if (!violations.isEmpty()) {
      throw new ConfigException("gateway", sourceName, violations);
    }
    try {
      return new EffectiveGatewayConfig(builder.build(), values.settings());
    } catch (IllegalArgumentException e) {
      // every range is checked above; this is a rule GatewayConfig has and the reader lacks
      throw new ConfigException("gateway", sourceName, List.of(e.getMessage()));
    }
  }

  /** The TLS files when {@code gateway.security.tls.enabled}: every one of them is required. */
  private Optional<TlsFiles> tls() {
    List<ConfigKey<String>> keys =
        List.of(
            SECURITY_TLS_CERTIFICATE_FILE,
            SECURITY_TLS_PRIVATE_KEY_FILE,
            SECURITY_TLS_TRUSTED_CA_FILE);
    return values
        .requiredWhen(SECURITY_TLS_ENABLED, keys)
        .map(
            paths ->
                TlsFiles.identityAndTrust(
                    new TlsFile(keys.get(0).path(), Path.of(paths.get(0))),
                    new TlsFile(keys.get(1).path(), Path.of(paths.get(1))),
                    new TlsFile(keys.get(2).path(), Path.of(paths.get(2)))));
  }

  /**
   * The authentication settings under {@code gateway.security.auth}: each value parsed here (with
   * its source), the rules across them ({@link AuthSettings}': a way to authenticate when on, a
   * JWKS with an issuer and an audience, ...) added as violations.
   */
  private AuthSettings auth() {
    AuthSettings.Builder builder =
        AuthSettings.builder()
            .keyPrefix(GatewayConfig.AUTH_KEY_PREFIX)
            .enabled(values.get(SECURITY_AUTH_ENABLED))
            .apiKeysReloadInterval(values.get(SECURITY_AUTH_API_KEYS_RELOAD_INTERVAL))
            .rolesClaim(values.get(SECURITY_AUTH_ROLES_CLAIM))
            .nameClaim(values.get(SECURITY_AUTH_NAME_CLAIM))
            .clockSkew(values.get(SECURITY_AUTH_CLOCK_SKEW))
            .jwksRefreshInterval(values.get(SECURITY_AUTH_JWKS_REFRESH_INTERVAL))
            .jwksMinRefreshInterval(values.get(SECURITY_AUTH_JWKS_MIN_REFRESH_INTERVAL))
            .jwksTimeout(values.get(SECURITY_AUTH_JWKS_TIMEOUT));
    path(SECURITY_AUTH_API_KEYS_FILE).ifPresent(builder::apiKeysFile);
    path(SECURITY_AUTH_JWKS_FILE).ifPresent(builder::jwksFile);
    Optional.ofNullable(values.get(SECURITY_AUTH_JWKS_URI)).ifPresent(builder::jwksUri);
    Optional.ofNullable(values.get(SECURITY_AUTH_ISSUER)).ifPresent(builder::issuer);
    Optional.ofNullable(values.get(SECURITY_AUTH_AUDIENCE)).ifPresent(builder::audience);
    Map<String, RawConfig.Raw> mapping = raw.groupValues(ROLE_MAPPING);
    if (!mapping.isEmpty()) {
      Map<String, String> roles = new LinkedHashMap<>();
      mapping.forEach(
          (claimValue, value) -> {
            Role role = values.parse(ROLE_MAPPING + "." + claimValue, ROLE, value, false);
            if (role != null) {
              roles.put(claimValue, role.id());
            }
          });
      builder.roleMapping(roles);
    }
    try {
      return builder.build();
    } catch (InvalidAuthSettingsException e) {
      e.problems().forEach(values::violation);
      return AuthSettings.builder().keyPrefix(GatewayConfig.AUTH_KEY_PREFIX).build();
    }
  }

  private Optional<Path> path(ConfigKey<String> key) {
    String value = values.get(key);
    if (value == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Path.of(value));
    } catch (InvalidPathException e) {
      values.violation(
          "Expected "
              + key.path()
              + " to be a path, but it is not one ("
              + e.getReason()
              + "; "
              + values.sourceOf(key)
              + ")");
      return Optional.empty();
    }
  }

  private SortedMap<Integer, MemberAddress> brokers() {
    SortedMap<Integer, MemberAddress> brokers = new TreeMap<>();
    raw.groupValues(BROKERS)
        .forEach(
            (id, value) -> {
              MemberAddress address =
                  values.parse(BROKERS + "." + id, BROKER_ADDRESS, value, false);
              if (address == null) {
                values.markFailed(BROKERS);
              } else {
                brokers.put(Integer.parseInt(id), address);
              }
            });
    return brokers;
  }

  private void checkAcross(int nodeId, SortedMap<Integer, MemberAddress> brokers) {
    if (brokers.isEmpty() && !values.isFailed(BROKERS)) {
      values.violation(
          "Expected "
              + BROKERS
              + " to list at least one broker (node id: host:port"
              + " of its transport), but it is empty ("
              + sourceName
              + "; environment variables "
              + ConfigKey.envName(BROKERS)
              + "_<nodeId>)");
    }
    if (values.allValid(NODE_ID) && brokers.containsKey(nodeId)) {
      values.violation(
          "Expected "
              + NODE_ID.path()
              + " to differ from every broker's node id "
              + brokers.keySet()
              + ", but was "
              + nodeId
              + " ("
              + values.sourceOf(NODE_ID)
              + ")");
    }
    if (values.allValid(RETRY_BACKOFF_MIN, RETRY_BACKOFF_MAX)) {
      Duration min = values.get(RETRY_BACKOFF_MIN);
      Duration max = values.get(RETRY_BACKOFF_MAX);
      if (min.compareTo(max) > 0) {
        values.violation(
            "Expected "
                + RETRY_BACKOFF_MIN.path()
                + " to be at most "
                + RETRY_BACKOFF_MAX.path()
                + " ("
                + Durations.formatExact(max)
                + "), but was "
                + Durations.formatExact(min));
      }
    }
  }
}
