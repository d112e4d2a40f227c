package io.cairn.raft;

/** Told, on the raft member's thread, when entries become committed. */
@FunctionalInterface
public interface RaftCommitListener {

  /** Every entry up to and including {@code commitIndex} is committed. Never decreases. */
  void onCommit(long commitIndex);

  /**
   * A snapshot from the leader replaced this member's log up to {@code index}: the application must
   * load its state from the snapshot store before it reads entries after {@code index}.
   */
  default void onSnapshotInstalled(long index, long term) {}
}
