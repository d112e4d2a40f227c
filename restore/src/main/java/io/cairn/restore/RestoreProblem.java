package io.cairn.restore;

import io.cairn.restore.RestoreException.Kind;

/**
 * The catalogue of what can stop a restore or a verification: every {@link RestoreException} names
 * one, the command line prints it before the message, and {@code docs/troubleshooting.md} has a
 * section of the same name saying what it means and what to do (a test keeps the two equal).
 */
public enum RestoreProblem {
  // ---- the target or the backup does not fit ---------------------------------------------------
  /** The data directory to restore into holds files. */
  TARGET_NOT_EMPTY(Kind.REFUSED),
  /** The scratch directory of a verification holds files. */
  SCRATCH_NOT_EMPTY(Kind.REFUSED),
  /** The backup was taken by a cluster with another partition count than the one configured. */
  PARTITION_COUNT_MISMATCH(Kind.REFUSED),
  /** The partitions of one backup id record different partition counts: two clusters' copies. */
  PARTITION_COUNTS_DIFFER(Kind.REFUSED),
  /** No copy of a partition was taken by a broker version this one can restore. */
  VERSION_INCOMPATIBLE(Kind.REFUSED),
  /** The time to restore to lies in the future. */
  TIME_IN_FUTURE(Kind.REFUSED),
  /** The restore point lies before the checkpoint of the backup chosen to start from. */
  RESTORE_POINT_BEFORE_BACKUP(Kind.REFUSED),
  /** Verify was asked for a restore point; it verifies backups only. */
  VERIFY_RESTORE_POINT_UNSUPPORTED(Kind.REFUSED),

  // ---- nothing to restore
  // ------------------------------------------------------------------------
  /** No partition holds a backup with the id asked for. */
  BACKUP_NOT_FOUND(Kind.NOT_FOUND),
  /** No backup (at or below the id asked for) is COMPLETED on every partition. */
  NO_COMPLETED_BACKUP(Kind.NOT_FOUND),
  /** The log archive holds no restore point at all. */
  NO_RESTORE_POINTS(Kind.NOT_FOUND),
  /** No restore point at or before the time asked for exists on every partition. */
  NO_RESTORE_POINT_AT_TIME(Kind.NOT_FOUND),
  /** A partition's archive does not record the restore point asked for. */
  RESTORE_POINT_NOT_FOUND(Kind.NOT_FOUND),
  /** The restore point is recorded, but the archive has not stored its records yet. */
  RESTORE_POINT_NOT_ARCHIVED(Kind.NOT_FOUND),

  // ---- the backup cannot be used as it is
  // --------------------------------------------------------
  /** The backup is FAILED, IN_PROGRESS or missing on some partition. */
  BACKUP_NOT_COMPLETED(Kind.NOT_COMPLETED),
  /** A stored file does not match the size or checksum its backup recorded, or is missing. */
  FILE_CORRUPTED(Kind.CORRUPTED),
  /** A manifest cannot be read or does not describe the backup it is stored under. */
  MANIFEST_UNTRUSTWORTHY(Kind.CORRUPTED),
  /** The backup's log segments do not hold a valid log up to the checkpoint. */
  BACKUP_LOG_INVALID(Kind.CORRUPTED),
  /** The backup's snapshot is damaged or does not fit the backup's log. */
  SNAPSHOT_INVALID(Kind.CORRUPTED),
  /** The log archive has a gap, a break in its chain or a damaged chunk. */
  ARCHIVE_DAMAGED(Kind.CORRUPTED),

  // ---- something failed on the way
  // ---------------------------------------------------------------
  /** A call to the backup store failed. */
  STORE_FAILED(Kind.FAILED),
  /** A call to the backup store did not finish within the restore's timeout. */
  STORE_TIMEOUT(Kind.FAILED),
  /** Reading or writing the local file system failed. */
  LOCAL_IO_FAILED(Kind.FAILED),
  /** The process was interrupted (stopped) while restoring. */
  INTERRUPTED(Kind.FAILED);

  private final Kind kind;

  RestoreProblem(Kind kind) {
    this.kind = kind;
  }

  /** The category a command line maps to its exit code. */
  public Kind kind() {
    return kind;
  }
}
