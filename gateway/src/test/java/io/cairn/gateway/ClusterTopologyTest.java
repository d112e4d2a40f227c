package io.cairn.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.gateway.topology.BrokerStatus;
import io.cairn.gateway.topology.ClusterTopology;
import io.cairn.protocol.api.BrokerTopology;
import io.cairn.protocol.api.PartitionReplica;
import io.cairn.protocol.api.ReplicaHealth;
import io.cairn.protocol.api.ReplicaRole;
import io.cairn.transport.MemberAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class ClusterTopologyTest {
  private static final MemberAddress ADDRESS = new MemberAddress("127.0.0.1", 1);

  private static BrokerStatus broker(int nodeId, PartitionReplica... replicas) {
    return new BrokerStatus(
        nodeId,
        ADDRESS,
        Optional.of(new BrokerTopology(nodeId, "c", "v", 3, 2, List.of(replicas))),
        "");
  }

  private static PartitionReplica replica(int partitionId, ReplicaRole role, long term) {
    return new PartitionReplica(partitionId, role, term, ReplicaHealth.HEALTHY, "");
  }

  @Test
  void shouldTakeTheLeaderWithTheHighestTerm() {
    ClusterTopology topology =
        ClusterTopology.of(
            1,
            List.of(
                broker(0, replica(1, ReplicaRole.LEADER, 3), replica(2, ReplicaRole.FOLLOWER, 4)),
                broker(1, replica(1, ReplicaRole.LEADER, 4), replica(2, ReplicaRole.LEADER, 4)),
                broker(
                    2, replica(1, ReplicaRole.FOLLOWER, 4), replica(3, ReplicaRole.INACTIVE, 1))));

    assertThat(topology.leaderOf(1)).hasValue(1);
    assertThat(topology.leaderOf(2)).hasValue(1);
    assertThat(topology.leaderOf(3)).isEmpty();
    assertThat(topology.partitionsWithoutLeader()).containsExactly(3);
    assertThat(topology.hasAllLeaders()).isFalse();
    assertThat(topology.partitionCount()).isEqualTo(3);
  }

  @Test
  void shouldPreferTheLowerNodeIdOnATie() {
    ClusterTopology topology =
        ClusterTopology.of(
            1,
            List.of(
                broker(1, replica(1, ReplicaRole.LEADER, 2)),
                broker(0, replica(1, ReplicaRole.LEADER, 2))));

    assertThat(topology.leaderOf(1)).hasValue(0);
  }

  @Test
  void shouldIgnoreUnreachableBrokers() {
    ClusterTopology topology =
        ClusterTopology.of(
            1,
            List.of(
                broker(
                    0,
                    replica(1, ReplicaRole.LEADER, 1),
                    replica(2, ReplicaRole.LEADER, 1),
                    replica(3, ReplicaRole.LEADER, 1)),
                new BrokerStatus(1, ADDRESS, Optional.empty(), "connection refused")));

    assertThat(topology.hasAllLeaders()).isTrue();
    assertThat(topology.reachableBrokers()).containsExactly(0);
  }

  @Test
  void shouldKnowNothingBeforeTheFirstAnswer() {
    ClusterTopology unknown = ClusterTopology.unknown(Map.of(0, ADDRESS));

    assertThat(unknown.partitionCount()).isZero();
    assertThat(unknown.hasAllLeaders()).isFalse();
    assertThat(unknown.reachableBrokers()).isEmpty();
    assertThat(unknown.brokers().get(0).error()).isEqualTo("not asked yet");
  }
}
