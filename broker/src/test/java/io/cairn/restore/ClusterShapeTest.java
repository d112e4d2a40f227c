package io.cairn.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.broker.PartitionDistribution;
import org.junit.jupiter.api.Test;

/** A node is restored with exactly the partitions the broker will open on it. */
final class ClusterShapeTest {

  @Test
  void shouldDistributePartitionsExactlyAsTheBroker() {
    int shapes = 0;
    for (int nodes = 1; nodes <= 7; nodes++) {
      for (int partitions = 1; partitions <= 9; partitions++) {
        for (int replication : PartitionDistribution.REPLICATION_FACTORS) {
          if (replication > nodes) {
            continue;
          }
          ClusterShape shape = new ClusterShape(nodes, partitions, replication);
          PartitionDistribution broker = PartitionDistribution.of(nodes, partitions, replication);
          for (int node = 0; node < nodes; node++) {
            assertThat(shape.partitionsOf(node))
                .as("%s node %s", shape, node)
                .isEqualTo(broker.partitionsOf(node));
          }
          for (int partition = 1; partition <= partitions; partition++) {
            assertThat(shape.members(partition)).isEqualTo(broker.members(partition));
          }
          shapes++;
        }
      }
    }
    assertThat(shapes).isEqualTo(7 * 9 + 5 * 9 + 3 * 9);
  }
}
