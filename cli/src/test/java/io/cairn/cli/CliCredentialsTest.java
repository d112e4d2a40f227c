package io.cairn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.cli.CliRunner.Run;
import io.cairn.client.CairnClientException;
import io.cairn.client.ErrorCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the command line takes its credentials from, without a gateway: the connection every
 * command opens carries them, conflicting or unusable settings are usage errors, nothing shows
 * them.
 */
class CliCredentialsTest {
  private static final String KEY = "ops.alice.s3cretS3cretS3cretS3cretS3cretS3cretS3c";
  private static final String JWT = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl";

  @TempDir Path dir;

  private final List<CliContext.Connection> connections = new ArrayList<>();

  private Run cairn(Map<String, String> env, String... args) {
    return CliRunner.run(
        env,
        dir,
        connection -> {
          connections.add(connection);
          throw new CairnClientException(ErrorCode.UNAVAILABLE, "no gateway in this test");
        },
        args);
  }

  /** The authorization the one connection of {@code args} carried. */
  private Optional<String> presented(Map<String, String> env, String... args) {
    connections.clear();
    Run run = cairn(env, args);
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.UNAVAILABLE);
    assertThat(connections).hasSize(1);
    return connections.get(0).authorization();
  }

  private Path file(String name, String content, String permissions) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, content);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
    return file;
  }

  @Test
  void shouldPresentAKeyOrATokenFromAnOption() {
    assertThat(presented(Map.of(), "--api-key", KEY, "topology")).hasValue("ApiKey " + KEY);
    assertThat(presented(Map.of(), "topology", "--token", JWT)).hasValue("Bearer " + JWT);
    assertThat(presented(Map.of(), "topology")).isEmpty();
  }

  @Test
  void shouldPresentAKeyOrATokenFromTheEnvironmentUnlessAnOptionIsGiven() {
    assertThat(presented(Map.of("CAIRN_API_KEY", KEY), "topology")).hasValue("ApiKey " + KEY);
    assertThat(presented(Map.of("CAIRN_TOKEN", JWT), "topology")).hasValue("Bearer " + JWT);
    assertThat(presented(Map.of("CAIRN_API_KEY", KEY), "--token", JWT, "topology"))
        .hasValue("Bearer " + JWT);
  }

  @Test
  void shouldReadTheCredentialsFileTellingKeysFromTokens() throws Exception {
    file("key", KEY + "\n", "rw-------");
    file("jwt", "\n" + JWT + "\n", "rw-------");
    file("with-scheme", "Bearer " + KEY + "\n", "rw-------");

    assertThat(presented(Map.of(), "--credentials-file", "key", "topology"))
        .hasValue("ApiKey " + KEY);
    assertThat(presented(Map.of(), "--credentials-file", "jwt", "topology"))
        .hasValue("Bearer " + JWT);
    assertThat(presented(Map.of(), "--credentials-file", "with-scheme", "topology"))
        .hasValue("Bearer " + KEY);
  }

  @Test
  void shouldWarnAboutACredentialsFileOthersMayRead() throws Exception {
    file("open", KEY, "rw-r--r--");

    Run run = cairn(Map.of(), "--credentials-file", "open", "topology");

    assertThat(run.err())
        .contains(
            "Warning: credentials file "
                + dir.resolve("open")
                + " is open to others (rw-r--r--): whoever reads it can call the gateway as you."
                + " chmod 600 it")
        .doesNotContain(KEY);
  }

  @Test
  void shouldRefuseConflictingOrUnusableSettingsWithoutShowingThem() throws Exception {
    file("two-lines", KEY + "\n" + JWT + "\n", "rw-------");
    file("empty", "\n \n", "rw-------");

    assertUsage(
        cairn(Map.of(), "--api-key", KEY, "--token", JWT, "topology"),
        "Expected at most one of --api-key, --token and --credentials-file, but got --api-key and"
            + " --token");
    assertUsage(
        cairn(Map.of("CAIRN_API_KEY", KEY, "CAIRN_TOKEN", JWT), "topology"),
        "Expected at most one of $CAIRN_API_KEY and $CAIRN_TOKEN, but both are set");
    assertUsage(
        cairn(Map.of(), "--credentials-file", "missing", "topology"),
        "Expected --credentials-file to name a readable file, but "
            + dir.resolve("missing")
            + " is none");
    assertUsage(
        cairn(Map.of(), "--credentials-file", "two-lines", "topology"),
        "to hold one line (an API key <keyId>.<secret> or a token, optionally after 'ApiKey ' or"
            + " 'Bearer '), but it has 2 non-blank lines (they are not shown");
    assertUsage(
        cairn(Map.of(), "--credentials-file", "empty", "topology"), "but it has 0 non-blank lines");
    assertUsage(
        cairn(Map.of(), "--api-key", " ", "topology"),
        "Expected --api-key to be a key <keyId>.<secret>, but it is blank");
    assertThat(connections).isEmpty();
  }

  private static void assertUsage(Run run, String message) {
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err()).contains(message).doesNotContain(KEY).doesNotContain(JWT);
  }

  @Test
  void shouldExitWithItsOwnCodeWhenAccessIsRefused() {
    assertThat(ExitCode.of(ErrorCode.UNAUTHENTICATED)).isEqualTo(ExitCode.DENIED);
    assertThat(ExitCode.of(ErrorCode.PERMISSION_DENIED)).isEqualTo(ExitCode.DENIED);
    Run run =
        CliRunner.run(
            Map.of(),
            dir,
            connection -> {
              throw new CairnClientException(ErrorCode.UNAUTHENTICATED, "Expected valid ...");
            },
            "--output",
            "json",
            "topology");

    assertThat(run.exitCode()).isEqualTo(6);
    assertThat(run.out()).contains("\"code\" : \"UNAUTHENTICATED\"", "\"exitCode\" : 6");
  }

  @Test
  void shouldNotShowTheCredentialsOfAConnection() {
    presented(Map.of(), "--api-key", KEY, "topology");

    assertThat(connections.get(0).toString())
        .contains("credentials=(not shown)")
        .doesNotContain(KEY);
  }

  @Test
  void shouldListTheOptionsTheExitCodeAndTheCommandInTheHelp() {
    Run help = cairn(Map.of(), "--help");

    assertThat(help.out())
        .contains("--api-key=keyId.secret", "--token=jwt", "--credentials-file=file")
        .contains("CAIRN_API_KEY", "CAIRN_TOKEN")
        .contains("6  access refused")
        .contains("security");
  }
}
