package io.cairn.raft;

import java.util.OptionalInt;

/** The outcome of {@code RaftServer.append}: written locally by the leader, or not the leader. */
public sealed interface AppendResult {

  /**
   * The entry is written and flushed on the leader; it is committed once a majority has it.
   *
   * @param index the raft index of the entry
   * @param term the term it was written in (the same index in another term is another entry)
   */
  record Appended(long index, long term, long lowestPosition, long highestPosition)
      implements AppendResult {}

  /**
   * This member is not the leader; nothing was written.
   *
   * @param leaderId the leader this member knows of in its current term, or -1 when unknown
   * @param term this member's current term
   */
  record NotLeader(int leaderId, long term) implements AppendResult {

    /** The known leader, to retry there. */
    public OptionalInt leader() {
      return leaderId < 0 ? OptionalInt.empty() : OptionalInt.of(leaderId);
    }
  }
}
