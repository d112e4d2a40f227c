package io.cairn.backupapi;

/** The state of a backup id across every partition of a cluster. */
public enum ClusterBackupStatusCode {
  /** No partition has a backup of this id. */
  DOES_NOT_EXIST,
  /** At least one partition's backup is running and none failed. */
  IN_PROGRESS,
  /** Some partitions have none, the others completed. */
  INCOMPLETE,
  /** Every partition's backup completed. */
  COMPLETED,
  /** At least one partition's backup failed. */
  FAILED
}
