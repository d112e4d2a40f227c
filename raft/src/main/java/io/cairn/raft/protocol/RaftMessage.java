package io.cairn.raft.protocol;

import io.cairn.journal.JournalRecord;
import io.cairn.raft.RaftSnapshotChunk;
import java.util.List;
import java.util.Objects;

/**
 * The messages raft members exchange. All are one-way: a response is a message of its own, which
 * carries everything the receiver needs to act on it, so that lost, duplicated and reordered
 * messages are all harmless. Every message carries the sender's term.
 */
public sealed interface RaftMessage {

  long term();

  /**
   * Asks for a vote ({@code preVote=false}) or for a pre-vote ({@code preVote=true}). In a pre-vote
   * {@code term} is the term the candidate would start; nobody changes term because of it.
   */
  record VoteRequest(
      long term, int candidateId, long lastLogIndex, long lastLogTerm, boolean preVote)
      implements RaftMessage {}

  /**
   * @param term the voter's current term
   * @param requestTerm the term of the request being answered
   */
  record VoteResponse(long term, long requestTerm, boolean granted, boolean preVote)
      implements RaftMessage {}

  /** Entries (possibly none: a heartbeat) that follow {@code prevLogIndex}/{@code prevLogTerm}. */
  record AppendRequest(
      long term,
      int leaderId,
      long prevLogIndex,
      long prevLogTerm,
      long leaderCommit,
      List<JournalRecord> entries)
      implements RaftMessage {
    public AppendRequest {
      entries = List.copyOf(Objects.requireNonNull(entries, "entries"));
    }
  }

  /**
   * @param success whether the follower's log now matches the leader's up to {@code matchIndex}
   * @param matchIndex on success, prevLogIndex + number of entries of the answered request
   * @param entryCount number of entries of the answered request (0 for a heartbeat)
   * @param conflictIndex on failure, the index the leader should try next
   * @param conflictTerm on failure, the term of the follower's entry at prevLogIndex, -1 if none
   */
  record AppendResponse(
      long term,
      boolean success,
      long matchIndex,
      int entryCount,
      long conflictIndex,
      long conflictTerm)
      implements RaftMessage {}

  /** One chunk of the leader's snapshot at {@code snapshotIndex}/{@code snapshotTerm}. */
  record InstallSnapshotRequest(
      long term, int leaderId, long snapshotIndex, long snapshotTerm, RaftSnapshotChunk chunk)
      implements RaftMessage {}

  /**
   * The leader of {@code term} asks the receiver to take over leadership (Raft thesis §3.10): it
   * starts an election at once, without pre-vote. Sent only to a member whose log holds every entry
   * of the leader's; no answer, the vote request that follows is the effect.
   */
  record TimeoutNow(long term, int leaderId) implements RaftMessage {}

  /** The follower's answer to one snapshot chunk. */
  record InstallSnapshotResponse(long term, long snapshotIndex, int chunkIndex, Status status)
      implements RaftMessage {

    /** What the follower did with the chunk. */
    public enum Status {
      /** Stored; send the next chunk. */
      ACCEPTED,
      /** The snapshot is installed (or the follower already has its entries). */
      INSTALLED,
      /** Corrupt, out of order or failed verification: start again from chunk 0. */
      REJECTED
    }
  }
}
