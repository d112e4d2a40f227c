package io.cairn.gateway.config;

import static io.cairn.config.ValueParser.duration;
import static io.cairn.config.ValueParser.integer;
import static io.cairn.config.ValueParser.size;
import static io.cairn.config.ValueParser.text;

import io.cairn.auth.AuthSettings;
import io.cairn.auth.Role;
import io.cairn.config.ConfigCatalogue;
import io.cairn.config.ConfigGroup;
import io.cairn.config.ConfigKey;
import io.cairn.config.ValueParser;
import io.cairn.gateway.GatewayConfig;
import io.cairn.transport.MemberAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Every key of the gateway's configuration file, all under the one section {@code gateway}, with
 * its default (those of {@link GatewayConfig}), its allowed range and its environment variable:
 * {@code CAIRN_} and the path upper-cased with {@code _} for {@code .} ({@code gateway.grpc.port} →
 * {@code CAIRN_GATEWAY_GRPC_PORT}; a broker: {@code CAIRN_GATEWAY_BROKERS_2=host:port}).
 *
 * <pre>
 * gateway:
 *   nodeId: 1000
 *   brokers: {0: 127.0.0.1:26502, 1: 127.0.0.1:26512}   # or a list in node id order
 *   grpc: {host: 127.0.0.1, port: 26500, maxMessageSize: 64KB}
 *   http: {host: 127.0.0.1, port: 9600, maxBodySize: 16KB}
 *   transport: {host: 127.0.0.1, port: 0}
 *   requestTimeout: 15s
 *   topologyRefreshInterval: 1s
 *   retry: {backoffMin: 50ms, backoffMax: 1s, maxRetries: 10}
 *   maxPendingRequests: 10000
 *   security:
 *     allowInsecure: false
 *     tls: {enabled: false, certificateFile: ..., privateKeyFile: ..., trustedCaFile: ...}
 *     auth:
 *       enabled: false
 *       apiKeysFile: /etc/cairn/api-keys
 *       apiKeysReloadInterval: 10s
 *       jwt: {jwksUri: ..., issuer: ..., audience: ..., roleMapping: {cairn-admin: admin}}
 * </pre>
 *
 * <p>The authentication keys are {@link AuthSettings}' under {@code gateway.}, with its ranges.
 */
public final class GatewayConfigKeys {
  private static final List<ConfigKey<?>> KEYS = new ArrayList<>();
  private static final Pattern HOST = Pattern.compile("[^\\s]{1,253}");
  private static final String HOST_RULE = "a host name or IP address";
  private static final Pattern CLAIM = Pattern.compile("[^\\p{Cntrl}]{1,256}");
  private static final String CLAIM_RULE = "1 to 256 characters without control characters";

  /** Where the authentication keys of {@link AuthSettings} live in the gateway's file. */
  private static final String AUTH = "gateway.";

  /** The one section; environment variables {@code CAIRN_GATEWAY_...} are checked strictly. */
  public static final String SECTION = "gateway";

  /** The map of brokers: {@code gateway.brokers.<nodeId>: host:port}. */
  public static final String BROKERS = "gateway.brokers";

  /** The brokers group: node ids in [0, 1023] to {@code host:port}. */
  public static final ConfigGroup BROKERS_GROUP =
      ConfigGroup.values(
          BROKERS,
          integer(0, 1023),
          "every broker, node id to the host:port of its transport (or a list in node id order)");

  /** A broker's address: {@code host:port} with a port in [1, 65535]. */
  static final ValueParser<MemberAddress> BROKER_ADDRESS =
      ValueParser.hostAndPort().map(address -> new MemberAddress(address.host(), address.port()));

