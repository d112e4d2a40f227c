package io.cairn.raft.state;

/**
 * What the leader knows about one follower: the next index to send, the highest index known to
 * match, the pipeline of unanswered appends, and a snapshot transfer when the follower needs
 * entries that were compacted.
 */
public final class FollowerProgress {

  private final int memberId;
  private long nextIndex;
  private long matchIndex;
  private int inFlight;
  private long lastSendMs = Long.MIN_VALUE / 2;
  private long lastResponseMs = Long.MIN_VALUE / 2;
  private long lastSentCommit;
  private SnapshotTransfer snapshotTransfer;

  FollowerProgress(int memberId, long nextIndex) {
    this.memberId = memberId;
    this.nextIndex = nextIndex;
  }

  public int memberId() {
    return memberId;
  }

  public long nextIndex() {
    return nextIndex;
  }

  public long matchIndex() {
    return matchIndex;
  }

  public int inFlight() {
    return inFlight;
  }

  public long lastSendMs() {
    return lastSendMs;
  }

  public long lastResponseMs() {
    return lastResponseMs;
  }

  public long lastSentCommit() {
    return lastSentCommit;
  }

  public SnapshotTransfer snapshotTransfer() {
    return snapshotTransfer;
  }

  /** Sent an append with entries up to {@code lastIndex} (or a heartbeat when none). */
  public void onAppendSent(long lastIndex, boolean hasEntries, long commitIndex, long nowMs) {
    if (hasEntries) {
      nextIndex = lastIndex + 1;
      inFlight++;
    }
    lastSentCommit = commitIndex;
    lastSendMs = nowMs;
  }

  /** The follower matches up to {@code index}. */
  public void onAppendSuccess(long index, boolean hadEntries, long nowMs) {
    matchIndex = Math.max(matchIndex, index);
    nextIndex = Math.max(nextIndex, matchIndex + 1);
    if (hadEntries && inFlight > 0) {
      inFlight--;
    }
    lastResponseMs = nowMs;
  }

  /**
   * The follower does not match before {@code retryIndex}: empties the pipeline, sends from there.
   */
  public void onAppendFailure(long retryIndex, long nowMs) {
    nextIndex = Math.max(matchIndex + 1, Math.min(nextIndex, retryIndex));
    inFlight = 0;
    lastResponseMs = nowMs;
  }

  /** Any response arrived from the follower. */
  public void onResponse(long nowMs) {
    lastResponseMs = nowMs;
  }

  /** No answer within the request timeout: sends again from the last index known to match. */
  public void onRequestTimeout() {
    nextIndex = matchIndex + 1;
    inFlight = 0;
  }

  public void startSnapshotTransfer(SnapshotTransfer transfer) {
    this.snapshotTransfer = transfer;
  }

  /** The follower installed the snapshot: replication continues after it. */
  public void onSnapshotInstalled(long snapshotIndex, long nowMs) {
    endSnapshotTransfer();
    matchIndex = Math.max(matchIndex, snapshotIndex);
    nextIndex = matchIndex + 1;
    inFlight = 0;
    lastResponseMs = nowMs;
  }

  /**
   * Ends a transfer that could not finish: replication starts over from the last index known to
   * match, which starts a new transfer from the latest snapshot when the follower still needs one.
   */
  public void abandonSnapshotTransfer() {
    endSnapshotTransfer();
    onRequestTimeout();
  }

  public void endSnapshotTransfer() {
    if (snapshotTransfer != null) {
      snapshotTransfer.close();
      snapshotTransfer = null;
    }
  }

  public void onSnapshotChunkSent(long nowMs) {
    lastSendMs = nowMs;
  }

  @Override
  public String toString() {
    return "FollowerProgress{member="
        + memberId
        + ", next="
        + nextIndex
        + ", match="
        + matchIndex
        + ", inFlight="
        + inFlight
        + (snapshotTransfer != null ? ", snapshot=" + snapshotTransfer : "")
        + '}';
  }
}
