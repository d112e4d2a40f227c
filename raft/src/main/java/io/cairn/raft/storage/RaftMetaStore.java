package io.cairn.raft.storage;

/**
 * Durable storage of a member's term and vote. Raft's safety depends on it: a member must never
 * vote twice in a term or go back to an older term, even after a crash.
 */
public interface RaftMetaStore extends AutoCloseable {

  /** The last stored meta, or {@link RaftMeta#INITIAL} when nothing was ever stored. */
  RaftMeta load();

  /**
   * Stores the meta durably. Returns only after it is on disk: a crash after the return loads this
   * value (or a later one); a crash during the call loads this value or the previous one.
   */
  void store(RaftMeta meta);

  @Override
  void close();
}