  public static final ConfigKey<Integer> NODE_ID =
      key(
          "gateway.nodeId",
          GatewayConfig.DEFAULT_NODE_ID,
          integer(0, 65_535),
          "the gateway's id on the transport; distinct from every broker's");
  public static final ConfigKey<String> GRPC_HOST =
      key(
          "gateway.grpc.host",
          GatewayConfig.DEFAULT_HOST,
          text(HOST, HOST_RULE),
          "gRPC bind address");
  public static final ConfigKey<Integer> GRPC_PORT =
      key(
          "gateway.grpc.port",
          GatewayConfig.DEFAULT_GRPC_PORT,
          integer(0, 65_535),
          "gRPC port; 0 = ephemeral");
  public static final ConfigKey<Long> GRPC_MAX_MESSAGE_SIZE =
      key(
          "gateway.grpc.maxMessageSize",
          "64KB",
          size(1024, 16L * 1024 * 1024, false),
          "largest inbound gRPC message");
  public static final ConfigKey<String> HTTP_HOST =
      key(
          "gateway.http.host",
          GatewayConfig.DEFAULT_HOST,
          text(HOST, HOST_RULE),
          "management HTTP bind address");
  public static final ConfigKey<Integer> HTTP_PORT =
      key(
          "gateway.http.port",
          GatewayConfig.DEFAULT_HTTP_PORT,
          integer(0, 65_535),
          "management HTTP port; 0 = ephemeral");
  public static final ConfigKey<Long> HTTP_MAX_BODY_SIZE =
      key(
          "gateway.http.maxBodySize",
          "16KB",
          size(256, 1024 * 1024, false),
          "largest management HTTP request body");
  public static final ConfigKey<String> TRANSPORT_HOST =
      key(
          "gateway.transport.host",
          GatewayConfig.DEFAULT_HOST,
          text(HOST, HOST_RULE),
          "bind address of the gateway's own transport endpoint");
  public static final ConfigKey<Integer> TRANSPORT_PORT =
      key(
          "gateway.transport.port",
          0,
          integer(0, 65_535),
          "port of the gateway's own transport endpoint; 0 = ephemeral (it only sends)");
  public static final ConfigKey<Duration> REQUEST_TIMEOUT =
      key(
          "gateway.requestTimeout",
          "15s",
          duration(Duration.ofMillis(100), Duration.ofMinutes(10)),
          "the longest a request waits, also when the client's deadline is later");
  public static final ConfigKey<Duration> TOPOLOGY_REFRESH_INTERVAL =
      key(
          "gateway.topologyRefreshInterval",
          "1s",
          duration(Duration.ofMillis(10), Duration.ofMinutes(1)),
          "how often every broker is asked for its partitions");
  public static final ConfigKey<Duration> RETRY_BACKOFF_MIN =
      key(
          "gateway.retry.backoffMin",
          "50ms",
          duration(Duration.ofMillis(1), Duration.ofMinutes(1)),
          "first delay before a request is sent again");
  public static final ConfigKey<Duration> RETRY_BACKOFF_MAX =
      key(
          "gateway.retry.backoffMax",
          "1s",
          duration(Duration.ofMillis(1), Duration.ofMinutes(1)),
          "longest delay before a request is sent again; at least backoffMin");
  public static final ConfigKey<Integer> RETRY_MAX_RETRIES =
      key(
          "gateway.retry.maxRetries",
          GatewayConfig.DEFAULT_MAX_RETRIES,
          integer(0, 100),
          "retries after the first attempt");
  public static final ConfigKey<Integer> MAX_PENDING_REQUESTS =
      key(
          "gateway.maxPendingRequests",
          GatewayConfig.DEFAULT_MAX_PENDING_REQUESTS,
          integer(1, 1_000_000),
          "queued work before RESOURCE_EXHAUSTED");
  public static final ConfigKey<Boolean> SECURITY_ALLOW_INSECURE =
      key(
          "gateway.security.allowInsecure",
          false,
          ValueParser.bool(),
          "accept gateway.grpc.host, gateway.http.host or gateway.transport.host on a non-loopback"
              + " address although their connections are neither encrypted nor authenticated"
              + " (then every start warns); false: such a configuration is refused");
  public static final ConfigKey<Boolean> SECURITY_TLS_ENABLED =
      key(
          "gateway.security.tls.enabled",
          false,
          ValueParser.bool(),
          "TLS on every listener: gRPC and HTTP serve TLS with the gateway's certificate, and its"
              + " connections to the brokers are mutual TLS under gateway.security.tls.trustedCaFile");
  public static final ConfigKey<String> SECURITY_TLS_CERTIFICATE_FILE =
      fileKey(
          "gateway.security.tls.certificateFile",
          "a PEM file: the gateway's certificate, then intermediates",
          "required with TLS; re-read when it changes");
  public static final ConfigKey<String> SECURITY_TLS_PRIVATE_KEY_FILE =
      fileKey(
          "gateway.security.tls.privateKeyFile",
          "a PEM file (PKCS#8, PKCS#1 or SEC1), readable by its owner only",
          "required with TLS; re-read when it changes");
  public static final ConfigKey<String> SECURITY_TLS_TRUSTED_CA_FILE =
      fileKey(
          "gateway.security.tls.trustedCaFile",
          "a PEM file of CA certificates",
          "required with TLS: the cluster's CA, which signs the brokers' certificates");

