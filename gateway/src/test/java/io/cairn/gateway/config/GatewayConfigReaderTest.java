package io.cairn.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.config.ConfigException;
import io.cairn.config.ConfigSetting;
import io.cairn.gateway.GatewayConfig;
import io.cairn.transport.MemberAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class GatewayConfigReaderTest {
  private static final String SOURCE = "config file gateway.yaml";
  private static final String FULL =
      """
      gateway:
        nodeId: 1001
        brokers:
          0: 127.0.0.1:26502
          1: 10.0.0.2:26512
        grpc: {host: 0.0.0.0, port: 26600, maxMessageSize: 128KB}
        http: {host: 0.0.0.0, port: 9700, maxBodySize: 32KB}
        transport: {host: 127.0.0.1, port: 26599}
        requestTimeout: 20s
        topologyRefreshInterval: 250ms
        retry: {backoffMin: 10ms, backoffMax: 2s, maxRetries: 5}
        maxPendingRequests: 500
        security: {allowInsecure: true}
      """;

  @Test
  void shouldRefuseListenersBeyondLoopbackUnlessInsecureIsAllowed() {
    String exposed = FULL.replace("security: {allowInsecure: true}", "security: {}");

    assertThatThrownBy(() -> GatewayConfigReader.parse(exposed, SOURCE, Map.of()))
        .hasMessageContaining(
            "Expected gateway.grpc.host 0.0.0.0, gateway.http.host 0.0.0.0 to be a loopback address"
                + " (127.0.0.1, ::1, localhost), since its connections are neither encrypted nor"
                + " authenticated, but they are not. Set gateway.security.tls.enabled: true and"
                + " gateway.security.auth.enabled: true, bind a loopback address, or set"
                + " gateway.security.allowInsecure: true");
    assertThat(GatewayConfigReader.parse(FULL, SOURCE, Map.of()).config().allowInsecure()).isTrue();
    assertThat(
            GatewayConfigReader.parse(exposed.replace("0.0.0.0", "localhost"), SOURCE, Map.of())
                .config()
                .exposedListeners()
                .any())
        .isFalse();
  }

  @Test
  void shouldReadEveryKey() {
    GatewayConfig config = GatewayConfigReader.parse(FULL, SOURCE, Map.of()).config();

    assertThat(config.nodeId()).isEqualTo(1001);
    assertThat(config.brokers())
        .containsExactly(
            Map.entry(0, new MemberAddress("127.0.0.1", 26502)),
            Map.entry(1, new MemberAddress("10.0.0.2", 26512)));
    assertThat(config.grpcHost()).isEqualTo("0.0.0.0");
    assertThat(config.grpcPort()).isEqualTo(26600);
    assertThat(config.maxMessageSizeBytes()).isEqualTo(128 * 1024);
    assertThat(config.httpHost()).isEqualTo("0.0.0.0");
    assertThat(config.httpPort()).isEqualTo(9700);
    assertThat(config.httpMaxBodyBytes()).isEqualTo(32 * 1024);
    assertThat(config.transportHost()).isEqualTo("127.0.0.1");
    assertThat(config.transportPort()).isEqualTo(26599);
    assertThat(config.requestTimeout()).isEqualTo(Duration.ofSeconds(20));
    assertThat(config.topologyRefreshInterval()).isEqualTo(Duration.ofMillis(250));
    assertThat(config.retryBackoffMin()).isEqualTo(Duration.ofMillis(10));
    assertThat(config.retryBackoffMax()).isEqualTo(Duration.ofSeconds(2));
    assertThat(config.maxRetries()).isEqualTo(5);
    assertThat(config.maxPendingRequests()).isEqualTo(500);
  }

  @Test
  void shouldApplyGatewayConfigDefaultsToKeysNotSet() {
    GatewayConfig config =
        GatewayConfigReader.parse(
                "gateway:\n  brokers: [127.0.0.1:26502, 127.0.0.1:26512]\n", SOURCE, Map.of())
            .config();

    GatewayConfig defaults =
        GatewayConfig.builder()
            .broker(0, new MemberAddress("127.0.0.1", 26502))
            .broker(1, new MemberAddress("127.0.0.1", 26512))
            .build();
    assertThat(config.toString()).isEqualTo(defaults.toString());
  }

  @Test
  void shouldLetEnvironmentVariablesOverrideEveryKeyAndAddBrokers() {
    EffectiveGatewayConfig effective =
        GatewayConfigReader.parse(
            FULL,
            SOURCE,
            Map.of(
                "CAIRN_GATEWAY_GRPC_PORT", "27000",
                "CAIRN_GATEWAY_BROKERS_2", "127.0.0.1:26522",
                "CAIRN_GATEWAY_RETRY_MAXRETRIES", "0",
                "CAIRN_GATEWAY", "127.0.0.1:26500",
                "CAIRN_CLUSTER_NODEID", "7",
                "PATH", "/bin"));

    GatewayConfig config = effective.config();
    assertThat(config.grpcPort()).isEqualTo(27000);
    assertThat(config.maxRetries()).isZero();
    assertThat(config.brokers()).containsEntry(2, new MemberAddress("127.0.0.1", 26522)).hasSize(3);
    assertThat(effective.settings())
        .contains(
            new ConfigSetting(
                "gateway.grpc.port",
                "27000",
                "set by environment variable CAIRN_GATEWAY_GRPC_PORT"),
            new ConfigSetting("gateway.nodeId", "1001", "set in " + SOURCE),
            new ConfigSetting(
                "gateway.brokers.2",
                "127.0.0.1:26522",
                "set by environment variable CAIRN_GATEWAY_BROKERS_2"));
    assertThat(effective.describe())
        .contains("\n  gateway.requestTimeout = 20s (set in " + SOURCE + ")");
  }

  @Test
  void shouldListEveryBadValueWithKeyValueRangeAndVariable() {
    String yaml =
        """
        gateway:
          nodeId: -1
          brokers: {0: 'nohost', 1: 127.0.0.1:26512}
          grpc: {port: 70000}
          requestTimeout: forever
          http: {maxBodySize: 2MB}
        """;

    assertThatThrownBy(
            () ->
                GatewayConfigReader.parse(
                    yaml, SOURCE, Map.of("CAIRN_GATEWAY_RETRY_MAXRETRIES", "many")))
        .isInstanceOf(ConfigException.class)
        .satisfies(
            e ->
                assertThat(((ConfigException) e).violations())
                    .containsExactlyInAnyOrder(
                        "Expected gateway.nodeId to be an integer in [0, 65535], but was -1 (set in "
                            + SOURCE
                            + "; environment variable CAIRN_GATEWAY_NODEID)",
                        "Expected gateway.brokers.0 to be host:port with a port in [1, 65535], but was"
                            + " 'nohost' (set in "
                            + SOURCE
                            + "; environment variable"
                            + " CAIRN_GATEWAY_BROKERS_0)",
                        "Expected gateway.grpc.port to be an integer in [0, 65535], but was 70000 (set in "
                            + SOURCE
                            + "; environment variable CAIRN_GATEWAY_GRPC_PORT)",
                        "Expected gateway.requestTimeout to be a duration in [100ms, 10m], with a unit (ms,"
                            + " s, m, h, d), but was 'forever' (set in "
                            + SOURCE
                            + "; environment"
                            + " variable CAIRN_GATEWAY_REQUESTTIMEOUT)",
                        "Expected gateway.http.maxBodySize to be a size in [256B, 1MB], but was '2MB' (set"
                            + " in "
                            + SOURCE
                            + "; environment variable CAIRN_GATEWAY_HTTP_MAXBODYSIZE)",
                        "Expected gateway.retry.maxRetries to be an integer in [0, 100], but was 'many' (set"
                            + " by environment variable CAIRN_GATEWAY_RETRY_MAXRETRIES; environment variable"
                            + " CAIRN_GATEWAY_RETRY_MAXRETRIES)"))
        .hasMessageStartingWith(
            "Expected a valid gateway configuration, but " + SOURCE + " has 6 problems.");
  }

  @Test
  void shouldRejectUnknownKeysAndVariablesSuggestingTheClosest() {
    String yaml =
        """
        gateway:
          nodeID: 1000
          brokers: {0: 127.0.0.1:26502}
          grpc: {prot: 1}
        """;

    assertThatThrownBy(
            () -> GatewayConfigReader.parse(yaml, SOURCE, Map.of("CAIRN_GATEWAY_HTTP_PROT", "1")))
        .isInstanceOf(ConfigException.class)
        .satisfies(
            e ->
                assertThat(((ConfigException) e).violations())
                    .containsExactlyInAnyOrder(
                        "Expected only known keys, but gateway.nodeID is not one ("
                            + SOURCE
                            + "); did you mean gateway.nodeId?",
                        "Expected only known keys, but gateway.grpc.prot is not one ("
                            + SOURCE
                            + "); did you mean gateway.grpc.port?",
                        "Expected environment variable CAIRN_GATEWAY_HTTP_PROT to name a configuration key,"
                            + " but there is no such key; did you mean CAIRN_GATEWAY_HTTP_PORT"
                            + " (gateway.http.port)?"));
  }

  @Test
  void shouldCheckRulesAcrossKeys() {
    assertThatThrownBy(
            () ->
                GatewayConfigReader.parse(
                    """
            gateway:
              nodeId: 1
              brokers: {1: 127.0.0.1:26502}
              retry: {backoffMin: 2s, backoffMax: 1s}
            """,
                    SOURCE,
                    Map.of()))
        .isInstanceOf(ConfigException.class)
        .satisfies(
            e ->
                assertThat(((ConfigException) e).violations())
                    .containsExactly(
                        "Expected gateway.nodeId to differ from every broker's node id [1], but was 1 (set"
                            + " in "
                            + SOURCE
                            + ")",
                        "Expected gateway.retry.backoffMin to be at most gateway.retry.backoffMax (1s), but"
                            + " was 2s"));
    assertThatThrownBy(() -> GatewayConfigReader.parse("gateway:\n  nodeId: 5\n", SOURCE, Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(
            "Expected gateway.brokers to list at least one broker (node id:"
                + " host:port of its transport), but it is empty ("
                + SOURCE
                + "; environment"
                + " variables CAIRN_GATEWAY_BROKERS_<nodeId>)");
  }

  @Test
  void shouldNameAFileThatCannotBeRead(@TempDir Path dir) {
    Path missing = dir.resolve("missing.yaml");

    assertThatThrownBy(() -> GatewayConfigReader.read(missing, Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(
            "Expected a readable configuration file, but reading "
                + missing.toAbsolutePath()
                + " failed");
  }

  @Test
  void shouldReadTheTlsFilesAndRequireEachWhenTlsIsOn() {
    String tls =
        FULL.replace(
            "security: {allowInsecure: true}",
            "security: {allowInsecure: true, tls: {enabled: true, certificateFile: /c.crt,"
                + " privateKeyFile: /c.key, trustedCaFile: /ca.crt}}");
    assertThat(tls).isNotEqualTo(FULL);
    assertThat(GatewayConfigReader.parse(tls, SOURCE, Map.of()).config().tls().orElseThrow())
        .hasToString(
            "gateway.security.tls.certificateFile = /c.crt, gateway.security.tls.privateKeyFile ="
                + " /c.key, gateway.security.tls.trustedCaFile = /ca.crt");

    assertThatThrownBy(
            () ->
                GatewayConfigReader.parse(
                    FULL, SOURCE, Map.of("CAIRN_GATEWAY_SECURITY_TLS_ENABLED", "true")))
        .hasMessageContaining(
            "Expected gateway.security.tls.certificateFile to be set when"
                + " gateway.security.tls.enabled is true")
        .hasMessageContaining("CAIRN_GATEWAY_SECURITY_TLS_TRUSTEDCAFILE");
  }

  @Test
  void shouldReadAFile(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("gateway.yaml"), FULL);

    EffectiveGatewayConfig effective = GatewayConfigReader.read(file, Map.of());

    assertThat(effective.config().nodeId()).isEqualTo(1001);
    assertThat(effective.settings())
        .hasSize(27)
        // the keys FULL leaves to their defaults: TLS off, authentication off and its settings
        .filteredOn(
            setting ->
                !setting.path().equals("gateway.security.tls.enabled")
                    && !setting.path().startsWith("gateway.security.auth."))
        .extracting(ConfigSetting::source)
        .containsOnly("set in config file " + file);
  }
}
