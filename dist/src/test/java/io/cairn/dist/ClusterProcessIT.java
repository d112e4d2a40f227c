package io.cairn.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.cairn.dist.ClusterProcesses.CliResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The distribution as an operator runs it: three broker processes and a gateway started by the
 * scripts in {@code bin/}, driven by {@code bin/cairn}. A backup is taken and completes; then,
 * while {@code cairn load} sends transfers, the leader of partition 1 is killed with {@code kill
 * -9}. No acknowledged transfer may be lost: the load's accounts still hold exactly the money
 * deposited, and each transfer the tool acknowledged during the failover is in its target's
 * balance.
 */
final class ClusterProcessIT {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  private static final long SOURCE_FUNDS = 1_000;

  /** Transfers made one by one during the failover, each to its own account. */
  private static final int TRACKED = 4;

  private static final int LOAD_ACCOUNTS = 12;

  private ClusterProcesses cluster;

  @BeforeEach
  void start() throws Exception {
    Path dist = Path.of(System.getProperty("cairn.dist.directory", "target/cairn"));
    assertThat(dist.resolve("bin/cairn")).as("the assembled distribution").isExecutable();
    Path dir =
        Files.createTempDirectory(
            Path.of(System.getProperty("java.io.tmpdir", "target")), "cluster-process-it-");
    cluster = new ClusterProcesses(dist.toAbsolutePath(), dir);
    for (int nodeId = 0; nodeId < ClusterProcesses.BROKERS; nodeId++) {
      cluster.startBroker(nodeId);
    }
    cluster.startGateway();
    await("a leader for every partition")
        .atMost(START_TIMEOUT)
        .pollInterval(Duration.ofSeconds(1))
        .until(cluster::gatewayReady);
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void shouldLoseNoAcknowledgedTransferWhenALeaderIsKilledDuringLoad() throws Exception {
    // given: accounts made with the tool, and a completed backup
    cluster.cli("account", "create", "source").json();
    assertThat(
            cluster
                .cli("account", "deposit", "source", Long.toString(SOURCE_FUNDS))
                .json()
                .get("amount")
                .asLong())
        .isEqualTo(SOURCE_FUNDS);
    for (int i = 0; i < TRACKED; i++) {
      cluster.cli("account", "create", target(i)).json();
    }
    assertThat(cluster.cli("account", "create", "source").exitCode())
        .as("exit code of creating an existing account")
        .isEqualTo(5);
    JsonNode taken = cluster.cli("backup", "take", "1").json();
    assertThat(taken.get("partitions")).hasSize(3);
    await("backup 1 COMPLETED")
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofSeconds(1))
        .until(
            () -> cluster.cli("backup", "status", "1").json().get("state").asText(),
            state -> state.equals("COMPLETED"));

    // when: a transfer load runs, the leader of partition 1 is killed with kill -9
    Process load =
        cluster.startCli(
            "load",
            "--rate",
            "40",
            "--accounts",
            Integer.toString(LOAD_ACCOUNTS),
            "--duration",
            "20s",
            "--initial-balance",
            "1000",
            "--seed",
            "42",
            "--account-prefix",
            "load-",
            "--settle-timeout",
            "60s");
    await("transfers flowing")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(250))
        .until(() -> cluster.gatewayRequests("Transfer") >= 40);
    // under load an election may be under way (leaderNodeId -1): wait for a known leader
    int[] leader = {-1};
    await("a known leader of partition 1")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(250))
        .until(
            () -> {
              leader[0] =
                  cluster
                      .cli("topology")
                      .json()
                      .get("partitions")
                      .get(0)
                      .get("leaderNodeId")
                      .asInt();
              return leader[0] >= 0;
            });
    int victim = leader[0];
    assertThat(victim).as("leader of partition 1").isBetween(0, ClusterProcesses.BROKERS - 1);
    cluster.killBroker(victim);
    boolean[] acknowledged = new boolean[TRACKED];
    for (int i = 0; i < TRACKED; i++) {
      CliResult transfer =
          cluster.cli("account", "transfer", "source", target(i), Long.toString(amount(i)));
      acknowledged[i] = transfer.exitCode() == 0;
      assertThat(transfer.exitCode())
          .as(
              "'%s': acknowledged (0) or outcome unknown (3); %s",
              transfer.command(), transfer.stderr())
          .isIn(0, 3);
    }

    // then: the load acknowledged transfers and its money is conserved
    assertThat(load.waitFor(150, TimeUnit.SECONDS)).as("load finished").isTrue();
    CliResult loadResult = cluster.result(load, "load");
    JsonNode report = loadResult.json();
    assertThat(report.at("/transfers/acknowledged").asLong()).isPositive();
    assertThat(report.at("/conservation/expected").asLong()).isEqualTo(LOAD_ACCOUNTS * 1_000L);
    assertThat(report.at("/conservation/actual").asLong()).isEqualTo(LOAD_ACCOUNTS * 1_000L);
    assertThat(report.at("/conservation/conserved").asBoolean()).isTrue();

    // and: every tracked transfer the tool acknowledged is in its target, none is applied twice
    assertThat(acknowledged)
        .as("tracked transfers acknowledged during the failover")
        .contains(true);
    long[] balances = new long[TRACKED + 1];
    await("tracked credits settled")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofSeconds(1))
        .until(
            () -> {
              balances[TRACKED] = balance("source");
              long total = balances[TRACKED];
              for (int i = 0; i < TRACKED; i++) {
                balances[i] = balance(target(i));
                total += balances[i];
              }
              return total == SOURCE_FUNDS;
            });
    for (int i = 0; i < TRACKED; i++) {
      if (acknowledged[i]) {
        assertThat(balances[i]).as("balance of %s (acknowledged)", target(i)).isEqualTo(amount(i));
      } else {
        assertThat(balances[i])
            .as("balance of %s (outcome unknown)", target(i))
            .isIn(0L, amount(i));
      }
    }
  }

  private long balance(String account) throws Exception {
    return cluster.cli("account", "get", account).json().get("balance").asLong();
  }

  private static String target(int i) {
    return "target-" + i;
  }

  /** Distinct amounts, so that a credit landing in the wrong account would show. */
  private static long amount(int i) {
    return 10L + i;
  }
}
