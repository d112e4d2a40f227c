package io.cairn.raft.consensus;

import io.cairn.raft.protocol.RaftMessage.TimeoutNow;
import io.cairn.raft.protocol.RaftMessage.VoteRequest;
import io.cairn.raft.protocol.RaftMessage.VoteResponse;
import io.cairn.raft.state.CandidateState;
import io.cairn.raft.state.FollowerState;
import io.cairn.raft.state.PreCandidateState;
import io.cairn.raft.state.RoleState;
import io.cairn.raft.storage.RaftMeta;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Elections: pre-vote rounds, vote rounds, and answering both.
 *
 * <p>A pre-vote is granted when the proposed term is above the voter's term, the candidate's log is
 * at least as up to date, and the voter has not heard from a leader within an election timeout (a
 * leader never grants one). Nobody changes term because of a pre-vote. A vote is granted once per
 * term, to a candidate whose log is at least as up to date, and stored before it is answered.
 *
 * <p>{@link TimeoutNow} from the leader of the member's term starts an election at once, without
 * pre-vote (leadership transfer). Its vote requests need no mark: the "heard from a leader
 * recently" rule applies to pre-votes only, and a vote request of a higher term makes every member,
 * the leader included, step to that term and vote under the usual rules.
 */
final class ElectionHandler {

  private static final Logger LOG = LoggerFactory.getLogger(ElectionHandler.class);

  private final RaftNode node;

  ElectionHandler(RaftNode node) {
    this.node = node;
  }

  /** The election deadline passed in FOLLOWER, PRE_CANDIDATE or CANDIDATE. */
  void onElectionTimeout(long nowMs) {
    RoleState state = node.quorum.state();
    if (node.config.preVote() && !(state instanceof CandidateState)) {
      startPreVote(nowMs);
    } else {
      startElection(nowMs);
    }
  }

  /**
   * The leader of {@code request.term()} hands leadership over: an election starts now, skipping
   * pre-vote. Ignored when it is of an older term (a late or duplicated message), and when this
   * member knows another leader of the term or leads it itself (only the term's leader sends it).
   */
  void onTimeoutNow(int from, TimeoutNow request, long nowMs) {
    long term = node.quorum.term();
    if (request.term() < term) {
      LOG.debug(
          "Ignoring TimeoutNow of stale term {} from {} in term {} (partition {}, node {})",
          request.term(),
          from,
          term,
          node.partitionId,
          node.localId);
      return;
    }
    int known = node.quorum.leaderId();
    if (request.term() == term && known >= 0 && known != from) {
      return;
    }
    node.becomeFollower(request.term(), from, nowMs);
    LOG.info(
        "Partition {} node {} takes over leadership from {}: election for term {} without pre-vote",
        node.partitionId,
        node.localId,
        from,
        request.term() + 1);
    startElection(nowMs);
  }

  void onVoteRequest(int from, VoteRequest request, long nowMs) {
    if (request.preVote()) {
      onPreVoteRequest(from, request, nowMs);
      return;
    }
    if (request.term() > node.quorum.term()) {
      node.becomeFollower(request.term(), -1, nowMs);
    }
    boolean granted = false;
    if (request.term() == node.quorum.term()
        && node.quorum.state() instanceof FollowerState follower) {
      int votedFor = node.quorum.votedFor();
      boolean free =
          votedFor == RaftMeta.NO_VOTE
              || votedFor == request.candidateId()
              || node.unsafe.allowSecondVote();
      if (free && (isUpToDate(request) || node.unsafe.skipLogUpToDateCheck())) {
        node.quorum.grantVote(request.candidateId());
        follower.resetElectionDeadline(node.randomElectionDeadline(nowMs));
        granted = true;
      }
    }
    node.send(from, new VoteResponse(node.quorum.term(), request.term(), granted, false));
  }

  private void onPreVoteRequest(int from, VoteRequest request, long nowMs) {
    RoleState state = node.quorum.state();
    boolean recentLeader =
        node.quorum.isLeader()
            || (state instanceof FollowerState follower
                && follower.hasRecentLeader(nowMs, node.electionTimeoutMs));
    boolean granted =
        request.term() > node.quorum.term()
            && !recentLeader
            && (isUpToDate(request) || node.unsafe.skipLogUpToDateCheck());
    node.send(from, new VoteResponse(node.quorum.term(), request.term(), granted, true));
  }

  void onVoteResponse(int from, VoteResponse response, long nowMs) {
    long term = node.quorum.term();
    if (response.term() > term && !response.granted()) {
      node.becomeFollower(response.term(), -1, nowMs);
      return;
    }
    RoleState state = node.quorum.state();
    if (response.preVote()) {
      if (state instanceof PreCandidateState preCandidate
          && response.requestTerm() == preCandidate.proposedTerm()) {
        preCandidate.tally().record(from, response.granted());
        if (preCandidate.tally().isWon()) {
          startElection(nowMs);
        }
      }
    } else if (state instanceof CandidateState candidate
        && response.requestTerm() == candidate.term()
        && response.term() == candidate.term()) {
      candidate.tally().record(from, response.granted());
      if (candidate.tally().isWon()) {
        node.becomeLeader(nowMs);
      }
    }
  }

  private void startPreVote(long nowMs) {
    PreCandidateState preCandidate =
        node.quorum.becomePreCandidate(node.randomElectionDeadline(nowMs));
    if (preCandidate.tally().isWon()) {
      startElection(nowMs);
      return;
    }
    node.sendToOthers(
        new VoteRequest(
            preCandidate.proposedTerm(),
            node.localId,
            node.log.lastIndex(),
            node.log.lastTerm(),
            true));
  }

  private void startElection(long nowMs) {
    CandidateState candidate = node.quorum.becomeCandidate(node.randomElectionDeadline(nowMs));
    if (candidate.tally().isWon()) {
      node.becomeLeader(nowMs);
      return;
    }
    node.sendToOthers(
        new VoteRequest(
            candidate.term(), node.localId, node.log.lastIndex(), node.log.lastTerm(), false));
  }

  /** Raft's election restriction: the candidate's last entry is at least as recent as ours. */
  private boolean isUpToDate(VoteRequest request) {
    long lastTerm = node.log.lastTerm();
    if (request.lastLogTerm() != lastTerm) {
      return request.lastLogTerm() > lastTerm;
    }
    return request.lastLogIndex() >= node.log.lastIndex();
  }
}
