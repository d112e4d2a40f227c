package io.cairn.qa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.broker.partition.PartitionRole;
import io.cairn.client.CairnClient;
import io.cairn.client.ErrorCode;
import io.cairn.qa.support.Calls;
import io.cairn.qa.support.Phases;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The kit's own fault hooks on a real cluster: stop/restart keeps data and ports, a network
 * partition moves leadership away from the cut-off leader and heals, a killed broker stays cut off
 * until restarted. Each test leaves the cluster healthy.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class EmbeddedClusterIT {

  private EmbeddedCluster cluster;
  private CairnClient client;
  private final Phases phases = new Phases("EmbeddedClusterIT");

  @BeforeAll
  void startCluster() {
    cluster = EmbeddedCluster.builder().brokers(3).partitions(3).replicationFactor(3).build();
    assertThat(cluster.brokerIds()).containsExactly(0, 1, 2);
    assertThat(cluster.state(0)).isEqualTo(NodeState.NEW);
    cluster.start().awaitHealthy();
    client = cluster.client();
    phases.mark("cluster healthy");
  }

  @AfterAll
  void closeCluster() {
    if (cluster != null) {
      cluster.close();
      phases.mark("closed");
      assertThat(cluster.dataDirectory()).doesNotExist();
    }
  }

  @Test
  void shouldKeepDataAndPortsWhenEveryBrokerIsStoppedAndRestarted() {
    // given an account with money on every partition
    Map<String, Long> balances = new TreeMap<>();
    for (int partition = 1; partition <= 3; partition++) {
      String account = accountOn(partition, "durable");
      client.createAccount(account);
      client.deposit(account, 100 + partition);
      balances.put(account, 100L + partition);
    }
    List<Integer> ports = new ArrayList<>();
    cluster.brokerIds().forEach(id -> ports.add(cluster.broker(id).transportAddress().port()));

    // when every broker is stopped
    cluster.brokerIds().forEach(cluster::stop);
    assertThat(cluster.runningBrokerIds()).isEmpty();
    assertThat(cluster.state(1)).isEqualTo(NodeState.STOPPED);
    Calls.clientFailure(
        ErrorCode.UNAVAILABLE, () -> client.getAccount(balances.keySet().iterator().next()));
    phases.mark("all stopped");

    // and started again
    cluster.brokerIds().forEach(cluster::restart);
    cluster.awaitHealthy();
    phases.mark("all restarted");

    // then they listen where they did and every balance is there
    List<Integer> portsAfter = new ArrayList<>();
    cluster.brokerIds().forEach(id -> portsAfter.add(cluster.broker(id).transportAddress().port()));
    assertThat(portsAfter).isEqualTo(ports);
    balances.forEach(
        (account, balance) -> assertThat(client.getAccount(account).balance()).isEqualTo(balance));
  }

  @Test
  void shouldMoveLeadershipAwayFromAnIsolatedLeaderAndRejoinItAfterHeal() {
    String account = accountOn(1, "isolated");
    client.createAccount(account);
    int leader = cluster.awaitLeader(1);

    // when the leader of partition 1 is cut from the other brokers
    cluster.isolate(leader);
    assertThat(cluster.partitions()).hasSize(2);

    // then the others elect a new leader, and the gateway routes there
    int successor = cluster.awaitNewLeader(1, leader);
    assertThat(successor).isNotEqualTo(leader);
    client.deposit(account, 7);
    phases.mark("new leader " + successor + " while " + leader + " is isolated");

    // when the network heals
    cluster.heal();
    assertThat(cluster.partitions()).isEmpty();
    cluster.awaitHealthy();

    // then the old leader has a role again, and the deposit made without it counts
    awaitRole(leader, 1);
    assertThat(cluster.leaderOf(1)).isPresent();
    assertThat(client.getAccount(account).balance()).isEqualTo(7);
    phases.mark("healed");
  }

  @Test
  void shouldKeepAKilledBrokerCutOffUntilItRestarts() {
    String account = accountOn(2, "killed");
    client.createAccount(account);
    int leader = cluster.awaitLeader(2);

    // when the leader of partition 2 is killed
    cluster.kill(leader);
    assertThat(cluster.state(leader)).isEqualTo(NodeState.KILLED);

    // then another broker leads and serves, even after heal() (which does not revive it)
    cluster.heal();
    assertThat(cluster.awaitNewLeader(2, leader)).isNotEqualTo(leader);
    client.deposit(account, 3);
    assertThat(cluster.runningBrokerIds()).doesNotContain(leader);
    phases.mark("leader " + leader + " killed, partition 2 moved");

    // when it restarts, it rejoins with its data
    cluster.restart(leader);
    cluster.awaitHealthy();
    assertThat(cluster.state(leader)).isEqualTo(NodeState.RUNNING);
    awaitRole(leader, 2);
    assertThat(client.getAccount(account).balance()).isEqualTo(3);
    phases.mark("node " + leader + " restarted");
  }

  @Test
  void shouldRestartOnANewPortWhenItsOldOneWasTakenMeanwhile() throws Exception {
    String account = accountOn(3, "moved");
    client.createAccount(account);
    int moved = cluster.awaitLeader(3);
    int oldPort = cluster.broker(moved).transportAddress().port();
    cluster.stop(moved);

    try {
      // given another process listening on the stopped broker's port
      try (ServerSocket squatter =
          new ServerSocket(oldPort, 1, InetAddress.getByName("127.0.0.1"))) {
        // when the broker restarts
        cluster.restart(moved);
      }

      // then it listens elsewhere, and its peers and the gateway still reach it: with another
      // broker down, partition 3 needs it for a quorum
      assertThat(cluster.broker(moved).transportAddress().port()).isNotEqualTo(oldPort);
      cluster.awaitHealthy();
      int other = (moved + 1) % 3;
      cluster.stop(other);
      cluster.awaitLeader(3);
      client.deposit(account, 11);
      assertThat(client.getAccount(account).balance()).isEqualTo(11);
    } finally {
      cluster.brokerIds().stream()
          .filter(id -> cluster.state(id) != NodeState.RUNNING)
          .forEach(cluster::restart);
    }
    cluster.awaitHealthy();
    phases.mark("node " + moved + " restarted on a new port");
  }

  /**
   * Waits until {@code nodeId}'s replica of {@code partitionId} follows or leads. The cluster was
   * healthy a moment ago; an election begun since (a slow machine can miss heartbeats) leaves it
   * between roles for a while.
   */
  private void awaitRole(int nodeId, int partitionId) {
    await("node " + nodeId + " to follow or lead partition " + partitionId)
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(50))
        .untilAsserted(
            () ->
                assertThat(
                        cluster.broker(nodeId).partitions().get(partitionId).orElseThrow().role())
                    .isIn(PartitionRole.FOLLOWER, PartitionRole.LEADER));
  }

  private int accounts;

  private String accountOn(int partition, String prefix) {
    while (true) {
      String id = prefix + "-" + accounts++;
      if (cluster.partitionOf(id) == partition) {
        return id;
      }
    }
  }
}
