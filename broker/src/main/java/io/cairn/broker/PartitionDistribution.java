package io.cairn.broker;

import java.util.ArrayList;
import java.util.List;

/**
 * Which brokers host which partitions (DESIGN.md §3): with {@code N} brokers (node ids {@code
 * 0..N-1}), {@code P} partitions (ids {@code 1..P}) and replication factor {@code R}, partition
 * {@code p} is hosted by brokers {@code (p-1+i) mod N} for {@code i = 0..R-1}. Membership is
 * static.
 *
 * <p>Example, {@code N = 3, P = 4, R = 3}: every broker hosts every partition; {@code N = 5, P = 3,
 * R = 3}: partition 1 on {0, 1, 2}, partition 2 on {1, 2, 3}, partition 3 on {2, 3, 4}.
 *
 * <p>The first member ({@code i = 0}, broker {@code (p-1) mod N}) is the partition's {@linkplain
 * #preferredLeader preferred leader}: consecutive partitions start at consecutive brokers, so with
 * leader balancing every broker leads {@code floor(P/N)} or {@code ceil(P/N)} partitions.
 *
 * <p>Immutable; {@link #of} validates the shape and lists every violation at once.
 */
public final class PartitionDistribution {

  /** Most brokers in a cluster. */
  public static final int CLUSTER_SIZE_MAX = 1024;

  /** Most partitions in a cluster (the ledger's limit on partition ids). */
  public static final int PARTITION_COUNT_MAX = 32_767;

  /** The replication factors a raft group supports. */
  public static final List<Integer> REPLICATION_FACTORS = List.of(1, 3, 5);

  private final int clusterSize;
  private final int partitionCount;
  private final int replicationFactor;

  private PartitionDistribution(int clusterSize, int partitionCount, int replicationFactor) {
    this.clusterSize = clusterSize;
    this.partitionCount = partitionCount;
    this.replicationFactor = replicationFactor;
  }

  /**
   * @param clusterSize {@code N}, in [1, {@value #CLUSTER_SIZE_MAX}]
   * @param partitionCount {@code P}, in [1, {@value #PARTITION_COUNT_MAX}]
   * @param replicationFactor {@code R}: 1, 3 or 5 (raft group sizes), and at most {@code N}
   * @throws IllegalArgumentException listing every violated rule
   */
  public static PartitionDistribution of(
      int clusterSize, int partitionCount, int replicationFactor) {
    List<String> violations = new ArrayList<>();
    if (clusterSize < 1 || clusterSize > CLUSTER_SIZE_MAX) {
      violations.add(
          "Expected clusterSize in [1, " + CLUSTER_SIZE_MAX + "], but was " + clusterSize);
    }
    if (partitionCount < 1 || partitionCount > PARTITION_COUNT_MAX) {
      violations.add(
          "Expected partitionCount in [1, " + PARTITION_COUNT_MAX + "], but was " + partitionCount);
    }
    if (!REPLICATION_FACTORS.contains(replicationFactor)) {
      violations.add(
          "Expected replicationFactor in "
              + REPLICATION_FACTORS
              + ", but was "
              + replicationFactor);
    }
    if (replicationFactor > clusterSize) {
      violations.add(
          "Expected replicationFactor <= clusterSize, but "
              + replicationFactor
              + " > "
              + clusterSize
              + "; add brokers or lower the replication factor");
    }
    if (!violations.isEmpty()) {
      throw new IllegalArgumentException(
          String.join("; ", violations)
              + " (partition distribution N="
              + clusterSize
              + ", P="
              + partitionCount
              + ", R="
              + replicationFactor
              + ")");
    }
    return new PartitionDistribution(clusterSize, partitionCount, replicationFactor);
  }

  public int clusterSize() {
    return clusterSize;
  }

  public int partitionCount() {
    return partitionCount;
  }

  public int replicationFactor() {
    return replicationFactor;
  }

  /**
   * The brokers hosting {@code partitionId}, in distribution order ({@code i = 0..R-1}).
   *
   * @throws IllegalArgumentException if the partition id is not in [1, P]
   */
  public List<Integer> members(int partitionId) {
    checkPartition(partitionId);
    List<Integer> members = new ArrayList<>(replicationFactor);
    for (int i = 0; i < replicationFactor; i++) {
      members.add((partitionId - 1 + i) % clusterSize);
    }
    return List.copyOf(members);
  }

  /**
   * The broker that should lead {@code partitionId}: its first member, {@code (p-1) mod N}.
   *
   * @throws IllegalArgumentException if the partition id is not in [1, P]
   */
  public int preferredLeader(int partitionId) {
    checkPartition(partitionId);
    return (partitionId - 1) % clusterSize;
  }

  /**
   * The partitions {@code nodeId} hosts, in increasing order.
   *
   * @throws IllegalArgumentException if the node id is not in [0, N-1]
   */
  public List<Integer> partitionsOf(int nodeId) {
    checkNode(nodeId);
    List<Integer> partitions = new ArrayList<>();
    for (int partitionId = 1; partitionId <= partitionCount; partitionId++) {
      if (hosts(nodeId, partitionId)) {
        partitions.add(partitionId);
      }
    }
    return List.copyOf(partitions);
  }

  /** Whether {@code nodeId} hosts {@code partitionId}. */
  public boolean hosts(int nodeId, int partitionId) {
    checkNode(nodeId);
    checkPartition(partitionId);
    // (p-1+i) mod N == nodeId for some i in [0, R): the distance from the first member is < R
    int first = (partitionId - 1) % clusterSize;
    int distance = Math.floorMod(nodeId - first, clusterSize);
    return distance < replicationFactor;
  }

  private void checkPartition(int partitionId) {
    if (partitionId < 1 || partitionId > partitionCount) {
      throw new IllegalArgumentException(
          "Expected a partition id in [1, " + partitionCount + "], but was " + partitionId);
    }
  }

  private void checkNode(int nodeId) {
    if (nodeId < 0 || nodeId >= clusterSize) {
      throw new IllegalArgumentException(
          "Expected a node id in [0, " + (clusterSize - 1) + "], but was " + nodeId);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PartitionDistribution other
        && clusterSize == other.clusterSize
        && partitionCount == other.partitionCount
        && replicationFactor == other.replicationFactor;
  }

  @Override
  public int hashCode() {
    return (clusterSize * 31 + partitionCount) * 31 + replicationFactor;
  }

  @Override
  public String toString() {
    return "PartitionDistribution{N="
        + clusterSize
        + ", P="
        + partitionCount
        + ", R="
        + replicationFactor
        + "}";
  }
}
