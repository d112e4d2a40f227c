package io.cairn.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cairn.cli.CliContext;
import io.cairn.cli.CliRunner;
import io.cairn.cli.CliRunner.Run;
import io.cairn.cli.output.Printer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The log archive at process level, with a leader killed under load: {@code cluster up --archive
 * --marker-interval 1s} (three broker processes, replication 3), a base backup, then transfers
 * while the broker leading partition 2 is killed with SIGKILL and started again. After the load
 * (money conserved), a second cluster directory on the same store is restored with {@code cluster
 * restore --to-time T} — a marker after the load, reached from the base backup and the archive,
 * whose chain the new leader continued — and {@code backup verify --to-time T} is clean; the
 * restored cluster starts healthy (every partition passed its digest check) and its balances add up
 * to what was deposited.
 */
// mostly waits for processes to start, load and stop: it runs beside the other classes
@Execution(ExecutionMode.CONCURRENT)
class ArchiveUnderKillProcessTest {
  private static final int ACCOUNTS = 30;
  private static final long INITIAL_BALANCE = 1_000;
  private static final String PREFIX = "killed-";

  @TempDir Path root;

  private final List<Long> pids = new ArrayList<>();

  @AfterEach
  void killLeftovers() throws Exception {
    // Only if a test failed half-way: never leave processes behind.
    LeftoverProcesses.kill(root, pids);
  }

  private Run cairn(String... args) {
    return CliRunner.run(Map.of(), root, CliContext::connectClient, args);
  }

