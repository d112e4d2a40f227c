package io.cairn.raft.state;

import io.cairn.raft.RaftRole;

/**
 * Follows the leader of {@link #term()}, once known. Starts an election when it hears nothing from
 * a leader until the election deadline.
 */
public final class FollowerState implements RoleState {

  private final long term;
  private int leaderId;
  private long electionDeadlineMs;
  private long lastLeaderContactMs;

  FollowerState(long term, int leaderId, long electionDeadlineMs) {
    this.term = term;
    this.leaderId = leaderId;
    this.electionDeadlineMs = electionDeadlineMs;
    this.lastLeaderContactMs = Long.MIN_VALUE;
  }

  @Override
  public RaftRole role() {
    return RaftRole.FOLLOWER;
  }

  @Override
  public long term() {
    return term;
  }

  @Override
  public int leaderId() {
    return leaderId;
  }

  void leaderId(int leaderId) {
    this.leaderId = leaderId;
  }

  public long electionDeadlineMs() {
    return electionDeadlineMs;
  }

  /** Heard from the leader at {@code nowMs}: pushes the election deadline out. */
  public void onLeaderContact(long nowMs, long electionDeadlineMs) {
    this.lastLeaderContactMs = nowMs;
    this.electionDeadlineMs = electionDeadlineMs;
  }

  /** Granted a vote: pushes the election deadline out, so the candidate has time to win. */
  public void resetElectionDeadline(long electionDeadlineMs) {
    this.electionDeadlineMs = electionDeadlineMs;
  }

  /**
   * True when this member heard from a leader within {@code electionTimeoutMs} before now; it then
   * refuses pre-votes, so a member that was cut off cannot disturb a working leader.
   */
  public boolean hasRecentLeader(long nowMs, long electionTimeoutMs) {
    return leaderId >= 0
        && lastLeaderContactMs != Long.MIN_VALUE
        && nowMs - lastLeaderContactMs < electionTimeoutMs;
  }

  @Override
  public String toString() {
    return "Follower{term=" + term + ", leader=" + leaderId + '}';
  }
}
