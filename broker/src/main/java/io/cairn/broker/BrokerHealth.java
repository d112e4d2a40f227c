package io.cairn.broker;

import io.cairn.broker.partition.PartitionHealthReport;
import io.cairn.broker.partition.PartitionHealthStatus;
import io.cairn.broker.partition.PartitionRole;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The health of one broker: the worst of its partitions' ({@code FAILED} over {@code UNHEALTHY}
 * over {@code HEALTHY}), or {@code UNHEALTHY} while the broker starts or shuts down; the reason
 * names every partition that is not healthy.
 *
 * <p><b>Ready</b> means the broker runs and every partition it hosts has a role ({@code FOLLOWER}
 * or {@code LEADER}) and is not {@code FAILED}.
 *
 * @param nodeId the broker
 * @param status the broker's status
 * @param reason why it is not healthy; empty when healthy
 * @param ready whether the broker is ready (see above)
 * @param partitions every hosted partition, by id
 */
public record BrokerHealth(
    int nodeId,
    PartitionHealthStatus status,
    String reason,
    boolean ready,
    List<Partition> partitions) {

  public BrokerHealth {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
    partitions = List.copyOf(partitions);
  }

  /**
   * One partition as the broker reports it.
   *
   * @param partitionId the partition
   * @param role its role on this broker
   * @param term the raft term in which it took the role
   * @param status its health
   * @param reason why it is not healthy; empty when healthy
   */
  public record Partition(
      int partitionId,
      PartitionRole role,
      long term,
      PartitionHealthStatus status,
      String reason) {}

  /**
   * The health of a broker hosting {@code partitions}.
   *
   * @param lifecycleProblem why the broker itself is not serving ("starting", "shutting down"), or
   *     null when it runs
   */
  public static BrokerHealth of(int nodeId, HostedPartitions partitions, String lifecycleProblem) {
    List<Partition> views = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    PartitionHealthStatus worst = PartitionHealthStatus.HEALTHY;
    boolean ready = lifecycleProblem == null;
    if (lifecycleProblem != null) {
      problems.add(lifecycleProblem);
      worst = PartitionHealthStatus.UNHEALTHY;
    }
    for (HostedPartition hosted : partitions.all()) {
      PartitionHealthReport health = hosted.health();
      PartitionRole role = hosted.role();
      views.add(
          new Partition(
              hosted.partitionId(), role, hosted.term(), health.status(), health.reason()));
      if (health.status().code() > worst.code()) {
        worst = health.status();
      }
      if (!health.isHealthy()) {
        problems.add(
            "partition " + hosted.partitionId() + " " + health.status() + ": " + health.reason());
      }
      if ((role != PartitionRole.FOLLOWER && role != PartitionRole.LEADER)
          || health.status() == PartitionHealthStatus.FAILED) {
        ready = false;
      }
    }
    return new BrokerHealth(nodeId, worst, String.join("; ", problems), ready, views);
  }
}
