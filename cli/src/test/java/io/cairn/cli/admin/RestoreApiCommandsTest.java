package io.cairn.cli.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cairn.broker.BrokerTestCluster;
import io.cairn.cli.Balances;
import io.cairn.cli.CliContext;
import io.cairn.cli.CliRunner;
import io.cairn.cli.CliRunner.Run;
import io.cairn.cli.ExitCode;
import io.cairn.cli.output.Printer;
import io.cairn.client.CairnClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cairn backup restore} and {@code restore-status} against real brokers: a cluster takes
 * backup 1 and then makes a transfer; a second cluster, started empty with {@code data.restoreMode}
 * on the same store, is restored through the gateway with {@code --wait} and holds the balances of
 * the cut. A cluster holding data refuses with exit 5, and a bad selection is a usage error that
 * sends nothing.
 */
class RestoreApiCommandsTest {
  private static final Map<String, Long> AT_CUT = Map.of("a", 900L, "b", 1100L);

  @TempDir Path root;

  private Run cairn(String... args) {
    return CliRunner.run(Map.of(), root, CliContext::connectClient, args);
  }

  @Test
  void shouldRestoreAnEmptyClusterThroughTheGatewayAndRefuseOneHoldingData() throws Exception {
    Path backups = root.resolve("backups");
    try (BrokerTestCluster source =
            BrokerTestCluster.builder(root.resolve("source"))
                .clusterId("cli-restore")
                .brokers(2)
                .partitions(2)
                .backupStore(backups)
                .gateway()
                .build()
                .awaitReady();
        CairnClient client = Balances.client(source.gatewayAddress())) {
      client.createAccount("a");
      client.createAccount("b");
      client.deposit("a", 1000);
      client.deposit("b", 1000);
      client.transfer("a", "b", 100);
      Balances.await(client, AT_CUT);
      Run take = cairn("--gateway", source.gatewayAddress(), "backup", "take", "1", "--wait");
      assertThat(take.exitCode()).as(take.toString()).isZero();
      client.transfer("b", "a", 500);
      Balances.await(client, Map.of("a", 1400L, "b", 600L));

      Run refused =
          cairn("--gateway", source.gatewayAddress(), "backup", "restore", "--backup-id", "1");
      assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCode.CONFLICT);
      assertThat(refused.err()).contains("holds data").contains("data.restoreMode");
    }

    try (BrokerTestCluster restored =
        BrokerTestCluster.builder(root.resolve("restored"))
            .clusterId("cli-restore")
            .brokers(2)
            .partitions(2)
            .backupStore(backups)
            .setting("data.restoreMode", "true")
            .gateway()
            .build()) {
      Run waiting =
          cairn(
              "--gateway",
              restored.gatewayAddress(),
              "--output",
              "json",
              "backup",
              "restore-status");
      assertThat(waiting.exitCode()).as(waiting.toString()).isZero();
      assertThat(json(waiting).path("state").asText()).isEqualTo("WAITING");

      Run usage =
          cairn("--gateway", restored.gatewayAddress(), "backup", "restore", "--to-time", "noon");
      assertThat(usage.exitCode()).as(usage.toString()).isEqualTo(ExitCode.USAGE);
      assertThat(usage.err()).contains("--to-time").contains("noon");

      Run restore =
          cairn(
              "--gateway",
              restored.gatewayAddress(),
              "backup",
              "restore",
              "--backup-id",
              "latest",
              "--wait",
              "--poll-interval",
              "100ms",
              "--timeout",
              "60s");
      assertThat(restore.exitCode()).as(restore.toString()).isZero();
      assertThat(restore.out()).contains("Restore COMPLETED").contains("backup 1");
      assertThat(restore.err()).contains("restore COMPLETED");
      restored.awaitReady();
      try (CairnClient client = Balances.client(restored.gatewayAddress())) {
        Balances.await(client, AT_CUT);
      }
      Run status =
          cairn(
              "--gateway",
              restored.gatewayAddress(),
              "--output",
              "json",
              "backup",
              "restore-status");
      JsonNode done = json(status);
      assertThat(done.path("state").asText()).as(status.toString()).isEqualTo("COMPLETED");
      assertThat(done.path("partitions")).hasSize(2);
    }
  }

  private static JsonNode json(Run run) {
    try {
      return Printer.mapper().readTree(run.out());
    } catch (IOException e) {
      throw new UncheckedIOException("stdout is not one JSON document:\n" + run, e);
    }
  }
}
