package io.cairn.snapshot.store;

/**
 * The steps of writing and deleting a snapshot, in order, as {@link SnapshotPhaseListener} sees
 * them. A crash after any of them leaves either the snapshots there were before, or those plus the
 * complete new snapshot — never a partial one.
 */
public enum SnapshotPhase {
  /** The state writer returned; the state is in the transient directory (taking only). */
  STATE_WRITTEN,
  /** The metadata file was written and fsynced (taking only). */
  METADATA_WRITTEN,
  /** Half of the checksum file was written and flushed, the rest not yet (taking only). */
  CHECKSUM_FILE_HALF_WRITTEN,
  /** The checksum file, every file and the transient directory are fsynced; before the rename. */
  CHECKSUM_FILE_WRITTEN,
  /** The directory was renamed into the snapshots directory, which is not fsynced yet. */
  RENAMED,
  /** The snapshots directory was fsynced; before the store records the snapshot and retention. */
  PERSISTED,
  /** A snapshot was moved out of the snapshots directory for deletion; its files remain. */
  DELETING
}
