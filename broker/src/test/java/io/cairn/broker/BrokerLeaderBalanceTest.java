package io.cairn.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.protocol.api.BrokerTopology;
import io.cairn.protocol.api.PartitionReplica;
import io.cairn.protocol.api.ReplicaRole;
import io.cairn.raft.RaftMetrics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers, three partitions, replication factor 3 (every broker hosts every partition), 600
 * ms election timeout: with leader balancing each broker leads the partition it is the first member
 * of, after start and again after a restart, as the brokers' topologies report it.
 */
final class BrokerLeaderBalanceTest {

  private static final int BROKERS = 3;
  private static final int PARTITIONS = 3;
  private static final Duration REBALANCE_TIMEOUT = Duration.ofSeconds(30);
  private static final Map<Integer, Integer> PREFERRED = Map.of(1, 0, 2, 1, 3, 2);

  @Test
  void shouldLeadOnePartitionPerBrokerAfterStartAndAgainAfterRestart(@TempDir Path root) {
    try (BrokerTestCluster cluster = cluster(root).build()) {
      // after start: one partition each
      awaitLeaders(cluster, "every broker leading its own partition after start");

      // broker 1 stops: another broker takes partition 2 over
      cluster.stop(1);
      await("a leader of partition 2 among brokers 0 and 2")
          .atMost(REBALANCE_TIMEOUT)
          .pollInterval(Duration.ofMillis(50))
          .until(() -> leaders(cluster).get(2) != null);

      // broker 1 comes back: once it has caught up, it leads partition 2 again
      cluster.restart(1);
      awaitLeaders(cluster, "every broker leading its own partition after broker 1 restarted");
      double completed = 0;
      for (Broker broker : cluster.brokers()) {
        completed +=
            broker
                .meterRegistry()
                .find(RaftMetrics.LEADERSHIP_TRANSFERS)
                .tag("result", "completed")
                .counters()
                .stream()
                .mapToDouble(counter -> counter.count())
                .sum();
      }
      assertThat(completed).as("completed leadership transfers").isGreaterThanOrEqualTo(1);
    }
  }

  @Test
  void shouldNotTransferLeadershipWhenBalancingIsOff(@TempDir Path root) {
    try (BrokerTestCluster cluster = cluster(root).leaderBalancing(false).build()) {
      cluster.awaitReady();

      // no member is preferred: no transfer starts, whoever won an election keeps leading
      Map<Integer, Integer> elected = leaders(cluster);
      await("leaderships unchanged for three election timeouts")
          .during(Duration.ofMillis(1800))
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> leaders(cluster).equals(elected));
      for (Broker broker : cluster.brokers()) {
        assertThat(
                broker.meterRegistry().find(RaftMetrics.LEADERSHIP_TRANSFERS).counters().stream()
                    .mapToDouble(counter -> counter.count())
                    .sum())
            .as("leadership transfers of node %d", broker.nodeId())
            .isZero();
      }
    }
  }

  private static BrokerTestCluster.Builder cluster(Path root) {
    return BrokerTestCluster.builder(root)
        .brokers(BROKERS)
        .partitions(PARTITIONS)
        .replicationFactor(3);
  }

  private static void awaitLeaders(BrokerTestCluster cluster, String what) {
    await(what)
        .atMost(REBALANCE_TIMEOUT)
        .pollInterval(Duration.ofMillis(50))
        .until(() -> leaders(cluster).equals(PREFERRED));
    Map<Integer, Integer> perBroker = new TreeMap<>();
    leaders(cluster).values().forEach(node -> perBroker.merge(node, 1, Integer::sum));
    assertThat(perBroker)
        .containsOnlyKeys(0, 1, 2)
        .allSatisfy((node, led) -> assertThat(led).isEqualTo(1));
  }

  /**
   * Partition to the broker that leads it, from the running brokers' topologies (what {@code
   * cairn-topology} answers); a partition is left out while not exactly one replica is LEADER.
   */
  private static Map<Integer, Integer> leaders(BrokerTestCluster cluster) {
    Map<Integer, Integer> leaderOf = new TreeMap<>();
    Map<Integer, Integer> leaderCount = new TreeMap<>();
    for (Broker broker : cluster.brokers()) {
      BrokerTopology topology = broker.topology();
      for (PartitionReplica replica : topology.replicas()) {
        if (replica.role() == ReplicaRole.LEADER) {
          leaderOf.put(replica.partitionId(), topology.nodeId());
          leaderCount.merge(replica.partitionId(), 1, Integer::sum);
        }
      }
    }
    leaderCount.forEach(
        (partition, count) -> {
          if (count != 1) {
            leaderOf.remove(partition);
          }
        });
    return leaderOf;
  }
}