  public static final ConfigKey<Boolean> SECURITY_AUTH_ENABLED =
      key(
          AUTH + AuthSettings.KEY_ENABLED,
          AuthSettings.DEFAULT_ENABLED,
          ValueParser.bool(),
          "every gRPC call and management request must present credentials (an API key or a"
              + " bearer token), except health and metrics; false: every caller is the anonymous"
              + " admin");
  public static final ConfigKey<String> SECURITY_AUTH_API_KEYS_FILE =
      fileKey(
          AUTH + AuthSettings.KEY_API_KEYS_FILE,
          "a path to a file readable by its owner only",
          "the API keys (ids, roles, SHA-256 of the secrets); without it, API keys are refused");
  public static final ConfigKey<Duration> SECURITY_AUTH_API_KEYS_RELOAD_INTERVAL =
      key(
          AUTH + AuthSettings.KEY_API_KEYS_RELOAD_INTERVAL,
          "10s",
          duration(AuthSettings.MIN_RELOAD_INTERVAL, AuthSettings.MAX_RELOAD_INTERVAL),
          "how often, at most, the API key file is checked for a change");
  public static final ConfigKey<String> SECURITY_AUTH_JWKS_FILE =
      fileKey(
          AUTH + AuthSettings.KEY_JWKS_FILE,
          "a path to a JWKS file",
          "the token issuer's public keys; exactly one of this and jwt.jwksUri accepts bearer"
              + " tokens");
  public static final ConfigKey<String> SECURITY_AUTH_JWKS_URI =
      textKey(
          AUTH + AuthSettings.KEY_JWKS_URI,
          "an https:// (or http://) URL with a host",
          "the token issuer's JWKS URL, fetched and kept");
  public static final ConfigKey<String> SECURITY_AUTH_ISSUER =
      textKey(
          AUTH + AuthSettings.KEY_ISSUER,
          "text",
          "the 'iss' every token must carry; required with a JWKS");
  public static final ConfigKey<String> SECURITY_AUTH_AUDIENCE =
      textKey(
          AUTH + AuthSettings.KEY_AUDIENCE,
          "text",
          "a value every token's 'aud' must hold; required with a JWKS");
  public static final ConfigKey<String> SECURITY_AUTH_ROLES_CLAIM =
      key(
          AUTH + AuthSettings.KEY_ROLES_CLAIM,
          AuthSettings.DEFAULT_ROLES_CLAIM,
          text(CLAIM, CLAIM_RULE),
          "the token claim holding the roles (a path such as realm_access.roles too)");
  public static final ConfigKey<String> SECURITY_AUTH_NAME_CLAIM =
      key(
          AUTH + AuthSettings.KEY_NAME_CLAIM,
          AuthSettings.DEFAULT_NAME_CLAIM,
          text(CLAIM, CLAIM_RULE),
          "the token claim naming the caller in logs and the audit trail");
  public static final ConfigKey<Duration> SECURITY_AUTH_CLOCK_SKEW =
      key(
          AUTH + AuthSettings.KEY_CLOCK_SKEW,
          "60s",
          duration(Duration.ZERO, AuthSettings.MAX_CLOCK_SKEW),
          "how far a token's exp and nbf may be off this machine's clock");
  public static final ConfigKey<Duration> SECURITY_AUTH_JWKS_REFRESH_INTERVAL =
      key(
          AUTH + AuthSettings.KEY_JWKS_REFRESH_INTERVAL,
          "10m",
          duration(AuthSettings.MIN_JWKS_REFRESH_INTERVAL, AuthSettings.MAX_JWKS_REFRESH_INTERVAL),
          "how old the issuer's keys may get before they are read again");
  public static final ConfigKey<Duration> SECURITY_AUTH_JWKS_MIN_REFRESH_INTERVAL =
      key(
          AUTH + AuthSettings.KEY_JWKS_MIN_REFRESH_INTERVAL,
          "30s",
          duration(
              AuthSettings.MIN_JWKS_MIN_REFRESH_INTERVAL,
              AuthSettings.MAX_JWKS_MIN_REFRESH_INTERVAL),
          "the least time between two reads of the keys; at most jwt.jwksRefreshInterval");
  public static final ConfigKey<Duration> SECURITY_AUTH_JWKS_TIMEOUT =
      key(
          AUTH + AuthSettings.KEY_JWKS_TIMEOUT,
          "5s",
          duration(AuthSettings.MIN_JWKS_TIMEOUT, AuthSettings.MAX_JWKS_TIMEOUT),
          "one read of the JWKS URL, all in");

