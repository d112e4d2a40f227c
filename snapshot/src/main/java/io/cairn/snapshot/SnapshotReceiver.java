package io.cairn.snapshot;

import java.util.Optional;

/**
 * Receives a snapshot chunk by chunk into a transient directory of the store. Nothing is visible
 * until {@link #commit()} succeeds; after {@link #abort()}, or a rejected chunk followed by {@link
 * #abort()}, nothing is left behind. Used by one thread.
 *
 * <p>The first chunks must be the checksum file's; its CRC32C must equal the chunks' snapshot
 * checksum. Every later file must be listed in it, arrive in its order, and match its size and
 * CRC32C once complete.
 */
public interface SnapshotReceiver {

  /** The raft index the snapshot covers. */
  long index();

  /** The raft term of that index. */
  long term();

  /**
   * Accepts the next chunk and writes it.
   *
   * @return false if the chunk is corrupt (its checksum does not match), out of order, does not
   *     belong to this snapshot, or completes a file that does not match the checksum file; the
   *     receiver then accepts nothing more and must be aborted
   */
  boolean accept(SnapshotChunk chunk);

  /**
   * Verifies that every chunk arrived, every file matched, and the metadata names this receiver's
   * index and term; then fsyncs and persists the snapshot atomically (retention applies).
   *
   * @return the persisted snapshot (or the existing one with the same id), or empty if the
   *     verification failed or the snapshot is older than the latest one; then nothing was
   *     committed and the receiver must be aborted
   */
  Optional<PersistedSnapshot> commit();

  /** Deletes everything received. Idempotent; safe after a failed commit; a no-op after success. */
  void abort();
}
