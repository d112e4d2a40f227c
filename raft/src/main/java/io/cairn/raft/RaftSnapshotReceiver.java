package io.cairn.raft;

/**
 * Receives a snapshot from the leader, chunk by chunk, into a temporary place. Nothing is visible
 * until {@link #commit()} succeeds; after {@link #abort()} nothing is left behind.
 */
public interface RaftSnapshotReceiver {

  /** The log index the received snapshot covers. */
  long index();

  /** The term of that index. */
  long term();

  /**
   * Accepts the next chunk. Chunks arrive in order, starting at 0.
   *
   * @return false if the chunk is corrupt (its checksum does not match its data) or out of order;
   *     the receiver then accepts nothing more and must be aborted
   */
  boolean accept(RaftSnapshotChunk chunk);

  /**
   * Verifies the whole snapshot (every chunk received, whole-snapshot checksum) and makes it the
   * latest snapshot atomically.
   *
   * @return false if verification failed; nothing was committed and the receiver must be aborted
   */
  boolean commit();

  /** Drops everything received. Safe to call more than once and after a failed commit. */
  void abort();
}
