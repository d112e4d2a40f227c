package io.cairn.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.broker.BrokerTestCluster;
import io.cairn.cli.CliRunner.Run;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every client command against real brokers (2 brokers, 3 partitions, so transfers cross brokers)
 * and a real gateway in this JVM: results, JSON documents and exit codes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CommandsAgainstClusterTest {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private BrokerTestCluster cluster;

  @BeforeAll
  void startCluster(@TempDir Path root) {
    cluster =
        BrokerTestCluster.builder(root)
            .clusterId("cli-test")
            .brokers(2)
            .partitions(3)
            .gateway()
            .build()
            .awaitReady();
  }

  @AfterAll
  void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private Run cairn(String... args) {
    String[] all = new String[args.length + 2];
    all[0] = "--gateway";
    all[1] = cluster.gatewayAddress();
    System.arraycopy(args, 0, all, 2, args.length);
    return CliRunner.run(all);
  }

  private static JsonNode json(Run run) {
    try {
      return JSON.readTree(run.out());
    } catch (IOException e) {
      throw new UncheckedIOException("stdout is not one JSON document:\n" + run, e);
    }
  }

  @Test
  void shouldMoveMoneyBetweenAccountsAndPrintTables() {
    assertThat(cairn("account", "create", "alice").exitCode()).isZero();
    assertThat(cairn("account", "create", "bob").exitCode()).isZero();
    Run deposit = cairn("account", "deposit", "alice", "100");
    assertThat(deposit.exitCode()).as(deposit.toString()).isZero();
    assertThat(deposit.out()).contains("ACCOUNT", "AMOUNT", "alice", "100");

    Run transfer = cairn("account", "transfer", "alice", "bob", "30");
    assertThat(transfer.exitCode()).as(transfer.toString()).isZero();
    assertThat(transfer.out()).contains("TRANSFER", "alice (p", "bob (p");

    Run alice = cairn("account", "get", "alice");
    assertThat(alice.exitCode()).isZero();
    assertThat(alice.out().lines().toList())
        .first()
        .asString()
        .startsWith("ACCOUNT")
        .contains("BALANCE", "PARTITION");
    assertThat(alice.out().lines().skip(1).findFirst().orElseThrow())
        .matches("alice\\s+70\\s+\\d+");
    await("bob credited")
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                json(cairn("--output", "json", "account", "get", "bob")).path("balance").asLong()
                    == 30);
  }

  @Test
  void shouldPrintExactlyOneJsonDocument() {
    cairn("account", "create", "carol");
    cairn("account", "deposit", "carol", "7");
    Run run = cairn("--output", "json", "account", "get", "carol");
    assertThat(run.exitCode()).isZero();
    JsonNode doc = json(run);
    assertThat(doc.path("accountId").asText()).isEqualTo("carol");
    assertThat(doc.path("balance").asLong()).isEqualTo(7);
    assertThat(doc.path("partitionId").asInt()).isBetween(1, 3);
  }

  @Test
  void shouldExitWithTheDocumentedCodes() {
    cairn("account", "create", "dave");
    cairn("account", "create", "erin");
    cairn("account", "deposit", "dave", "5");

    Run missing = cairn("account", "get", "nobody");
    assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(missing.err()).contains("NOT_FOUND");

    Run exists = cairn("account", "create", "dave");
    assertThat(exists.exitCode()).as(exists.toString()).isEqualTo(ExitCode.CONFLICT);

    Run poor = cairn("account", "transfer", "dave", "erin", "6");
    assertThat(poor.exitCode()).as(poor.toString()).isEqualTo(ExitCode.CONFLICT);
    assertThat(poor.err()).contains("FAILED_PRECONDITION");

    Run invalid = cairn("account", "create", "x".repeat(300));
    assertThat(invalid.exitCode()).as(invalid.toString()).isEqualTo(ExitCode.USAGE);

    Run jsonError = cairn("--output", "json", "account", "get", "nobody");
    assertThat(json(jsonError).path("error").path("exitCode").asInt())
        .isEqualTo(ExitCode.NOT_FOUND);
    assertThat(json(jsonError).path("error").path("code").asText()).isEqualTo("NOT_FOUND");
  }

  @Test
  void shouldTakeFollowListAndDeleteBackups() {
    cairn("account", "create", "frank");
    cairn("account", "deposit", "frank", "1");

    Run take = cairn("backup", "take", "1", "--wait", "--poll-interval", "100ms");
    assertThat(take.exitCode()).as(take.toString()).isZero();
    assertThat(take.err()).contains("backup 1 COMPLETED 3/3 completed: p1 COMPLETED");
    assertThat(take.out()).contains("COMPLETED", "3/3 completed", "PARTITION", "DIGEST");

    Run status = cairn("--output", "json", "backup", "status", "1");
    assertThat(status.exitCode()).isZero();
    JsonNode backup = json(status);
    assertThat(backup.path("state").asText()).isEqualTo("COMPLETED");
    assertThat(backup.path("partitions")).hasSize(3);
    assertThat(backup.path("partitions").get(0).path("stateDigest").asText()).isNotEmpty();

    Run again = cairn("backup", "take", "1");
    assertThat(again.exitCode()).as(again.toString()).isEqualTo(ExitCode.CONFLICT);
    assertThat(again.err()).contains("ALREADY_EXISTS");

    Run second = cairn("--output", "json", "backup", "take", "2");
    assertThat(second.exitCode()).as(second.toString()).isZero();
    assertThat(json(second).path("partitions")).hasSize(3);

    await("backup 2 completed")
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                json(cairn("--output", "json", "backup", "status", "2"))
                    .path("state")
                    .asText()
                    .equals("COMPLETED"));
    Run list = cairn("--output", "json", "backup", "list");
    assertThat(list.exitCode()).isZero();
    assertThat(json(list).path("backups").findValuesAsText("backupId")).containsExactly("2", "1");
    assertThat(cairn("backup", "list").out())
        .contains("BACKUP", "STATE")
        .containsPattern("(?m)^\\s*2\\s+COMPLETED");

    assertThat(cairn("backup", "status", "99").exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    Run delete = cairn("backup", "delete", "1");
    assertThat(delete.exitCode()).as(delete.toString()).isZero();
    assertThat(cairn("backup", "status", "1").exitCode()).isEqualTo(ExitCode.NOT_FOUND);
  }

  @Test
  void shouldSayThereAreNoRestorePointsWithoutTheArchive() {
    Run table = cairn("backup", "restore-points");
    assertThat(table.exitCode()).as(table.toString()).isZero();
    assertThat(table.out()).contains("No restore points: the log archive is off");

    Run json = cairn("--output", "json", "backup", "restore-points", "--limit", "5");
    assertThat(json.exitCode()).as(json.toString()).isZero();
    assertThat(json(json)).isEmpty();

    Run bad = cairn("backup", "restore-points", "--limit", "0");
    assertThat(bad.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(bad.err()).contains("--limit").contains("0");
  }

  @Test
  void shouldShowTheTopology() {
    Run table = cairn("topology");
    assertThat(table.exitCode()).as(table.toString()).isZero();
    assertThat(table.out())
        .contains("Cluster cli-test: 3 partitions", "PARTITION", "LEADER", "BROKER");
    assertThat(table.out()).containsPattern("(?m)^\\s*3\\s+\\d\\s+\\d+\\s+HEALTHY$");

    JsonNode json = json(cairn("--output", "json", "topology"));
    assertThat(json.path("partitionCount").asInt()).isEqualTo(3);
    assertThat(json.path("brokers")).hasSize(2);
    assertThat(json.path("partitions").findValuesAsText("leaderNodeId")).doesNotContain("-1");
  }

  @Test
  void shouldRunLoadAndConfirmThatMoneyIsConserved() {
    Run run =
        cairn(
            "--output",
            "json",
            "load",
            "--rate",
            "150",
            "--accounts",
            "12",
            "--duration",
            "3s",
            "--seed",
            "42",
            "--max-in-flight",
            "16");
    assertThat(run.exitCode()).as(run.toString()).isZero();
    JsonNode report = json(run);
    JsonNode transfers = report.path("transfers");
    assertThat(transfers.path("sent").asLong()).isBetween(1L, 450L);
    assertThat(transfers.path("acknowledged").asLong()).isGreaterThan(0);
    assertThat(
            transfers.path("acknowledged").asLong()
                + transfers.path("rejected").asLong()
                + transfers.path("failed").asLong())
        .isEqualTo(transfers.path("sent").asLong());
    JsonNode latency = transfers.path("latency");
    assertThat(latency.path("p50Ms").asDouble()).isPositive();
    assertThat(latency.path("p50Ms").asDouble())
        .isLessThanOrEqualTo(latency.path("p99Ms").asDouble());
    assertThat(latency.path("p99Ms").asDouble())
        .isLessThanOrEqualTo(latency.path("maxMs").asDouble());
    assertThat(transfers.path("serviceLatency").path("count").asLong())
        .isEqualTo(transfers.path("acknowledged").asLong());
    assertThat(report.path("conservation").path("conserved").asBoolean()).isTrue();
    assertThat(report.path("conservation").path("actual").asLong()).isEqualTo(12 * 1_000_000L);
    assertThat(transfers.has("retried") && transfers.has("retries")).isTrue();
    assertThat(transfers.path("retried").asLong())
        .isBetween(0L, transfers.path("retries").asLong());
    assertThat(transfers.path("generatorCpuMsPerAcknowledged").asDouble()).isPositive();
    assertThat(report.path("settings").path("retryMaxAttempts").asInt()).isEqualTo(10);
    assertThat(run.err())
        .containsPattern(
            "load +\\d+\\.\\ds: \\d+ sent, \\d+ acknowledged, \\d+"
                + " rejected, \\d+ failed, \\d+ retried \\(\\d+ retries\\)");
    assertThat(run.err()).contains("load: money conserved");
  }

  @Test
  void shouldMapExportingToAnExitCode() {
    Run run = cairn("--output", "json", "exporting", "pause");
    // Brokers without exporters answer UNAVAILABLE; with them, every broker confirms.
    if (run.exitCode() == ExitCode.OK) {
      assertThat(json(run).path("paused").asBoolean()).isTrue();
      assertThat(json(cairn("--output", "json", "exporting", "resume")).path("paused").asBoolean())
          .isFalse();
    } else {
      assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.UNAVAILABLE);
      assertThat(json(run).path("error").path("code").asText()).isEqualTo("UNAVAILABLE");
    }
  }
}
