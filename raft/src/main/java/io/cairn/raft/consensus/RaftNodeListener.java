package io.cairn.raft.consensus;

import io.cairn.raft.RaftRole;

/** Events of the decision code, called on its thread right after the change. */
public interface RaftNodeListener {

  /** The role, the term or the known leader changed. */
  default void onRoleChange(RaftRole role, long term, int leaderId) {}

  /** The commit index grew to {@code commitIndex}. */
  default void onCommit(long commitIndex) {}

  /** Every entry after {@code lastKeptIndex} was deleted (it conflicted with the leader's log). */
  default void onTruncated(long lastKeptIndex) {}

  /** A snapshot from the leader replaced the log up to {@code index}. */
  default void onSnapshotInstalled(long index, long term) {}

  /** This member, leader of {@code term}, asked {@code target} to take over (TimeoutNow sent). */
  default void onLeadershipTransferStarted(int target, long term) {}

  /**
   * The transfer this member started in {@code term} ended: {@code completed} when {@code target}
   * leads a later term, false when it did not take over (this member leads on, or another leads).
   */
  default void onLeadershipTransferEnded(int target, long term, boolean completed) {}
}
