package io.cairn.protocol.api;

import java.util.List;
import java.util.Objects;

/**
 * What one broker reports about itself ({@link ApiDescriptor#TYPE_TOPOLOGY}).
 *
 * @param nodeId the broker's node id, {@code >= 0}
 * @param clusterId the cluster id, 1 to {@link ApiDescriptor#NAME_MAX_BYTES} bytes of UTF-8
 * @param brokerVersion the broker's version, 1 to {@link ApiDescriptor#NAME_MAX_BYTES} bytes
 * @param partitionCount the cluster's partition count, in [1, {@link
 *     ApiDescriptor#PARTITION_ID_MAX}]
 * @param replicationFactor the cluster's replication factor, {@code >= 1}
 * @param replicas the partitions this broker hosts, each at most once, each {@code <=
 *     partitionCount}
 */
public record BrokerTopology(
    int nodeId,
    String clusterId,
    String brokerVersion,
    int partitionCount,
    int replicationFactor,
    List<PartitionReplica> replicas) {
  public BrokerTopology {
    Objects.requireNonNull(clusterId, "clusterId");
    Objects.requireNonNull(brokerVersion, "brokerVersion");
    replicas = List.copyOf(replicas);
    String violation = violation(nodeId, partitionCount, replicationFactor, replicas);
    if (violation != null) {
      throw new IllegalArgumentException(violation);
    }
  }

  /** The rule the fields break, or {@code null}; shared with the decoder. */
  static String violation(
      int nodeId, int partitionCount, int replicationFactor, List<PartitionReplica> replicas) {
    if (nodeId < 0) {
      return "Expected nodeId >= 0, but was " + nodeId + " (broker topology)";
    }
    if (partitionCount < 1 || partitionCount > ApiDescriptor.PARTITION_ID_MAX) {
      return "Expected partitionCount in [1, "
          + ApiDescriptor.PARTITION_ID_MAX
          + "], but was "
          + partitionCount
          + " (broker topology of node "
          + nodeId
          + ")";
    }
    if (replicationFactor < 1) {
      return "Expected replicationFactor >= 1, but was "
          + replicationFactor
          + " (broker topology of node "
          + nodeId
          + ")";
    }
    boolean[] seen = new boolean[partitionCount + 1];
    for (PartitionReplica replica : replicas) {
      int partitionId = replica.partitionId();
      if (partitionId > partitionCount) {
        return "Expected partitions in [1, "
            + partitionCount
            + "], but node "
            + nodeId
            + " reported partition "
            + partitionId
            + " (broker topology)";
      }
      if (seen[partitionId]) {
        return "Expected each partition at most once, but node "
            + nodeId
            + " reported partition "
            + partitionId
            + " twice (broker topology)";
      }
      seen[partitionId] = true;
    }
    return null;
  }
}
