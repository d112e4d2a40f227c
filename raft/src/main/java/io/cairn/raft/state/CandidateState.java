package io.cairn.raft.state;

import io.cairn.raft.RaftRole;

/** Voted for itself in {@link #term()} and asks the others for their votes. */
public final class CandidateState implements RoleState {

  private final long term;
  private final VoteTally tally;
  private final long electionDeadlineMs;

  CandidateState(long term, int memberCount, int localId, long electionDeadlineMs) {
    this.term = term;
    this.tally = new VoteTally(memberCount, localId);
    this.electionDeadlineMs = electionDeadlineMs;
  }

  @Override
  public RaftRole role() {
    return RaftRole.CANDIDATE;
  }

  @Override
  public long term() {
    return term;
  }

  public VoteTally tally() {
    return tally;
  }

  public long electionDeadlineMs() {
    return electionDeadlineMs;
  }

  @Override
  public String toString() {
    return "Candidate{term=" + term + '}';
  }
}
