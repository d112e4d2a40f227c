package io.cairn.broker.partition;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A partition's health: the current report, its gauge, and the listeners told of changes. Set on
 * the partition's thread, read anywhere. FAILED is final.
 */
final class PartitionHealthTracker {

  private static final Logger LOG = LoggerFactory.getLogger(PartitionHealthTracker.class);

  private final int partitionId;
  private final int nodeId;
  private final PartitionMetrics metrics;
  private final List<PartitionHealthListener> listeners = new CopyOnWriteArrayList<>();
  private volatile PartitionHealthReport report;

  PartitionHealthTracker(int partitionId, int nodeId, PartitionMetrics metrics) {
    this.partitionId = partitionId;
    this.nodeId = nodeId;
    this.metrics = metrics;
    this.report = PartitionHealthReport.healthy(partitionId, nodeId);
    metrics.health(report.status());
  }

  PartitionHealthReport report() {
    return report;
  }

  void addListener(PartitionHealthListener listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  void removeListener(PartitionHealthListener listener) {
    listeners.remove(listener);
  }

  /**
   * Sets the health; does nothing if it is unchanged or FAILED already. Logs UNHEALTHY at WARN
   * (with {@code cause}, if any) and a return to HEALTHY at INFO; FAILED is logged by the role
   * transition that goes with it.
   */
  void set(PartitionHealthStatus status, String reason, Throwable cause) {
    PartitionHealthReport next = new PartitionHealthReport(partitionId, nodeId, status, reason);
    PartitionHealthReport current = report;
    if (current.equals(next) || current.status() == PartitionHealthStatus.FAILED) {
      return;
    }
    report = next;
    metrics.health(status);
    switch (status) {
      case HEALTHY -> LOG.info("Partition {} on node {} is healthy again", partitionId, nodeId);
      case UNHEALTHY ->
          LOG.warn("Partition {} on node {} is UNHEALTHY: {}", partitionId, nodeId, reason, cause);
      case FAILED ->
          LOG.debug("Partition {} on node {} is FAILED: {}", partitionId, nodeId, reason);
    }
    for (PartitionHealthListener listener : listeners) {
      try {
        listener.onHealthChange(next);
      } catch (RuntimeException e) {
        LOG.warn("A health listener of partition {} on node {} failed", partitionId, nodeId, e);
      }
    }
  }
}
