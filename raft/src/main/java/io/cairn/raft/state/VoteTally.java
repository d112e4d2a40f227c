package io.cairn.raft.state;

import java.util.HashSet;
import java.util.Set;

/** Counts granted and rejected votes of one election round; each voter counts once. */
public final class VoteTally {

  private final int memberCount;
  private final Set<Integer> granted = new HashSet<>();
  private final Set<Integer> rejected = new HashSet<>();

  VoteTally(int memberCount, int localId) {
    this.memberCount = memberCount;
    granted.add(localId);
  }

  public void record(int voterId, boolean grant) {
    if (granted.contains(voterId) || rejected.contains(voterId)) {
      return;
    }
    (grant ? granted : rejected).add(voterId);
  }

  public boolean isWon() {
    return granted.size() > memberCount / 2;
  }

  public boolean isLost() {
    // lost once the rejections leave fewer possible grants than a majority
    return rejected.size() >= memberCount - memberCount / 2;
  }

  public boolean hasVoteOf(int voterId) {
    return granted.contains(voterId) || rejected.contains(voterId);
  }
}
