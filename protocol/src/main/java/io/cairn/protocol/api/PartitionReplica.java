package io.cairn.protocol.api;

import java.util.Objects;

/**
 * One partition as hosted by one broker.
 *
 * @param partitionId in [1, {@link ApiDescriptor#PARTITION_ID_MAX}]
 * @param role this broker's role for the partition
 * @param term the raft term this broker knows, {@code >= 0}
 * @param health how the replica is doing
 * @param healthReason why it is not healthy; empty when healthy (at most {@link
 *     ApiDescriptor#REASON_MAX_BYTES} bytes of UTF-8, cut to fit)
 */
public record PartitionReplica(
    int partitionId, ReplicaRole role, long term, ReplicaHealth health, String healthReason) {
  public PartitionReplica {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(health, "health");
    Objects.requireNonNull(healthReason, "healthReason");
    if (partitionId < 1 || partitionId > ApiDescriptor.PARTITION_ID_MAX) {
      throw new IllegalArgumentException(
          "Expected partitionId in [1, "
              + ApiDescriptor.PARTITION_ID_MAX
              + "], but was "
              + partitionId
              + " (partition replica)");
    }
    if (term < 0) {
      throw new IllegalArgumentException(
          "Expected term >= 0, but was " + term + " (partition " + partitionId + ")");
    }
    healthReason = ApiStrings.truncate(healthReason, ApiDescriptor.REASON_MAX_BYTES);
  }
}
