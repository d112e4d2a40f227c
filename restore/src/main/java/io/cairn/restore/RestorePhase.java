package io.cairn.restore;

/** Where one partition's restore or verification stands. */
public enum RestorePhase {
  /** Fetching the backup's files from the store and checking each file's size and CRC32C. */
  DOWNLOADING,
  /** Installing the segments (cut at the checkpoint) and the snapshot into the data directory. */
  INSTALLING,
  /** Verify only: rebuilding the state (snapshot + replay + processing up to the checkpoint). */
  REBUILDING,
  /** Done; the partition is restored (or verified). */
  DONE,
  /** Failed; see the restore's exception or the verification's report. */
  FAILED
}
