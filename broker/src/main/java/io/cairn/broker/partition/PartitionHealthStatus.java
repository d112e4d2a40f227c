package io.cairn.broker.partition;

/**
 * How a partition is doing. The code is the value of the {@code cairn.broker.partition.health}
 * gauge.
 */
public enum PartitionHealthStatus {
  /** Following or leading normally (or waiting for raft to choose a role). */
  HEALTHY(0),
  /**
   * Degraded but handled: a role transition failed and is retried with backoff. Recovers by itself.
   */
  UNHEALTHY(1),
  /**
   * Stopped for good: the stream processor failed, the raft member failed, the recovered state did
   * not match its snapshot, or transitions kept failing. Needs an operator: rebuild the partition
   * from a replica or restore it from a backup.
   */
  FAILED(2);

  private final int code;

  PartitionHealthStatus(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }
}
