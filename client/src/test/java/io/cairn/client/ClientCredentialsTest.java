package io.cairn.client;

import static io.cairn.client.ClientAssertions.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.auth.AuthOutcome;
import io.cairn.auth.Role;
import io.cairn.gateway.GatewayHarness;
import io.cairn.gateway.TestCredentials;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both clients against a real gateway with {@code gateway.security.auth.enabled}: credentials go
 * with every call, refusals come back as UNAUTHENTICATED and PERMISSION_DENIED with the gateway's
 * message, and a credential is never shown.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class ClientCredentialsTest {
  private TestCredentials credentials;
  private GatewayHarness harness;

  @BeforeAll
  void start(@TempDir Path dir) {
    credentials = new TestCredentials(dir);
    harness = new GatewayHarness(3, 2, config -> config.auth(credentials.settings())).awaitReady();
  }

  @AfterAll
  void stop() {
    if (harness != null) {
      harness.close();
    }
  }

  private CairnClient client(UnaryOperator<CairnClient.Builder> settings) {
    return settings
        .apply(
            CairnClient.builder()
                .gateway("127.0.0.1:" + harness.gateway.grpcAddress().getPort())
                .requestTimeout(Duration.ofSeconds(30)))
        .build();
  }

  private ManagementClient http() {
    return ManagementClient.of(
        URI.create("http://127.0.0.1:" + harness.gateway.httpAddress().getPort()),
        Duration.ofSeconds(30));
  }

  private static String key(String authorization) {
    return authorization.substring(authorization.indexOf(' ') + 1);
  }

  @Test
  void shouldBeRefusedWithoutCredentials() {
    try (CairnClient client = client(b -> b)) {
      assertFailure(
          () -> client.createAccount("alice"),
          ErrorCode.UNAUTHENTICATED,
          AuthOutcome.PUBLIC_MESSAGE);
      assertFailure(client::topology, ErrorCode.UNAUTHENTICATED, AuthOutcome.PUBLIC_MESSAGE);
    }
    assertFailure(http()::listBackups, ErrorCode.UNAUTHENTICATED, AuthOutcome.PUBLIC_MESSAGE);
    assertThat(http().health()).isEqualTo("UP");
  }

  @Test
  void shouldCallWithAnAdminKey() {
    String adminKey = key(credentials.adminAuthorization());
    try (CairnClient client = client(b -> b.apiKey(adminKey))) {
      client.createAccount("admin-made");
      assertThat(client.topology().partitions()).hasSize(3);
      assertThat(client.listAllBackups()).isNotNull();
    }
    assertThat(http().withApiKey(adminKey).listBackups()).isNotNull();
  }

  @Test
  void shouldBeForbiddenAdminCallsWithAClientKey() {
    String clientKey = key(credentials.clientAuthorization());
    try (CairnClient client = client(b -> b.apiKey(clientKey))) {
      client.createAccount("client-made");
      assertFailure(
          client::topology,
          ErrorCode.PERMISSION_DENIED,
          "Expected role admin for GetTopology, but the caller's roles are: client");
    }
    assertFailure(
        () -> http().withApiKey(clientKey).takeBackup(3),
        ErrorCode.PERMISSION_DENIED,
        "Expected role admin for TakeBackup");
  }

  @Test
  void shouldCallWithABearerTokenOrARawAuthorizationValue() {
    String token = key(credentials.bearer("alice", Role.ADMIN));
    try (CairnClient client = client(b -> b.bearerToken(token))) {
      assertThat(client.topology().partitions()).hasSize(3);
    }
    try (CairnClient client = client(b -> b.credentials(credentials.adminAuthorization()))) {
      assertThat(client.topology().partitions()).hasSize(3);
    }
    assertThat(http().withBearerToken(token).listBackups()).isNotNull();
    assertThat(http().withCredentials(credentials.clientAuthorization()).health()).isEqualTo("UP");
  }

  @Test
  void shouldTakeAKeyWrittenWithItsScheme() {
    try (CairnClient client = client(b -> b.apiKey(credentials.adminAuthorization()))) {
      assertThat(client.topology().partitions()).hasSize(3);
    }
  }

  @Test
  void shouldNeverShowTheCredential() {
    String adminKey = key(credentials.adminAuthorization());
    try (CairnClient client = client(b -> b.apiKey(adminKey))) {
      assertThat(client.toString())
          .contains("credentials=ApiKey (not shown)")
          .doesNotContain(adminKey);
    }
    try (CairnClient client = client(b -> b)) {
      assertThat(client.toString()).contains("credentials=none");
    }
    assertThat(http().withApiKey(adminKey).toString())
        .contains("credentials=ApiKey (not shown)")
        .doesNotContain(adminKey);
  }

  @Test
  void shouldRefuseBadCredentialSettingsWithoutShowingThem() {
    String adminKey = key(credentials.adminAuthorization());

    assertThatThrownBy(() -> client(b -> b.apiKey(adminKey).bearerToken("x.y.z")))
        .isInstanceOf(CairnClientException.class)
        .hasMessageContaining(
            "Expected at most one of apiKey, bearerToken and credentials, but 2 are set");
    // surrounding white space (a file's last line break) is dropped; a break inside is refused
    try (CairnClient client = client(b -> b.apiKey(adminKey + "\n"))) {
      assertThat(client.topology().partitions()).hasSize(3);
    }
    assertThatThrownBy(() -> client(b -> b.apiKey(adminKey + "\nX-Other: 1")))
        .hasMessageContaining("Expected apiKey to be printable ASCII on one line, but character")
        .hasMessageNotContaining(adminKey);
    assertThatThrownBy(() -> client(b -> b.bearerToken("  ")))
        .hasMessageContaining(
            "Expected bearerToken to be a non-blank key or token, but it is blank");
    assertFailure(
        () -> http().withApiKey("s3cr\u00e9t"),
        ErrorCode.INVALID_ARGUMENT,
        "Expected apiKey to be printable ASCII on one line");
  }
}