  private String[] up(String dir, int[] ports, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--output",
                "json",
                "--gateway",
                "127.0.0.1:" + ports[1],
                "cluster",
                "up",
                "--dir",
                dir,
                "--brokers",
                "3",
                "--partitions",
                "3",
                "--replication-factor",
                "3",
                "--base-port",
                Integer.toString(ports[0]),
                "--http-port",
                Integer.toString(ports[2]),
                "--timeout",
                "120s"));
    args.addAll(List.of(extra));
    return args.toArray(String[]::new);
  }

  @Test
  void shouldRestoreAPointAfterALeaderWasKilledUnderLoad() throws Exception {
    int[] ports = FreePorts.forCluster("127.0.0.1", 3, ProcessHandle.current().pid() * 31 + 7);
    String gateway = "127.0.0.1:" + ports[1];
    Run up = cairn(up("source", ports, "--archive", "--marker-interval", "1s"));
    assertThat(up.exitCode()).as(up.toString()).isZero();

    awaitBalancedLeaders(gateway);
    long base = Instant.now().toEpochMilli() + 5_000; // ahead of the markers' slot ids
    Run backup =
        cairn(
            "--gateway",
            gateway,
            "backup",
            "take",
            Long.toString(base),
            "--wait",
            "--timeout",
            "60s");
    assertThat(backup.exitCode()).as(backup.toString()).isZero();

    CompletableFuture<Run> load =
        CompletableFuture.supplyAsync(
            () ->
                cairn(
                    "--gateway",
                    gateway,
                    "load",
                    "--rate",
                    "100",
                    "--duration",
                    "15s",
                    "--accounts",
                    Integer.toString(ACCOUNTS),
                    "--initial-balance",
                    Long.toString(INITIAL_BALANCE),
                    "--account-prefix",
                    PREFIX,
                    "--settle-timeout",
                    "60s"));
    Thread.sleep(6_000);
    // leaders are balanced: broker-1 leads partition 2
    long killed = Long.parseLong(Files.readString(root.resolve("source/run/broker-1.pid")).trim());
    ProcessHandle.of(killed).orElseThrow().destroyForcibly();
    Thread.sleep(2_000);
    Run restart = cairn(up("source", ports));
    assertThat(restart.exitCode()).as(restart.toString()).isZero();
    awaitBalancedLeaders(gateway);
    Run loaded = load.join();
    assertThat(loaded.exitCode()).as(loaded.toString()).isZero();
    assertThat(loaded.out()).contains("Money conserved");

    Thread.sleep(3_000);
    Instant point = Instant.now();
    Thread.sleep(2_500);
    Run down = cairn("cluster", "down", "--dir", "source", "--timeout", "30s");
    assertThat(down.exitCode()).as(down.toString()).isZero();

    int[] restoredPorts =
        FreePorts.forCluster("127.0.0.1", 3, ProcessHandle.current().pid() * 31 + 11);
    ClusterLayout layout =
        ClusterLayout.of(
            3, 3, 3, "127.0.0.1", restoredPorts[0], restoredPorts[1], restoredPorts[2]);
    ClusterDirectory restored = new ClusterDirectory(root.resolve("restored"));
    restored.writeLayout(layout);
    ClusterConfigFiles.writeMissing(restored, layout, root.resolve("source/backups"));
    String config = restored.configFile("broker-0").toString();

    Run verify = cairn("backup", "verify", "--to-time", point.toString(), "--config", config);
    assertThat(verify.exitCode()).as(verify.toString()).isZero();

    Run restore =
        cairn(
            "--output",
            "json",
            "cluster",
            "restore",
            "--dir",
            "restored",
            "--to-time",
            point.toString());
    assertThat(restore.exitCode()).as(restore.toString()).isZero();
    JsonNode restoredTo = Printer.mapper().readTree(restore.out());
    assertThat(restoredTo.path("backupId").asLong()).as("the base backup").isEqualTo(base);
    assertThat(restoredTo.path("restorePoint").asLong())
        .as("a marker after the load, past the kill")
        .isGreaterThan(base);
    Run restoredUp =
        cairn(
            "--output",
            "json",
            "--gateway",
            "127.0.0.1:" + restoredPorts[1],
            "cluster",
            "up",
            "--dir",
            "restored",
            "--timeout",
            "120s");
    assertThat(restoredUp.exitCode()).as(restoredUp.toString()).isZero();
    JsonNode started = Printer.mapper().readTree(restoredUp.out());
    assertThat(started.path("healthy").asBoolean()).isTrue();

    assertThat(sum("127.0.0.1:" + restoredPorts[1]))
        .as("money at the restored point")
        .isEqualTo(ACCOUNTS * INITIAL_BALANCE);
    Run downRestored = cairn("cluster", "down", "--dir", "restored", "--timeout", "30s");
    assertThat(downRestored.exitCode()).as(downRestored.toString()).isZero();

    // the same point through the gateway's API, on processes started empty in restore mode
    int[] apiPorts = FreePorts.forCluster("127.0.0.1", 3, ProcessHandle.current().pid() * 31 + 13);
    ClusterLayout apiLayout =
        ClusterLayout.of(3, 3, 3, "127.0.0.1", apiPorts[0], apiPorts[1], apiPorts[2]);
    ClusterDirectory api = new ClusterDirectory(root.resolve("api"));
    Files.createDirectories(api.root());
    Files.writeString(api.restoreModeFlagFile(), "");
    api.writeLayout(apiLayout);
    ClusterConfigFiles.writeMissing(api, apiLayout, root.resolve("source/backups"));
    String apiGateway = "127.0.0.1:" + apiPorts[1];
    Run apiUp =
        cairn(
            "--gateway",
            apiGateway,
            "cluster",
            "up",
            "--dir",
            "api",
            "--restore-mode",
            "--timeout",
            "120s");
    assertThat(apiUp.exitCode()).as(apiUp.toString()).isZero();
    assertThat(apiUp.err()).contains("every broker waits for a restore");
    Run apiRestore =
        cairn(
            "--gateway",
            apiGateway,
            "backup",
            "restore",
            "--to-time",
            point.toString(),
            "--wait",
            "--timeout",
            "120s",
            "--poll-interval",
            "500ms");
    assertThat(apiRestore.exitCode()).as(apiRestore.toString()).isZero();
    assertThat(apiRestore.out()).contains("Restore COMPLETED");
    assertThat(sum(apiGateway))
        .as("money at the point restored through the API")
        .isEqualTo(ACCOUNTS * INITIAL_BALANCE);
    Run downApi = cairn("cluster", "down", "--dir", "api", "--timeout", "30s");
    assertThat(downApi.exitCode()).as(downApi.toString()).isZero();
  }

  private long sum(String gateway) throws Exception {
    long total = 0;
    for (int i = 0; i < ACCOUNTS; i++) {
      Run get = cairn("--output", "json", "--gateway", gateway, "account", "get", PREFIX + i);
      assertThat(get.exitCode()).as(get.toString()).isZero();
      total += Printer.mapper().readTree(get.out()).path("balance").asLong();
    }
    return total;
  }

  /**
   * Waits until broker i leads partition i + 1 (leader balancing moves leaderships shortly after a
   * start; a backup taken meanwhile may fail with LEADER_CHANGED).
   */
  private void awaitBalancedLeaders(String gateway) throws Exception {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (true) {
      Run topology = cairn("--output", "json", "--gateway", gateway, "topology");
      if (topology.exitCode() == 0) {
        JsonNode partitions = Printer.mapper().readTree(topology.out()).path("partitions");
        boolean balanced = partitions.size() == 3;
        for (JsonNode partition : partitions) {
          balanced &=
              partition.path("leaderNodeId").asInt() == partition.path("partitionId").asInt() - 1;
        }
        if (balanced) {
          return;
        }
      }
      assertThat(System.nanoTime() - deadline).as("leaders balanced within 60 s").isNegative();
      Thread.sleep(500);
    }
  }
}
