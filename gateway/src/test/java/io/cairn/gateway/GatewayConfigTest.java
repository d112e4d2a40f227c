package io.cairn.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.auth.AuthSettings;
import io.cairn.tls.TlsFile;
import io.cairn.tls.TlsFiles;
import io.cairn.transport.MemberAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class GatewayConfigTest {
  private static final MemberAddress BROKER = new MemberAddress("127.0.0.1", 26502);

  @Test
  void shouldApplyDefaults() {
    GatewayConfig config = GatewayConfig.builder().broker(0, BROKER).build();

    assertThat(config.nodeId()).isEqualTo(1000);
    assertThat(config.grpcHost()).isEqualTo("127.0.0.1");
    assertThat(config.grpcPort()).isEqualTo(26500);
    assertThat(config.httpHost()).isEqualTo("127.0.0.1");
    assertThat(config.httpPort()).isEqualTo(9600);
    assertThat(config.requestTimeout()).isEqualTo(Duration.ofSeconds(15));
    assertThat(config.topologyRefreshInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(config.maxRetries()).isEqualTo(10);
    assertThat(config.brokers()).containsEntry(0, BROKER);
    assertThat(config.toBuilder().build().toString()).isEqualTo(config.toString());
  }

  @Test
  void shouldListEveryViolationNamingKeyValueAndRange() {
    assertThatThrownBy(
            () ->
                GatewayConfig.builder()
                    .nodeId(0)
                    .broker(0, BROKER)
                    .broker(1, new MemberAddress("127.0.0.1", 0))
                    .grpcPort(70_000)
                    .httpHost(" ")
                    .requestTimeout(Duration.ZERO)
                    .retryBackoffMin(Duration.ofSeconds(2))
                    .maxRetries(101)
                    .httpMaxBodyBytes(10)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            String.join(
                "; ",
                "Expected broker 1 port in [1, 65535], but was 0 (gateway config)",
                "Expected nodeId distinct from every broker's node id, but was 0 (gateway config)",
                "Expected httpHost to be a non-blank host name or IP literal, but was ' ' (gateway"
                    + " config)",
                "Expected grpcPort in [0, 65535], but was 70000 (gateway config)",
                "Expected requestTimeout in [PT0.1S, PT10M], but was PT0S (gateway config)",
                "Expected retryBackoffMin <= retryBackoffMax PT1S, but was PT2S (gateway config)",
                "Expected maxRetries in [0, 100], but was 101 (gateway config)",
                "Expected httpMaxBodyBytes in [256, 1048576], but was 10 (gateway config)"));
  }

  @Test
  void shouldRequireAtLeastOneBroker() {
    assertThatThrownBy(() -> GatewayConfig.builder().build())
        .hasMessage("Expected brokers to list at least one broker, but was none (gateway config)");
  }

  @Test
  void shouldLeaveAuthenticationOffAndAcceptExposedListenersWithTlsAndAuthentication() {
    GatewayConfig plain = GatewayConfig.builder().broker(0, BROKER).build();
    AuthSettings auth =
        AuthSettings.builder()
            .keyPrefix(GatewayConfig.AUTH_KEY_PREFIX)
            .enabled(true)
            .apiKeysFile(Path.of("/etc/cairn/api-keys"))
            .build();
    TlsFiles tls =
        TlsFiles.identityAndTrust(
            new TlsFile("gateway.security.tls.certificateFile", Path.of("/c.crt")),
            new TlsFile("gateway.security.tls.privateKeyFile", Path.of("/c.key")),
            new TlsFile("gateway.security.tls.trustedCaFile", Path.of("/ca.crt")));
    GatewayConfig.Builder exposed =
        GatewayConfig.builder().broker(0, BROKER).grpcHost("0.0.0.0").httpHost("0.0.0.0");

    assertThat(plain.auth().enabled()).isFalse();
    assertThat(plain.auth().keyPrefix()).isEqualTo("gateway.");
    GatewayConfig secured = exposed.auth(auth).tls(Optional.of(tls)).build();
    assertThat(secured.exposedListeners().any()).isFalse();
    assertThat(secured.toBuilder().build().auth()).isEqualTo(auth);
    assertThat(secured.toString()).contains("tls=on, auth=on");
    assertThatThrownBy(() -> exposed.tls(Optional.empty()).build())
        .hasMessageContaining("since its connections are not encrypted")
        .hasMessageContaining("Set gateway.security.tls.enabled: true");
  }
}
