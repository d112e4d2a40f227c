package io.cairn.cli.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cairn.broker.BrokerTestCluster;
import io.cairn.broker.config.BrokerConfigReader;
import io.cairn.cli.Balances;
import io.cairn.cli.CliContext;
import io.cairn.cli.CliRunner;
import io.cairn.cli.CliRunner.Run;
import io.cairn.cli.ExitCode;
import io.cairn.cli.cluster.ClusterConfigFiles;
import io.cairn.cli.cluster.ClusterDirectory;
import io.cairn.cli.cluster.ClusterLayout;
import io.cairn.cli.cluster.FreePorts;
import io.cairn.cli.output.Printer;
import io.cairn.client.CairnClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code backup verify}, {@code cluster restore} and {@code restore} against a backup that real
 * brokers took: 2 brokers, 3 partitions, replication factor 1 (so partitions live on different
 * nodes and transfers cross partitions). The restored cluster is started and must hold the balances
 * of the backup's cut, not the transfer made after it; then a flipped byte in a stored segment must
 * fail both verify and restore, naming the file, with nothing left behind.
 */
class RestoreCommandsAgainstBrokersTest {
  private static final int BROKERS = 2;
  private static final int PARTITIONS = 3;

  @TempDir Path root;

  private Run cairn(String... args) {
    return CliRunner.run(Map.of(), root, CliContext::connectClient, args);
  }

  private static JsonNode json(Run run) {
    try {
      return Printer.mapper().readTree(run.out());
    } catch (IOException e) {
      throw new UncheckedIOException("stdout is not one JSON document:\n" + run, e);
    }
  }

  /**
   * A stopped local-cluster directory of the same shape whose brokers use {@code backups}, on ports
   * free now. The candidates depend on this process too: a build running this test at the same time
   * must not pick the same ports.
   */
  private ClusterDirectory clusterDirectory(String name, Path backups, long seed) {
    long candidates = ProcessHandle.current().pid() * 1_000_003L + seed;
    int[] ports = FreePorts.forCluster("127.0.0.1", BROKERS, candidates);
    ClusterLayout layout =
        ClusterLayout.of(BROKERS, PARTITIONS, 1, "127.0.0.1", ports[0], ports[1], ports[2]);
    ClusterDirectory dir = new ClusterDirectory(root.resolve(name));
    dir.writeLayout(layout);
    ClusterConfigFiles.writeMissing(dir, layout, backups);
    return dir;
  }

