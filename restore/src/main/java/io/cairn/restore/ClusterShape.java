package io.cairn.restore;

import java.util.ArrayList;
import java.util.List;

/**
 * The shape of the cluster a backup is restored into (DESIGN.md §3): {@code N} brokers (node ids
 * {@code 0..N-1}), {@code P} partitions (ids {@code 1..P}) and replication factor {@code R}.
 * Partition {@code p} is hosted by brokers {@code (p-1+i) mod N} for {@code i = 0..R-1} — the same
 * rule the broker uses, so a node is restored with exactly the partitions it will open.
 *
 * @param clusterSize {@code N}, at least 1
 * @param partitionCount {@code P}, at least 1
 * @param replicationFactor {@code R}, in {@code [1, N]}
 */
public record ClusterShape(int clusterSize, int partitionCount, int replicationFactor) {

  public ClusterShape {
    List<String> violations = new ArrayList<>();
    if (clusterSize < 1) {
      violations.add("clusterSize >= 1, but was " + clusterSize);
    }
    if (partitionCount < 1) {
      violations.add("partitionCount >= 1, but was " + partitionCount);
    }
    if (replicationFactor < 1 || replicationFactor > clusterSize) {
      violations.add(
          "1 <= replicationFactor <= clusterSize, but was "
              + replicationFactor
              + " with clusterSize "
              + clusterSize);
    }
    if (!violations.isEmpty()) {
      throw new IllegalArgumentException(
          "Expected " + String.join("; ", violations) + " (cluster shape)");
    }
  }

  /** The nodes hosting {@code partitionId}, in distribution order. */
  public List<Integer> members(int partitionId) {
    checkPartition(partitionId);
    List<Integer> members = new ArrayList<>(replicationFactor);
    for (int i = 0; i < replicationFactor; i++) {
      members.add((partitionId - 1 + i) % clusterSize);
    }
    return List.copyOf(members);
  }

  /** The partitions {@code nodeId} hosts, in increasing order. */
  public List<Integer> partitionsOf(int nodeId) {
    if (nodeId < 0 || nodeId >= clusterSize) {
      throw new IllegalArgumentException(
          "Expected a node id in [0, " + (clusterSize - 1) + "], but was " + nodeId);
    }
    List<Integer> partitions = new ArrayList<>();
    for (int partitionId = 1; partitionId <= partitionCount; partitionId++) {
      if (members(partitionId).contains(nodeId)) {
        partitions.add(partitionId);
      }
    }
    return List.copyOf(partitions);
  }

  private void checkPartition(int partitionId) {
    if (partitionId < 1 || partitionId > partitionCount) {
      throw new IllegalArgumentException(
          "Expected a partition id in [1, " + partitionCount + "], but was " + partitionId);
    }
  }
}
