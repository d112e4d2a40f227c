package io.cairn.cli.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.cli.CliRunner;
import io.cairn.cli.CliRunner.Run;
import io.cairn.cli.ExitCode;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cairn backup check-store}: a configuration without an S3 store is refused, and a store
 * that does not answer fails the first check naming the endpoint, as a table and as JSON, exit 1.
 * The checks themselves run against real servers in backup-s3's {@code S3StoreCheckTest}.
 */
class CheckStoreCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void shouldRefuseAConfigurationWithoutAnS3Store(@TempDir Path dir) throws Exception {
    Path config =
        Files.writeString(
            dir.resolve("broker.yaml"), "backup:\n  store: fs\n  fs:\n    basePath: " + dir + "\n");

    Run run = CliRunner.run("backup", "check-store", "--config", config.toString());

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
    assertThat(run.err())
        .contains("Expected backup.store: s3 in ")
        .contains("but backup.store is fs");
  }

  @Test
  void shouldFailTheFirstCheckNamingTheEndpointWhenNothingAnswers(@TempDir Path dir)
      throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort(); // closed again: connections are refused
    }
    Path config =
        Files.writeString(
            dir.resolve("broker.yaml"),
            "backup:\n  store: s3\n  s3:\n    bucket: cairn-check\n    endpoint: http://127.0.0.1:"
                + port
                + "\n    region: us-east-1\n    accessKeyId: a\n    secretAccessKey: b\n"
                + "    pathStyleAccess: true\n    maxAttempts: 1\n"
                // bounds each connection attempt should one go unanswered instead of refused
                + "    apiCallTimeout: 2s\n");

    Run table = CliRunner.run("backup", "check-store", "--config", config.toString());
    assertThat(table.exitCode()).as(table.toString()).isEqualTo(ExitCode.FAILED);
    assertThat(table.out())
        .contains("CHECK", "RESULT", "write and read back", "FAIL", "endpoint")
        .contains("Verdict: the store cannot hold backups safely");

    Run json =
        CliRunner.run("--output", "json", "backup", "check-store", "--config", config.toString());
    JsonNode doc = JSON.readTree(json.out());
    assertThat(doc.path("safe").asBoolean()).isFalse();
    assertThat(doc.path("checks").get(0).path("result").asText()).isEqualTo("FAIL");
    assertThat(doc.path("checks").get(0).path("fix").asText()).isEqualTo("endpoint");
  }
}
