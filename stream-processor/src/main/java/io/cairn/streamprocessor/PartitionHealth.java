package io.cairn.streamprocessor;

import java.util.Objects;

/**
 * The health of a partition's stream processor.
 *
 * @param partitionId the partition
 * @param status healthy or failed
 * @param reason why it failed; empty when healthy
 */
public record PartitionHealth(int partitionId, HealthStatus status, String reason) {

  public PartitionHealth {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
  }

  public static PartitionHealth healthy(int partitionId) {
    return new PartitionHealth(partitionId, HealthStatus.HEALTHY, "");
  }

  public static PartitionHealth failed(int partitionId, String reason) {
    return new PartitionHealth(partitionId, HealthStatus.FAILED, reason);
  }

  public boolean isHealthy() {
    return status == HealthStatus.HEALTHY;
  }
}
