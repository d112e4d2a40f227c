package io.cairn.cli.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cairn.auth.AuthSettings;
import io.cairn.cli.CliContext;
import io.cairn.cli.CliRunner;
import io.cairn.cli.CliRunner.Run;
import io.cairn.cli.ExitCode;
import io.cairn.cli.output.Printer;
import io.cairn.gateway.GatewayConfig;
import io.cairn.gateway.GatewayHarness;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cairn security create-api-key}: a key and its file line, which a gateway then accepts. */
class CreateApiKeyTest {
  @TempDir Path dir;

  private Run cairn(String... args) {
    return CliRunner.run(Map.of(), dir, CliContext::connectClient, args);
  }

  @Test
  void shouldPrintTheKeyAndTheLineHoldingOnlyTheSecretsHash() throws Exception {
    Run run =
        cairn(
            "--output", "json", "security", "create-api-key", "--id", "ci-bot", "--role", "admin");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    JsonNode result = Printer.mapper().readTree(run.out());
    String key = result.get("key").asText();
    String secret = key.substring("ci-bot.".length());
    assertThat(key).startsWith("ci-bot.");
    assertThat(secret).matches("[A-Za-z0-9_-]{43}");
    assertThat(result.get("roles").toString()).isEqualTo("[\"admin\"]");
    String hash =
        HexFormat.of()
            .formatHex(
                MessageDigest.getInstance("SHA-256")
                    .digest(secret.getBytes(StandardCharsets.UTF_8)));
    assertThat(result.get("credentialsFileLine").asText()).isEqualTo("ci-bot:admin:sha256:" + hash);
    assertThat(run.err()).doesNotContain(secret);
  }

  @Test
  void shouldPrintANoteForPeopleAndMakeANewSecretEachTime() {
    Run first = cairn("security", "create-api-key", "--id", "shop", "--role", "client");
    Run second = cairn("security", "create-api-key", "--id", "shop", "--role", "client");

    assertThat(first.exitCode()).isZero();
    assertThat(first.out())
        .contains("Give the key to its caller once", "Cairn keeps no copy")
        .contains("it holds only the SHA-256 of the secret")
        .containsPattern("\n  shop\\.[A-Za-z0-9_-]{43}\n")
        .containsPattern("\n  shop:client:sha256:[0-9a-f]{64}\n");
    assertThat(first.out()).isNotEqualTo(second.out());
  }

  @Test
  void shouldRefuseABadIdOrRole() {
    Run badId = cairn("security", "create-api-key", "--id", "no spaces", "--role", "client");
    Run badRole = cairn("security", "create-api-key", "--id", "x", "--role", "root");

    assertThat(badId.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(badId.err()).contains("Expected a key id of", "but was 'no spaces'", "(--id)");
    assertThat(badRole.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(badRole.err())
        .contains("Expected --role to be one of client, admin, but was 'root'");
  }

  @Test
  void shouldMakeAKeyASecuredGatewayAccepts() throws Exception {
    Run made =
        cairn(
            "--output", "json", "security", "create-api-key", "--id", "ops.dan", "--role", "admin");
    JsonNode result = Printer.mapper().readTree(made.out());
    Path file = dir.resolve("api-keys");
    Files.writeString(file, result.get("credentialsFileLine").asText() + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    AuthSettings settings =
        AuthSettings.builder()
            .keyPrefix(GatewayConfig.AUTH_KEY_PREFIX)
            .enabled(true)
            .apiKeysFile(file)
            .build();

    try (GatewayHarness harness =
        new GatewayHarness(3, 2, config -> config.auth(settings)).awaitReady()) {
      String gateway = "127.0.0.1:" + harness.gateway.grpcAddress().getPort();
      Run topology =
          CliRunner.run(
              Map.of("CAIRN_API_KEY", result.get("key").asText()),
              dir,
              CliContext::connectClient,
              "--gateway",
              gateway,
              "topology");
      Run without = cairn("--gateway", gateway, "topology");

      assertThat(topology.exitCode()).as(topology.toString()).isZero();
      assertThat(without.exitCode()).isEqualTo(ExitCode.DENIED);
    }
  }
}
