package io.cairn.qa;

import static org.awaitility.Awaitility.await;

import io.cairn.broker.Broker;
import io.cairn.broker.BrokerHealth;
import io.cairn.broker.HostedPartition;
import io.cairn.broker.PartitionDistribution;
import io.cairn.gateway.topology.ClusterTopology;
import io.cairn.gateway.topology.PartitionLeader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The {@link EmbeddedCluster}'s waits: Awaitility polls every 50 ms up to the configured timeout;
 * each condition says what is missing, and a timeout's message carries the last such reason.
 */
final class ClusterWaits {

  private static final Duration POLL_INTERVAL = Duration.ofMillis(50);
  private static final Duration TOPOLOGY_REFRESH_TIMEOUT = Duration.ofSeconds(5);

  private final EmbeddedCluster cluster;
  private final Duration timeout;

  ClusterWaits(EmbeddedCluster cluster, Duration timeout) {
    this.cluster = cluster;
    this.timeout = timeout;
  }

  void awaitHealthy() {
    await("the embedded cluster to be healthy")
        .atMost(timeout)
        .pollDelay(Duration.ZERO)
        .pollInterval(POLL_INTERVAL)
        .untilAsserted(
            () -> {
              List<String> problems = new ArrayList<>(notReady());
              problems.addAll(leaderProblems(allPartitions(), -1));
              problems.addAll(balanceProblems());
              check(problems);
            });
  }

  void awaitLeaders() {
    await("a leader of every partition known to the gateway")
        .atMost(timeout)
        .pollDelay(Duration.ZERO)
        .pollInterval(POLL_INTERVAL)
        .untilAsserted(() -> check(leaderProblems(allPartitions(), -1)));
  }

  int awaitLeader(int partitionId, int formerLeader) {
    int[] leader = {-1};
    await(
            formerLeader < 0
                ? "a leader of partition " + partitionId
                : "a leader of partition " + partitionId + " other than node " + formerLeader)
        .atMost(timeout)
        .pollDelay(Duration.ZERO)
        .pollInterval(POLL_INTERVAL)
        .untilAsserted(
            () -> {
              check(leaderProblems(List.of(partitionId), formerLeader));
              leader[0] = currentTopology().leaderOf(partitionId).orElseThrow();
            });
    return leader[0];
  }

  /** The LEADER with the highest term among the running brokers' replicas. */
  OptionalInt leaderAmongBrokers(int partitionId) {
    int leader = -1;
    long term = -1;
    for (Map.Entry<Integer, Broker> entry : cluster.runningBrokers().entrySet()) {
      Optional<HostedPartition> replica = entry.getValue().partitions().get(partitionId);
      if (replica.isPresent() && replica.get().isLeader() && replica.get().term() > term) {
        leader = entry.getKey();
        term = replica.get().term();
      }
    }
    return leader < 0 ? OptionalInt.empty() : OptionalInt.of(leader);
  }

  /**
   * With leader balancing on and every broker running, the partitions whose leader is not yet their
   * preferred broker. A test that starts while a leadership transfer is still due would see that
   * transfer fail whatever the partition's leader was doing, such as a backup.
   */
  private List<String> balanceProblems() {
    Map<Integer, Broker> running = cluster.runningBrokers();
    if (running.size() < cluster.config().brokers()) {
      return List.of();
    }
    List<String> problems = new ArrayList<>();
    for (Broker broker : running.values()) {
      if (!broker.config().raft().leaderBalancing()) {
        return List.of();
      }
      PartitionDistribution distribution = broker.config().distribution();
      for (int partitionId : allPartitions()) {
        Optional<HostedPartition> replica = broker.partitions().get(partitionId);
        int preferred = distribution.preferredLeader(partitionId);
        if (replica.isPresent() && replica.get().isLeader() && broker.nodeId() != preferred) {
          problems.add(
              "partition "
                  + partitionId
                  + " is led by node "
                  + broker.nodeId()
                  + ", not yet by its preferred node "
                  + preferred
                  + " (leader balancing)");
        }
      }
    }
    return problems;
  }

  private List<Integer> allPartitions() {
    List<Integer> partitions = new ArrayList<>();
    for (int partition = 1; partition <= cluster.config().partitions(); partition++) {
      partitions.add(partition);
    }
    return partitions;
  }

  private List<String> notReady() {
    List<String> problems = new ArrayList<>();
    cluster
        .runningBrokers()
        .forEach(
            (nodeId, broker) -> {
              BrokerHealth health = broker.health();
              if (!health.ready()) {
                problems.add(
                    "broker "
                        + nodeId
                        + " is not ready ("
                        + (health.reason().isEmpty() ? "replicas without a role" : health.reason())
                        + ")");
              }
            });
    return problems;
  }

  /**
   * What keeps {@code partitions} from having a leader known to the gateway, on a running broker
   * that agrees (leads in the same term), other than {@code excluded}.
   */
  private List<String> leaderProblems(List<Integer> partitions, int excluded) {
    List<String> problems = new ArrayList<>();
    ClusterTopology topology = currentTopology();
    Map<Integer, Broker> running = cluster.runningBrokers();
    for (int partitionId : partitions) {
      PartitionLeader leader = topology.leaders().get(partitionId);
      if (leader == null) {
        problems.add("the gateway knows no leader of partition " + partitionId);
        continue;
      }
      if (leader.nodeId() == excluded) {
        problems.add("partition " + partitionId + " is still led by node " + excluded);
        continue;
      }
      Broker broker = running.get(leader.nodeId());
      Optional<HostedPartition> replica =
          broker == null ? Optional.empty() : broker.partitions().get(partitionId);
      if (replica.isEmpty() || !replica.get().isLeader() || replica.get().term() != leader.term()) {
        problems.add(
            "the gateway routes partition "
                + partitionId
                + " to node "
                + leader.nodeId()
                + " (term "
                + leader.term()
                + "), which "
                + (broker == null ? "does not run" : "does not lead it in that term"));
      }
    }
    return problems;
  }

  private ClusterTopology currentTopology() {
    try {
      return cluster
          .gateway()
          .refreshTopology()
          .get(TOPOLOGY_REFRESH_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while refreshing the gateway's topology", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new AssertionError("the gateway's topology refresh failed: " + e, e);
    }
  }

  private static void check(List<String> problems) {
    if (!problems.isEmpty()) {
      throw new AssertionError(String.join("; ", problems));
    }
  }
}
