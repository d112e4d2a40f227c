package io.cairn.broker.partition;

import java.util.Objects;

/**
 * The health of one partition on one broker.
 *
 * @param partitionId the partition
 * @param nodeId the broker
 * @param status healthy, unhealthy or failed
 * @param reason why it is not healthy; empty when healthy
 */
public record PartitionHealthReport(
    int partitionId, int nodeId, PartitionHealthStatus status, String reason) {

  public PartitionHealthReport {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
  }

  static PartitionHealthReport healthy(int partitionId, int nodeId) {
    return new PartitionHealthReport(partitionId, nodeId, PartitionHealthStatus.HEALTHY, "");
  }

  public boolean isHealthy() {
    return status == PartitionHealthStatus.HEALTHY;
  }
}
