package io.cairn.cli.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.auth.AuthOutcome;
import io.cairn.cli.CliContext;
import io.cairn.cli.CliRunner;
import io.cairn.cli.CliRunner.Run;
import io.cairn.cli.ExitCode;
import io.cairn.gateway.GatewayHarness;
import io.cairn.gateway.TestCredentials;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line against a real gateway with {@code gateway.security.auth.enabled} (in front of
 * fake brokers): a key from the option, the environment or a file gets through, none or a wrong one
 * exits 6 with a message that says what to do, and no run prints the secret.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SecuredGatewayCommandsTest {
  private Path dir;
  private TestCredentials credentials;
  private GatewayHarness harness;
  private final List<Run> runs = new ArrayList<>();

  @BeforeAll
  void start(@TempDir Path directory) {
    dir = directory;
    credentials = new TestCredentials(dir);
    harness = new GatewayHarness(3, 2, config -> config.auth(credentials.settings())).awaitReady();
  }

  @AfterAll
  void stop() {
    if (harness != null) {
      harness.close();
    }
  }

  @AfterEach
  void noSecretPrinted() {
    for (Run run : runs) {
      for (String secret : credentials.secrets()) {
        assertThat(run.out() + run.err()).as(run.toString()).doesNotContain(secret);
      }
    }
    runs.clear();
  }

  private Run cairn(Map<String, String> env, String... args) {
    List<String> all = new ArrayList<>(List.of("--gateway", gateway()));
    all.addAll(List.of(args));
    Run run = CliRunner.run(env, dir, CliContext::connectClient, all.toArray(String[]::new));
    runs.add(run);
    return run;
  }

  private String gateway() {
    return "127.0.0.1:" + harness.gateway.grpcAddress().getPort();
  }

  private static String key(String authorization) {
    return authorization.substring(authorization.indexOf(' ') + 1);
  }

  @Test
  void shouldRunAdminCommandsWithAnAdminKeyFromTheOption() {
    Run run = cairn(Map.of(), "--api-key", key(credentials.adminAuthorization()), "topology");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).contains("PARTITION");
  }

  @Test
  void shouldTakeTheKeyFromTheEnvironment() {
    Run run =
        cairn(
            Map.of("CAIRN_API_KEY", key(credentials.adminAuthorization())),
            "backup",
            "list",
            "--output",
            "json");

    assertThat(run.exitCode()).as(run.toString()).isZero();
  }

  @Test
  void shouldTakeATokenFromAFile() throws Exception {
    Path file = dir.resolve("token");
    Files.writeString(file, key(credentials.bearer("ops.carol", io.cairn.auth.Role.ADMIN)) + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));

    Run run = cairn(Map.of(), "--credentials-file", file.toString(), "topology");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.err()).doesNotContain("Warning");
  }

  @Test
  void shouldSayCredentialsAreMissingWithoutAny() {
    Run run = cairn(Map.of(), "topology");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.DENIED);
    assertThat(run.err())
        .contains(
            "Error: UNAUTHENTICATED: the gateway requires credentials, and none were given. Pass"
                + " --api-key, --token or --credentials-file, or set $CAIRN_API_KEY or"
                + " $CAIRN_TOKEN. The gateway said: "
                + AuthOutcome.PUBLIC_MESSAGE);
  }

  @Test
  void shouldNameTheSourceOfCredentialsTheGatewayRefused() {
    Run wrong =
        cairn(
            Map.of("CAIRN_API_KEY", key(credentials.wrongSecretAuthorization())),
            "account",
            "create",
            "dave");
    Run client =
        cairn(Map.of(), "--api-key", key(credentials.clientAuthorization()), "backup", "take", "5");

    assertThat(wrong.exitCode()).isEqualTo(ExitCode.DENIED);
    assertThat(wrong.err())
        .contains(
            "Error: UNAUTHENTICATED: the gateway did not accept the credentials given by"
                + " $CAIRN_API_KEY (a mistyped or revoked key, an expired token?)");
    assertThat(client.exitCode()).isEqualTo(ExitCode.DENIED);
    assertThat(client.err())
        .contains(
            "Error: PERMISSION_DENIED: Expected role admin for TakeBackup, but the caller's roles"
                + " are: client. Use credentials with role admin (credentials given by --api-key)");
  }

  @Test
  void shouldLetAClientKeyUseTheLedger() {
    Run run =
        cairn(
            Map.of(),
            "--api-key",
            key(credentials.clientAuthorization()),
            "account",
            "create",
            "erin");

    assertThat(run.exitCode()).as(run.toString()).isZero();
  }
}
