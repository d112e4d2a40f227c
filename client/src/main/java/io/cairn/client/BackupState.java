package io.cairn.client;

/** The state of a backup, of the whole cluster or of one partition. */
public enum BackupState {
  /** No partition has a backup of this id. */
  DOES_NOT_EXIST,
  /** At least one partition is still writing it. */
  IN_PROGRESS,
  /** Every partition completed it. */
  COMPLETED,
  /** At least one partition failed; the failure reason says why. */
  FAILED,
  /** Cluster level only: some partitions have none, and none is running. */
  INCOMPLETE,
  /** A state this client does not know (a newer gateway). */
  UNKNOWN;

  /** Whether the backup will not change any more (everything but {@link #IN_PROGRESS}). */
  public boolean isFinal() {
    return this != IN_PROGRESS;
  }
}
