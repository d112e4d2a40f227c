package io.cairn.backupapi;

/**
 * The catalogue of why a backup ends FAILED: the failure reason a partition's backup records starts
 * with one of these names ({@code "LEADER_CHANGED: ..."}), and {@code docs/troubleshooting.md} has
 * a section of the same name saying what it means and what to do (a test keeps the two equal).
 */
public enum BackupFailure {
  /** The member that took the backup stopped leading the partition before the backup finished. */
  LEADER_CHANGED,
  /** No snapshot could be reserved for the checkpoint (none below it, or the store refused). */
  SNAPSHOT_UNAVAILABLE,
  /** More backups waited to upload on the partition than its queue allows. */
  QUEUE_FULL,
  /** Writing the backup's files or manifest to the store failed. */
  UPLOAD_FAILED;

  /** The failure reason to record: this failure's name, then {@code detail}. */
  public String reason(String detail) {
    return name() + ": " + detail;
  }
}
