package io.cairn.raft.state;

import io.cairn.raft.RaftRole;

/**
 * Asks the others whether they would grant a vote in term {@code term + 1}, without changing its
 * own term. Becomes candidate on a majority; otherwise starts a new round at its deadline.
 */
public final class PreCandidateState implements RoleState {

  private final long term;
  private final VoteTally tally;
  private final long electionDeadlineMs;

  PreCandidateState(long term, int memberCount, int localId, long electionDeadlineMs) {
    this.term = term;
    this.tally = new VoteTally(memberCount, localId);
    this.electionDeadlineMs = electionDeadlineMs;
  }

  @Override
  public RaftRole role() {
    return RaftRole.PRE_CANDIDATE;
  }

  @Override
  public long term() {
    return term;
  }

  /** The term this pre-vote round asks about. */
  public long proposedTerm() {
    return term + 1;
  }

  public VoteTally tally() {
    return tally;
  }

  public long electionDeadlineMs() {
    return electionDeadlineMs;
  }

  @Override
  public String toString() {
    return "PreCandidate{term=" + term + '}';
  }
}
