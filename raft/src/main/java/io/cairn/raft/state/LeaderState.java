package io.cairn.raft.state;

import io.cairn.raft.RaftRole;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * Leads {@link #term()}: tracks each follower's progress, decides the commit index, and steps down
 * when it has not heard from a majority for an election timeout.
 */
public final class LeaderState implements RoleState {

  private final long term;
  private final int localId;
  private final Map<Integer, FollowerProgress> followers = new TreeMap<>();
  private long quorumCheckDeadlineMs;

  LeaderState(
      long term, int localId, Collection<Integer> others, long nextIndex, long quorumDeadlineMs) {
    this.term = term;
    this.localId = localId;
    for (int member : others) {
      followers.put(member, new FollowerProgress(member, nextIndex));
    }
    this.quorumCheckDeadlineMs = quorumDeadlineMs;
  }

  @Override
  public RaftRole role() {
    return RaftRole.LEADER;
  }

  @Override
  public long term() {
    return term;
  }

  @Override
  public int leaderId() {
    return localId;
  }

  public Collection<FollowerProgress> followers() {
    return followers.values();
  }

  public FollowerProgress follower(int memberId) {
    return followers.get(memberId);
  }

  /** The highest index stored by a majority, counting the leader's flushed index for itself. */
  public long majorityMatchIndex(long localFlushedIndex) {
    long[] matches = new long[followers.size() + 1];
    int i = 0;
    matches[i++] = localFlushedIndex;
    for (FollowerProgress progress : followers.values()) {
      matches[i++] = progress.matchIndex();
    }
    Arrays.sort(matches);
    // ascending: the member at position (n - majority) and everyone above it have at least this
    int majority = matches.length / 2 + 1;
    return matches[matches.length - majority];
  }

  public long quorumCheckDeadlineMs() {
    return quorumCheckDeadlineMs;
  }

  /**
   * At the quorum check deadline: true when a majority (the leader included) answered within the
   * last {@code electionTimeoutMs}; the next check is one election timeout later.
   */
  public boolean checkQuorum(long nowMs, long electionTimeoutMs) {
    int heard = 1;
    for (FollowerProgress progress : followers.values()) {
      if (nowMs - progress.lastResponseMs() < electionTimeoutMs) {
        heard++;
      }
    }
    quorumCheckDeadlineMs = nowMs + electionTimeoutMs;
    return heard > (followers.size() + 1) / 2;
  }

  /** Closes snapshot readers; called when leadership ends. */
  void close() {
    followers.values().forEach(FollowerProgress::endSnapshotTransfer);
  }

  @Override
  public String toString() {
    return "Leader{term=" + term + ", followers=" + followers.values() + '}';
  }
}
