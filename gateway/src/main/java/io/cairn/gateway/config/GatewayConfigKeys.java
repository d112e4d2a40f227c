package io.cairn.gateway.config;

import static io.cairn.config.ValueParser.duration;
import static io.cairn.config.ValueParser.integer;
import static io.cairn.config.ValueParser.size;
import static io.cairn.config.ValueParser.text;

import io.cairn.config.ConfigCatalogue;
import io.cairn.config.ConfigGroup;
import io.cairn.config.ConfigKey;
import io.cairn.config.ValueParser;
import io.cairn.gateway.GatewayConfig;
import io.cairn.transport.MemberAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
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
 * </pre>
 */
public final class GatewayConfigKeys {
  private static final List<ConfigKey<?>> KEYS = new ArrayList<>();
  private static final Pattern HOST = Pattern.compile("[^\\s]{1,253}");
  private static final String HOST_RULE = "a host name or IP address";

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

  private static final ConfigCatalogue CATALOGUE =
      new ConfigCatalogue(KEYS, Set.of(SECTION), List.of(BROKERS_GROUP));

  private GatewayConfigKeys() {}

  /** Every single-valued key, in file order. */
  public static List<ConfigKey<?>> all() {
    return Collections.unmodifiableList(KEYS);
  }

  /** What the file may hold. */
  public static ConfigCatalogue catalogue() {
    return CATALOGUE;
  }

  /** A path without default. */
  private static ConfigKey<String> fileKey(String path, String allowed, String description) {
    ConfigKey<String> key =
        new ConfigKey<>(
            path,
            null,
            ValueParser.text(Pattern.compile("(?s).*\\S.*"), allowed),
            false,
            description);
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
