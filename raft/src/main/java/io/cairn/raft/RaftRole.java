package io.cairn.raft;

/**
 * The role of a raft member. See {@code io.cairn.raft.state.QuorumState} for the transitions. The
 * code is the value of the {@code cairn.raft.role} gauge.
 */
public enum RaftRole {
  /** Not started yet, or closed. */
  INACTIVE(0),
  /** Replicates from a leader (known or not yet known). */
  FOLLOWER(1),
  /** Asks the others whether they would vote for it, without changing term. */
  PRE_CANDIDATE(2),
  /** Increased its term and asks for votes. */
  CANDIDATE(3),
  /** Accepts appends, replicates them and decides commits. */
  LEADER(4),
  /** Stopped because a safety invariant would break or storage failed; needs an operator. */
  FAILED(5);

  private final int code;

  RaftRole(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }
}
