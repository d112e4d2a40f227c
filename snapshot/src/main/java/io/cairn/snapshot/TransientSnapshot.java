package io.cairn.snapshot;

/**
 * A snapshot being taken: invisible to every reader until {@link #persist()} succeeds. Used by one
 * thread at a time.
 *
 * <p>Life cycle: {@link #writeState} once, then {@link #persist()}; {@link #abort()} at any point
 * deletes what was written. Once persisted or aborted it accepts nothing more. If the process dies
 * first, the next {@link SnapshotStore} opened on the directory deletes the leftovers.
 */
public interface TransientSnapshot {

  /** The id the snapshot will have. */
  SnapshotId id();

  /** The metadata it will be persisted with. */
  SnapshotMetadata metadata();

  /**
   * Lets {@code writer} write the state into the snapshot's directory.
   *
   * @throws IllegalStateException if state was written already, or the snapshot was persisted or
   *     aborted
   * @throws SnapshotException if the writer fails (the snapshot is aborted), or it wrote a
   *     subdirectory or a file named like the metadata or checksum file
   */
  void writeState(SnapshotStateWriter writer);

  /**
   * Writes the metadata file and then the checksum file (CRC32C of every file, last), fsyncs every
   * file and the directory, and renames the directory atomically into the snapshots directory; then
   * applies retention. If a snapshot with the same id exists already, this one is dropped and the
   * existing one returned.
   *
   * @return the persisted snapshot
   * @throws IllegalStateException if no state was written, or the snapshot was aborted
   * @throws StaleSnapshotException if a newer snapshot was persisted meanwhile (this one is
   *     aborted)
   * @throws SnapshotException if the file system fails (this one is aborted)
   */
  PersistedSnapshot persist();

  /** Deletes everything written. Idempotent; a no-op after {@link #persist()} succeeded. */
  void abort();
}
