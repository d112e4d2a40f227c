package io.cairn.streamprocessor;

/** Whether a partition's stream processor works. The code is the value of the health gauge. */
public enum HealthStatus {
  /** Processing or replaying normally (or waiting for records). */
  HEALTHY(0),
  /**
   * Stopped for good: the state no longer follows the log (an applier failed, a committed record
   * could not be decoded, a transaction could not be committed). Needs an operator; the partition
   * must be rebuilt (from a snapshot and the log, or restored from a backup).
   */
  FAILED(1);

  private final int code;

  HealthStatus(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }
}