  /** The map of token claim values to roles: {@code gateway.security.auth.jwt.roleMapping.<v>}. */
  public static final String ROLE_MAPPING = AUTH + AuthSettings.KEY_ROLE_MAPPING;

  /** Claim value → role ({@code client} or {@code admin}); replaces the default mapping. */
  public static final ConfigGroup ROLE_MAPPING_GROUP =
      ConfigGroup.values(
          ROLE_MAPPING,
          text(CLAIM, CLAIM_RULE),
          "a token's role claim value to the role it grants, client or admin (default: client to"
              + " client, admin to admin)");

  /** A role of the role mapping: its id. */
  static final ValueParser<Role> ROLE = ValueParser.oneOf(rolesById());

  private static final ConfigCatalogue CATALOGUE =
      new ConfigCatalogue(KEYS, Set.of(SECTION), List.of(BROKERS_GROUP, ROLE_MAPPING_GROUP));

  private GatewayConfigKeys() {}

  /** Every single-valued key, in file order. */
  public static List<ConfigKey<?>> all() {
    return Collections.unmodifiableList(KEYS);
  }

  /** What the file may hold. */
  public static ConfigCatalogue catalogue() {
    return CATALOGUE;
  }

  private static Map<String, Role> rolesById() {
    Map<String, Role> roles = new LinkedHashMap<>();
    for (Role role : Role.values()) {
      roles.put(role.id(), role);
    }
    return roles;
  }

  /** Text without default. */
  /** Non-blank text without default. */
  private static ConfigKey<String> textKey(String path, String allowed, String description) {
    return withoutDefault(
        path, ValueParser.text(Pattern.compile("(?s).*\\S.*"), allowed), description);
  }

  /** A path without default. */
  private static ConfigKey<String> fileKey(String path, String allowed, String description) {
    return withoutDefault(path, ValueParser.path(allowed), description);
  }

  private static ConfigKey<String> withoutDefault(
      String path, ValueParser<String> parser, String description) {
    ConfigKey<String> key = new ConfigKey<>(path, null, parser, false, description);
    KEYS.add(key);
    return key;
  }

  private static <T> ConfigKey<T> key(
      String path, Object defaultValue, ValueParser<T> parser, String description) {
    ConfigKey<T> key =
        new ConfigKey<>(path, String.valueOf(defaultValue), parser, false, description);
    KEYS.add(key);
    return key;
  }
}
