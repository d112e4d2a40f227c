package io.cairn.snapshot;

import java.util.Iterator;

/**
 * Reads a persisted snapshot as {@link SnapshotChunk}s, in order. Holds a reservation on the
 * snapshot until closed, so the chunks stay readable even if newer snapshots are persisted
 * meanwhile. Used by one thread.
 *
 * <p>{@link #next()} throws {@link SnapshotException} if a file cannot be read, or changed size
 * since the snapshot was persisted.
 */
public interface SnapshotChunkReader extends Iterator<SnapshotChunk>, AutoCloseable {

  /** The snapshot being read. */
  PersistedSnapshot snapshot();

  /** How many chunks the snapshot has (known before the first is read). */
  int chunkCount();

  /** Releases the reservation. Idempotent. */
  @Override
  void close();
}
