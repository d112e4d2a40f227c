package io.cairn.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class PartitionDistributionTest {

  @Test
  void shouldPlaceEachPartitionOnConsecutiveBrokersFromItsOwnOffset() {
    PartitionDistribution distribution = PartitionDistribution.of(5, 3, 3);

    assertThat(distribution.members(1)).containsExactly(0, 1, 2);
    assertThat(distribution.members(2)).containsExactly(1, 2, 3);
    assertThat(distribution.members(3)).containsExactly(2, 3, 4);
    assertThat(distribution.partitionsOf(0)).containsExactly(1);
    assertThat(distribution.partitionsOf(2)).containsExactly(1, 2, 3);
    assertThat(distribution.partitionsOf(4)).containsExactly(3);
  }

  @Test
  void shouldPreferEachPartitionsFirstMemberSoThatLeadersSpreadEvenly() {
    // every N in [1, 8], P in [1, 12], R in {1, 3, 5} with R <= N
    for (int n = 1; n <= 8; n++) {
      for (int p = 1; p <= 12; p++) {
        for (int r : PartitionDistribution.REPLICATION_FACTORS) {
          if (r > n) {
            continue;
          }
          PartitionDistribution distribution = PartitionDistribution.of(n, p, r);
          int[] led = new int[n];
          for (int partition = 1; partition <= p; partition++) {
            int preferred = distribution.preferredLeader(partition);
            assertThat(preferred).isEqualTo(distribution.members(partition).get(0));
            led[preferred]++;
          }
          for (int node = 0; node < n; node++) {
            assertThat(led[node])
                .as("partitions preferring node %d in %s", node, distribution)
                .isBetween(p / n, (p + n - 1) / n);
          }
        }
      }
    }
  }

  @Test
  void shouldWrapAroundTheLastBroker() {
    PartitionDistribution distribution = PartitionDistribution.of(3, 5, 3);

    assertThat(distribution.members(3)).containsExactly(2, 0, 1);
    assertThat(distribution.members(4)).containsExactly(0, 1, 2);
    assertThat(distribution.members(5)).containsExactly(1, 2, 0);
    assertThat(distribution.partitionsOf(1)).containsExactly(1, 2, 3, 4, 5);
    assertThat(PartitionDistribution.of(4, 6, 1).members(5)).containsExactly(0);
  }

  @Test
  void shouldAgreeWithTheFormulaForEveryShape() {
    // every N in [1, 8], P in [1, 12], R in {1, 3, 5} with R <= N
    for (int n = 1; n <= 8; n++) {
      for (int p = 1; p <= 12; p++) {
        for (int r : PartitionDistribution.REPLICATION_FACTORS) {
          if (r > n) {
            continue;
          }
          PartitionDistribution distribution = PartitionDistribution.of(n, p, r);
          String shape = distribution.toString();
          int hosted = 0;
          for (int partition = 1; partition <= p; partition++) {
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < r; i++) {
              expected.add((partition - 1 + i) % n);
            }
            assertThat(distribution.members(partition)).as(shape).isEqualTo(expected);
            assertThat(new HashSet<>(expected)).as("distinct members, %s", shape).hasSize(r);
          }
          for (int node = 0; node < n; node++) {
            Set<Integer> partitions = new HashSet<>(distribution.partitionsOf(node));
            hosted += partitions.size();
            for (int partition = 1; partition <= p; partition++) {
              assertThat(partitions.contains(partition))
                  .as("node %d hosts partition %d, %s", node, partition, shape)
                  .isEqualTo(distribution.members(partition).contains(node))
                  .isEqualTo(distribution.hosts(node, partition));
            }
          }
          assertThat(hosted).as(shape).isEqualTo(p * r);
        }
      }
    }
  }

  @Test
  void shouldListEveryViolation() {
    assertThatThrownBy(() -> PartitionDistribution.of(0, 0, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected clusterSize in [1, 1024], but was 0")
        .hasMessageContaining("Expected partitionCount in [1, 32767], but was 0")
        .hasMessageContaining("Expected replicationFactor in [1, 3, 5], but was 2")
        .hasMessageContaining("Expected replicationFactor <= clusterSize, but 2 > 0");
  }

  @Test
  void shouldRefuseAReplicationFactorAboveTheClusterSize() {
    assertThatThrownBy(() -> PartitionDistribution.of(2, 3, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Expected replicationFactor <= clusterSize, but 3 > 2; add brokers or lower the"
                + " replication factor (partition distribution N=2, P=3, R=3)");
  }

  @Test
  void shouldRefuseUnknownPartitionsAndNodes() {
    PartitionDistribution distribution = PartitionDistribution.of(3, 2, 3);

    assertThatThrownBy(() -> distribution.members(3))
        .hasMessage("Expected a partition id in [1, 2], but was 3");
    assertThatThrownBy(() -> distribution.partitionsOf(3))
        .hasMessage("Expected a node id in [0, 2], but was 3");
  }
}
