package io.cairn.raft.consensus;

/**
 * Deliberately broken behaviour, for tests only: they prove that the simulation's invariant checker
 * catches a member that breaks Raft's voting rules. Production code uses {@link #NONE}.
 *
 * @param allowSecondVote a member may vote for another candidate in a term it already voted in
 * @param skipLogUpToDateCheck a member votes without checking that the candidate's log is at least
 *     as up to date as its own
 */
public record UnsafeOptions(boolean allowSecondVote, boolean skipLogUpToDateCheck) {

  public static final UnsafeOptions NONE = new UnsafeOptions(false, false);

  public boolean isSafe() {
    return !allowSecondVote && !skipLogUpToDateCheck;
  }
}
