package io.cairn.raft.storage;

/**
 * What a raft member must remember across restarts.
 *
 * @param term the highest term this member has seen
 * @param votedFor the member it voted for in {@code term}, or {@link #NO_VOTE}
 */
public record RaftMeta(long term, int votedFor) {

  public static final int NO_VOTE = -1;

  /** The state of a member that never ran. */
  public static final RaftMeta INITIAL = new RaftMeta(0, NO_VOTE);

  public RaftMeta {
    if (term < 0) {
      throw new IllegalArgumentException("Expected term >= 0, but was " + term + " (raft meta)");
    }
    if (votedFor < NO_VOTE) {
      throw new IllegalArgumentException(
          "Expected votedFor >= -1, but was " + votedFor + " (raft meta)");
    }
  }

  public boolean hasVoted() {
    return votedFor != NO_VOTE;
  }
}
