package io.cairn.raft.consensus;

import io.cairn.raft.protocol.RaftMessage.TimeoutNow;
import io.cairn.raft.state.FollowerProgress;
import io.cairn.raft.state.FollowerState;
import io.cairn.raft.state.LeaderState;
import io.cairn.raft.state.RoleState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands leadership to the group's preferred member (leadership transfer, Raft thesis §3.10), so
 * that the leaders of many groups spread over their members instead of staying wherever the first
 * election happened to end.
 *
 * <p>A leader that is not the preferred member waits a settle time (one election timeout after it
 * became leader). Then, on a tick where the preferred member is in sync — it holds every committed
 * entry (match index ≥ commit index), receives no snapshot, and answered within an election timeout
 * — the transfer starts: the leader appends nothing new ({@link #isTransferring()}), so the
 * target's log can only catch up with its own, and it sends the target {@link TimeoutNow} as soon
 * as the target holds every entry of its log (match index = last index): at once, or on the append
 * response that gets it there (Raft thesis §3.10: "the prior leader fully updates the target
 * server's log to match its own log"). Waiting for an exact match on a tick instead is a bet that
 * no entry is in flight at that moment, which a leader under steady writes loses for as long as the
 * writes go on. The target starts an election at once, without pre-vote; its vote request (a higher
 * term, a log as recent as the leader's) makes the leader step down, and every member votes for it
 * under Raft's usual rules.
 *
 * <p>A transfer ends <b>completed</b> when this member learns that the target leads a later term,
 * and <b>failed</b> when this member still leads one election timeout after the transfer started
 * (whether the target did not catch up or did not take over; it then leads on and appends again),
 * leads again later, or learns of another leader. After a failure the next attempt waits {@code
 * electionTimeout × 2^failures} (at most {@value #BACKOFF_EXPONENT_MAX} doublings), so a preferred
 * member that cannot win does not make leadership flap; the count goes back to zero when the
 * preferred member is seen leading.
 *
 * <p>Pure like {@link RaftNode}: {@code nowMs} in, messages to the outbox and events to the
 * listener.
 */
final class LeadershipTransfer {

  private static final Logger LOG = LoggerFactory.getLogger(LeadershipTransfer.class);
  static final int BACKOFF_EXPONENT_MAX = 6;

  private final RaftNode node;
  private final int preferredId;
  private long notBeforeMs;
  private int failures;
  private int target = -1;
  private long transferTerm;
  private long deadlineMs = Long.MAX_VALUE;
  private boolean timeoutNowSent;

  /**
   * @param preferredId the member that should lead, -1 for none (then nothing ever happens here)
   */
  LeadershipTransfer(RaftNode node, int preferredId) {
    this.node = node;
    this.preferredId = preferredId;
  }

  /** True while this member leads the term of a transfer it started: it appends nothing new. */
  boolean isTransferring() {
    return target >= 0 && node.quorum.isLeader() && node.quorum.term() == transferTerm;
  }

  /** The member a running transfer hands leadership to, or -1. */
  int target() {
    return isTransferring() ? target : -1;
  }

  /** When a running transfer gives up; Long.MAX_VALUE when none runs. */
  long deadlineMs() {
    return isTransferring() ? deadlineMs : Long.MAX_VALUE;
  }

  /** This member just became leader: a transfer it started earlier did not work out. */
  void onBecameLeader(long nowMs) {
    if (target >= 0) {
      end(false, "this member leads term " + node.quorum.term() + " itself", -1);
    }
    notBeforeMs = Math.max(notBeforeMs, nowMs + waitMs());
  }

  /** A tick as leader: gives up a transfer past its deadline, or starts one when it is due. */
  void onLeaderTick(LeaderState leader, long nowMs) {
    if (isTransferring()) {
      if (nowMs >= deadlineMs) {
        end(
            false,
            timeoutNowSent
                ? "it did not take over within " + node.electionTimeoutMs + " ms"
                : "it did not catch up within " + node.electionTimeoutMs + " ms",
            nowMs);
      } else {
        sendTimeoutNowIfCaughtUp(leader);
      }
      return;
    }
    if (preferredId < 0 || preferredId == node.localId || nowMs < notBeforeMs) {
      return;
    }
    FollowerProgress progress = leader.follower(preferredId);
    boolean inSync =
        progress != null
            && progress.snapshotTransfer() == null
            && progress.matchIndex() >= node.commitIndex()
            && nowMs - progress.lastResponseMs() < node.electionTimeoutMs;
    if (!inSync) {
      return;
    }
    target = preferredId;
    transferTerm = leader.term();
    deadlineMs = nowMs + node.electionTimeoutMs;
    timeoutNowSent = false;
    LOG.info(
        "Partition {} node {} hands leadership of term {} to preferred member {} (it holds index"
            + " {} of {}; appends wait until it has them all)",
        node.partitionId,
        node.localId,
        transferTerm,
        target,
        progress.matchIndex(),
        node.log.lastIndex());
    node.listener.onLeadershipTransferStarted(target, transferTerm);
    sendTimeoutNowIfCaughtUp(leader);
  }

  /**
   * An append response from {@code from} was handled as leader: sends {@link TimeoutNow} if it got
   * the target of a running transfer to the last index.
   */
  void onAppendResponse(LeaderState leader, int from) {
    if (from == target && isTransferring()) {
      sendTimeoutNowIfCaughtUp(leader);
    }
  }

  /** Sends the target {@link TimeoutNow} once, when it holds every entry of this member's log. */
  private void sendTimeoutNowIfCaughtUp(LeaderState leader) {
    if (timeoutNowSent) {
      return;
    }
    FollowerProgress progress = leader.follower(target);
    long lastIndex = node.log.lastIndex();
    if (progress == null
        || progress.snapshotTransfer() != null
        || progress.matchIndex() != lastIndex) {
      return; // nothing new is appended meanwhile: its next acknowledgement may get it there
    }
    timeoutNowSent = true;
    LOG.debug(
        "Partition {} node {}: preferred member {} holds every entry up to index {}; sending"
            + " TimeoutNow for term {}",
        node.partitionId,
        node.localId,
        target,
        lastIndex,
        transferTerm);
    node.send(target, new TimeoutNow(transferTerm, node.localId));
  }

  /**
   * Ends a running transfer as failed before its deadline (the leader leads on at once).
   *
   * @return whether a transfer was running
   */
  boolean abort(long nowMs, String reason) {
    if (!isTransferring()) {
      return false;
    }
    end(false, reason, nowMs);
    return true;
  }

  /** Every role change: learns how a transfer ended, and when the preferred member leads. */
  void onTransition(RoleState next) {
    if (!(next instanceof FollowerState follower) || follower.leaderId() < 0) {
      return;
    }
    if (follower.leaderId() == preferredId) {
      failures = 0;
    }
    if (target >= 0 && follower.term() > transferTerm) {
      boolean completed = follower.leaderId() == target;
      end(completed, "member " + follower.leaderId() + " leads term " + follower.term(), -1);
    }
  }

  /**
   * @param leadingOnAtMs when this member still leads: now (the next attempt is scheduled from it);
   *     -1 otherwise
   */
  private void end(boolean completed, String reason, long leadingOnAtMs) {
    int ended = target;
    long term = transferTerm;
    target = -1;
    deadlineMs = Long.MAX_VALUE;
    timeoutNowSent = false;
    if (completed) {
      failures = 0;
      LOG.debug(
          "Partition {} node {}: leadership transfer of term {} to {} completed: {}",
          node.partitionId,
          node.localId,
          term,
          ended,
          reason);
    } else {
      failures++;
      String next = "";
      if (leadingOnAtMs >= 0) {
        notBeforeMs = leadingOnAtMs + waitMs();
        next = "; leading on, next attempt in " + waitMs() + " ms at the earliest";
      }
      LOG.info(
          "Partition {} node {}: leadership transfer of term {} to {} failed: {}{}",
          node.partitionId,
          node.localId,
          term,
          ended,
          reason,
          next);
    }
    node.listener.onLeadershipTransferEnded(ended, term, completed);
  }

  private long waitMs() {
    return node.electionTimeoutMs << Math.min(failures, BACKOFF_EXPONENT_MAX);
  }
}