  @Test
  void shouldVerifyAndRestoreTheCutAndRefuseWhatDoesNotFit() throws Exception {
    Path source = root.resolve("source");
    Map<String, Long> atCut = new LinkedHashMap<>();
    try (BrokerTestCluster cluster =
            BrokerTestCluster.builder(source)
                .clusterId("cli-test")
                .brokers(BROKERS)
                .partitions(PARTITIONS)
                .gateway()
                .build()
                .awaitReady();
        CairnClient client = Balances.client(cluster.gatewayAddress())) {
      for (int i = 0; i < 6; i++) {
        client.createAccount("acc-" + i);
        client.deposit("acc-" + i, 1000);
      }
      client.transfer("acc-0", "acc-1", 100);
      client.transfer("acc-2", "acc-3", 250);
      client.transfer("acc-4", "acc-5", 75);
      client.transfer("acc-1", "acc-4", 30);
      atCut.putAll(
          Map.of(
              "acc-0", 900L, "acc-1", 1070L, "acc-2", 750L, "acc-3", 1250L, "acc-4", 955L, "acc-5",
              1075L));
      Balances.await(client, atCut);
      Run take =
          cairn(
              "--gateway",
              cluster.gatewayAddress(),
              "backup",
              "take",
              "1",
              "--wait",
              "--poll-interval",
              "100ms",
              "--timeout",
              "60s");
      assertThat(take.exitCode()).as(take.toString()).isZero();
      // after the cut: must not be in the restored state
      client.transfer("acc-0", "acc-5", 500);
      Balances.await(client, Map.of("acc-0", 400L, "acc-5", 1575L));
    }
    Path backups = source.resolve("backups");
    ClusterDirectory restored = clusterDirectory("restored", backups, 11);
    String config = restored.configFile("broker-0").toString();

    Run verify = cairn("backup", "verify", "1", "--config", config);
    assertThat(verify.exitCode()).as(verify.toString()).isZero();
    assertThat(verify.out()).contains("EXPECTED DIGEST", "ACTUAL DIGEST", "Verdict: CLEAN");
    // per partition: checksums OK, expected digest = actual digest, digest OK, clean
    assertThat(
            verify
                .out()
                .lines()
                .filter(
                    line ->
                        line.matches("\\s+\\d\\s.*\\sOK\\s+([0-9a-f]{16,})\\s+\\1\\s+OK\\s+clean")))
        .hasSize(PARTITIONS);
    assertThat(verify.err()).contains("verify: partition 3 REBUILDING", "verify: partition 3 DONE");

    Run quick =
        cairn("--output", "json", "backup", "verify", "latest", "--quick", "--config", config);
    assertThat(quick.exitCode()).as(quick.toString()).isZero();
    JsonNode quickReport = json(quick);
    assertThat(quickReport.path("clean").asBoolean()).isTrue();
    assertThat(quickReport.path("partitions")).hasSize(PARTITIONS);
    assertThat(quickReport.path("partitions").get(0).path("checksums").asText()).isEqualTo("OK");
    assertThat(quickReport.path("partitions").get(0).path("digest").asText())
        .isEqualTo("NOT_CHECKED");

    assertThat(cairn("backup", "verify", "7", "--config", config).exitCode())
        .isEqualTo(ExitCode.NOT_FOUND);
    Run unknown =
        cairn("cluster", "restore", "--backup-id", "9", "--dir", restored.root().toString());
    assertThat(unknown.exitCode()).as(unknown.toString()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(unknown.err()).contains("NOT_FOUND");
    assertThat(restored.dataDirectory(0)).doesNotExist();

    Run restore =
        cairn(
            "--output",
            "json",
            "cluster",
            "restore",
            "--backup-id",
            "latest",
            "--dir",
            restored.root().toString());
    assertThat(restore.exitCode()).as(restore.toString()).isZero();
    JsonNode result = json(restore);
    assertThat(result.path("backupId").asLong()).isEqualTo(1);
    assertThat(result.path("nodes")).hasSize(BROKERS);
    assertThat(result.path("nodes").get(0).path("partitions").findValuesAsText("partitionId"))
        .containsExactly("1", "3");
    List<JsonNode> events =
        restore
            .err()
            .lines()
            .filter(line -> line.startsWith("{"))
            .map(RestoreCommandsAgainstBrokersTest::parse)
            .toList();
    assertThat(events).anyMatch(e -> e.path("event").asText().equals("plan"));
    assertThat(events)
        .anyMatch(
            e ->
                e.path("event").asText().equals("progress")
                    && e.path("phase").asText().equals("DONE")
                    && e.path("bytesDone").asLong() == e.path("bytesTotal").asLong());

    Run again =
        cairn("cluster", "restore", "--backup-id", "1", "--dir", restored.root().toString());
    assertThat(again.exitCode()).as(again.toString()).isEqualTo(ExitCode.CONFLICT);
    assertThat(again.err()).contains("TARGET_NOT_EMPTY: Expected an empty data directory");

    ClusterDirectory single = clusterDirectory("single", backups, 23);
    Run one =
        cairn(
            "--output",
            "json",
            "restore",
            "--backup-id",
            "1",
            "--config",
            single.configFile("broker-1").toString());
    assertThat(one.exitCode()).as(one.toString()).isZero();
    assertThat(json(one).path("nodes").get(0).path("partitions").findValuesAsText("partitionId"))
        .containsExactly("2");
    assertThat(single.dataDirectory(1).resolve("node.json")).exists();

    try (BrokerTestCluster cluster =
            BrokerTestCluster.builder(restored.root())
                .configs(
                    List.of(
                        BrokerConfigReader.read(restored.configFile("broker-0"), Map.of()),
                        BrokerConfigReader.read(restored.configFile("broker-1"), Map.of())))
                .gateway()
                .build()
                .awaitReady();
        CairnClient client = Balances.client(cluster.gatewayAddress())) {
      Balances.await(client, atCut);
    }

    corruptAndExpectFailures(backups, single);
  }

  /**
   * A backup taken with client-side encryption: {@code backup verify} opens it with the master key
   * from the environment and finds it clean, refuses it without the key (naming the key id), and
   * the stored objects are not the plain files.
   */
  @Test
  void shouldVerifyAnEncryptedBackupWithItsKeyAndRefuseItWithout() throws Exception {
    String keys =
        "cli-1=" + java.util.Base64.getEncoder().encodeToString("k".repeat(32).getBytes());
    Path source = root.resolve("source");
    try (BrokerTestCluster cluster =
            BrokerTestCluster.builder(source)
                .clusterId("cli-test")
                .brokers(BROKERS)
                .partitions(PARTITIONS)
                .setting("backup.encryption.keys", keys)
                .gateway()
                .build()
                .awaitReady();
        CairnClient client = Balances.client(cluster.gatewayAddress())) {
      client.createAccount("sealed");
      client.deposit("sealed", 1234);
      Run take =
          cairn(
              "--gateway",
              cluster.gatewayAddress(),
              "backup",
              "take",
              "1",
              "--wait",
              "--poll-interval",
              "100ms",
              "--timeout",
              "60s");
      assertThat(take.exitCode()).as(take.toString()).isZero();
    }
    Path backups = source.resolve("backups");
    try (Stream<Path> manifests = Files.walk(backups)) {
      assertThat(
              manifests
                  .filter(f -> f.getFileName().toString().equals("manifest.json"))
                  .map(RestoreCommandsAgainstBrokersTest::read)
                  .toList())
          .isNotEmpty()
          .allSatisfy(manifest -> assertThat(manifest).contains("\"keyId\" : \"cli-1\""));
    }
    String config =
        clusterDirectory("verify-encrypted", backups, 17).configFile("broker-0").toString();

    Run withKey =
        CliRunner.run(
            Map.of("CAIRN_BACKUP_ENCRYPTION_KEYS", keys),
            root,
            CliContext::connectClient,
            "backup",
            "verify",
            "1",
            "--config",
            config);
    assertThat(withKey.exitCode()).as(withKey.toString()).isZero();
    assertThat(withKey.out()).contains("Verdict: CLEAN");
    assertThat(withKey.out() + withKey.err()).doesNotContain(keys.substring(6));

    Run withoutKey = cairn("backup", "verify", "1", "--quick", "--config", config);
    assertThat(withoutKey.exitCode()).as(withoutKey.toString()).isNotZero();
    assertThat(withoutKey.out() + withoutKey.err()).contains("'cli-1'");
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A flipped byte in partition 1's stored segment: verify and restore name it; nothing written.
   */
  private void corruptAndExpectFailures(Path backups, ClusterDirectory single) throws IOException {
    Path segment;
    try (Stream<Path> files = Files.walk(backups)) {
      segment =
          files
              .filter(f -> f.getFileName().toString().startsWith("raft-partition-1-"))
              .findFirst()
              .orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(segment);
    bytes[bytes.length / 2] ^= 0x10;
    Files.write(segment, bytes);
    String config = single.configFile("broker-0").toString();

    Run verify = cairn("backup", "verify", "1", "--quick", "--config", config);
    assertThat(verify.exitCode()).as(verify.toString()).isEqualTo(ExitCode.FAILED);
    assertThat(verify.out())
        .contains("MISMATCH", segment.getFileName().toString(), "Verdict: NOT CLEAN");

    Run restore = cairn("restore", "--backup-id", "1", "--config", config);
    assertThat(restore.exitCode()).as(restore.toString()).isEqualTo(ExitCode.FAILED);
    assertThat(restore.err()).contains("CORRUPTED", segment.getFileName().toString());
    assertThat(single.dataDirectory(0)).doesNotExist();
  }

  private static JsonNode parse(String line) {
    try {
      return Printer.mapper().readTree(line);
    } catch (IOException e) {
      throw new UncheckedIOException(line, e);
    }
  }
}
