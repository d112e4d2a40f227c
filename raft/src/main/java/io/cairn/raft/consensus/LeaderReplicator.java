package io.cairn.raft.consensus;

import io.cairn.journal.JournalRecord;
import io.cairn.raft.RaftSnapshot;
import io.cairn.raft.RaftSnapshotChunk;
import io.cairn.raft.log.RaftLog;
import io.cairn.raft.protocol.RaftMessage.AppendRequest;
import io.cairn.raft.protocol.RaftMessage.AppendResponse;
import io.cairn.raft.protocol.RaftMessage.InstallSnapshotRequest;
import io.cairn.raft.protocol.RaftMessage.InstallSnapshotResponse;
import io.cairn.raft.state.FollowerProgress;
import io.cairn.raft.state.LeaderState;
import io.cairn.raft.state.SnapshotTransfer;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's side of replication. Per follower it pipelines up to {@code maxInFlightAppends}
 * append requests of at most {@code maxAppendBatchBytes} each, sends a heartbeat when idle for a
 * heartbeat interval (or when the follower has not seen the latest commit index), backs off on a
 * mismatch using the follower's conflict hint, sends again from the last acknowledged index when a
 * request goes unanswered, and sends the snapshot when the follower needs compacted entries.
 *
 * <p>The commit index advances to the highest index stored by a majority (the leader counts its
 * flushed index) whose entry is of the current term.
 */
final class LeaderReplicator {

  private static final Logger LOG = LoggerFactory.getLogger(LeaderReplicator.class);
  private static final int MAX_ENTRIES_PER_REQUEST = 4096;

  private final RaftNode node;

  LeaderReplicator(RaftNode node) {
    this.node = node;
  }

  void replicateAll(long nowMs) {
    if (node.quorum.state() instanceof LeaderState leader) {
      for (FollowerProgress progress : leader.followers()) {
        replicate(progress, nowMs);
      }
    }
  }

  void tick(long nowMs) {
    if (!(node.quorum.state() instanceof LeaderState leader)) {
      return;
    }
    if (nowMs >= leader.quorumCheckDeadlineMs()
        && !leader.checkQuorum(nowMs, node.electionTimeoutMs)) {
      LOG.info(
          "Partition {} node {} steps down in term {}: no majority answered within {} ms",
          node.partitionId,
          node.localId,
          leader.term(),
          node.electionTimeoutMs);
      node.becomeFollower(leader.term(), -1, nowMs);
      return;
    }
    for (FollowerProgress progress : leader.followers()) {
      boolean timedOut = nowMs - progress.lastSendMs() >= node.requestTimeoutMs;
      SnapshotTransfer transfer = progress.snapshotTransfer();
      if (transfer != null) {
        if (timedOut && transfer.isStopped()) {
          progress.abandonSnapshotTransfer(); // replicate() below starts from the latest snapshot
        } else if (timedOut) {
          sendChunk(progress, transfer, transfer.current(), nowMs); // unanswered: send it again
        }
      } else if (progress.inFlight() > 0 && timedOut) {
        progress.onRequestTimeout();
      }
      replicate(progress, nowMs);
    }
  }

  long nextDeadlineMs(LeaderState leader) {
    long deadline = leader.quorumCheckDeadlineMs();
    for (FollowerProgress progress : leader.followers()) {
      long due =
          progress.snapshotTransfer() != null || progress.inFlight() > 0
              ? progress.lastSendMs() + node.requestTimeoutMs
              : progress.lastSendMs() + node.heartbeatMs;
      deadline = Math.min(deadline, due);
    }
    return deadline;
  }

  /** Sends what the follower misses, within the pipeline bound, or a heartbeat when idle. */
  void replicate(FollowerProgress progress, long nowMs) {
    if (progress.snapshotTransfer() != null) {
      return; // driven by chunk responses and timeouts
    }
    RaftLog log = node.log;
    long term = node.quorum.term();
    int maxInFlight = node.config.maxInFlightAppends();
    while (progress.inFlight() < maxInFlight && progress.nextIndex() <= log.lastIndex()) {
      long prevIndex = progress.nextIndex() - 1;
      long prevTerm = log.termAt(prevIndex);
      if (progress.nextIndex() < log.firstIndex() || prevTerm == RaftLog.UNKNOWN_TERM) {
        startSnapshotTransfer(progress, nowMs);
        return;
      }
      List<JournalRecord> entries =
          log.read(
              progress.nextIndex(), node.config.maxAppendBatchBytes(), MAX_ENTRIES_PER_REQUEST);
      if (entries.isEmpty()) {
        break;
      }
      long lastSent = entries.get(entries.size() - 1).index();
      node.send(
          progress.memberId(),
          new AppendRequest(term, node.localId, prevIndex, prevTerm, node.commitIndex(), entries));
      progress.onAppendSent(lastSent, true, node.commitIndex(), nowMs);
    }
    boolean idle = progress.inFlight() == 0;
    boolean heartbeatDue = nowMs - progress.lastSendMs() >= node.heartbeatMs;
    boolean commitBehind = progress.lastSentCommit() < node.commitIndex();
    if (idle && (heartbeatDue || commitBehind)) {
      long prevIndex = progress.nextIndex() - 1;
      long prevTerm = log.termAt(prevIndex);
      if (prevTerm == RaftLog.UNKNOWN_TERM) {
        startSnapshotTransfer(progress, nowMs);
        return;
      }
      node.send(
          progress.memberId(),
          new AppendRequest(
              term, node.localId, prevIndex, prevTerm, node.commitIndex(), List.of()));
      progress.onAppendSent(prevIndex, false, node.commitIndex(), nowMs);
    }
  }

  void onAppendResponse(int from, AppendResponse response, long nowMs) {
    long term = node.quorum.term();
    if (response.term() > term) {
      node.becomeFollower(response.term(), -1, nowMs);
      return;
    }
    if (response.term() < term || !(node.quorum.state() instanceof LeaderState leader)) {
      return;
    }
    FollowerProgress progress = leader.follower(from);
    if (progress == null) {
      return;
    }
    if (response.success()) {
      if (response.matchIndex() > node.log.lastIndex()) {
        LOG.warn(
            "Ignoring append response from {} claiming match {} beyond last index {}",
            from,
            response.matchIndex(),
            node.log.lastIndex());
        return;
      }
      progress.onAppendSuccess(response.matchIndex(), response.entryCount() > 0, nowMs);
      advanceCommit();
    } else if (progress.snapshotTransfer() != null) {
      progress.onResponse(nowMs);
    } else {
      progress.onAppendFailure(retryIndex(response), nowMs);
    }
    replicate(progress, nowMs);
  }

  private long retryIndex(AppendResponse response) {
    if (response.conflictTerm() >= 0) {
      long lastOfTerm = node.log.lastIndexOfTerm(response.conflictTerm());
      if (lastOfTerm >= 0) {
        return Math.min(lastOfTerm + 1, Math.max(1, response.conflictIndex()));
      }
    }
    return Math.max(1, response.conflictIndex());
  }

  void onInstallSnapshotResponse(int from, InstallSnapshotResponse response, long nowMs) {
    long term = node.quorum.term();
    if (response.term() > term) {
      node.becomeFollower(response.term(), -1, nowMs);
      return;
    }
    if (response.term() < term || !(node.quorum.state() instanceof LeaderState leader)) {
      return;
    }
    FollowerProgress progress = leader.follower(from);
    if (progress == null) {
      return;
    }
    progress.onResponse(nowMs);
    SnapshotTransfer transfer = progress.snapshotTransfer();
    if (transfer == null || transfer.snapshot().index() != response.snapshotIndex()) {
      return; // stale
    }
    RaftSnapshotChunk current = transfer.current();
    switch (response.status()) {
      case INSTALLED -> {
        LOG.debug(
            "Member {} installed snapshot {} (partition {})",
            from,
            response.snapshotIndex(),
            node.partitionId);
        progress.onSnapshotInstalled(response.snapshotIndex(), nowMs);
        replicate(progress, nowMs);
      }
      case ACCEPTED -> {
        if (current != null && current.chunkIndex() == response.chunkIndex()) {
          RaftSnapshotChunk next = transfer.advance();
          if (next != null) {
            sendChunk(progress, transfer, next, nowMs);
          } else {
            stopTransfer(
                progress,
                transfer,
                "its reader ended after chunk "
                    + current.chunkIndex()
                    + " of "
                    + current.chunkCount(),
                nowMs);
          }
        }
      }
      case REJECTED -> {
        if (current != null && current.chunkIndex() == response.chunkIndex()) {
          stopTransfer(
              progress,
              transfer,
              "member " + from + " rejected chunk " + current.chunkIndex(),
              nowMs);
        }
      }
    }
  }

  /** Advances the commit index to the majority's match index when its entry is of this term. */
  void advanceCommit() {
    if (!(node.quorum.state() instanceof LeaderState leader)) {
      return;
    }
    long majority = leader.majorityMatchIndex(node.log.flushedIndex());
    if (majority > node.commitIndex() && node.log.termAt(majority) == leader.term()) {
      node.advanceCommitIndex(majority);
    }
  }

  private void startSnapshotTransfer(FollowerProgress progress, long nowMs) {
    Optional<RaftSnapshot> latest = node.snapshots.latestSnapshot();
    long needed = progress.nextIndex() - 1;
    if (latest.isEmpty() || latest.get().index() < node.log.firstIndex() - 1) {
      if (nowMs - progress.lastSendMs() < node.requestTimeoutMs) {
        return; // reported less than a request timeout ago
      }
      LOG.error(
          "Member {} needs entries from {} but the log starts at {} and no snapshot covers the gap"
              + " (partition {}, node {})",
          progress.memberId(),
          needed + 1,
          node.log.firstIndex(),
          node.partitionId,
          node.localId);
      progress.onSnapshotChunkSent(nowMs); // retry after a request timeout
      return;
    }
    SnapshotTransfer transfer = new SnapshotTransfer(latest.get());
    progress.startSnapshotTransfer(transfer);
    RaftSnapshotChunk first = transfer.advance();
    if (first == null) {
      stopTransfer(progress, transfer, "its reader has no chunks (the snapshot is gone)", nowMs);
      return;
    }
    sendChunk(progress, transfer, first, nowMs);
  }

  /**
   * Stops a transfer that cannot go on. It stays in place, so nothing is sent to the follower for a
   * request timeout; then {@link #tick} ends it and a new transfer starts from the latest snapshot.
   * A snapshot that disappeared (replaced by a newer one) thus never stalls the follower, and one
   * that cannot be read is retried once per request timeout, not in a busy loop.
   */
  private void stopTransfer(
      FollowerProgress progress, SnapshotTransfer transfer, String reason, long nowMs) {
    LOG.warn(
        "Stopped sending snapshot {} to member {}: {}; starting over from the latest snapshot"
            + " after {} ms (partition {}, node {})",
        transfer.snapshot().index(),
        progress.memberId(),
        reason,
        node.requestTimeoutMs,
        node.partitionId,
        node.localId);
    transfer.stop();
    progress.onSnapshotChunkSent(nowMs); // back off one request timeout
  }

  private void sendChunk(
      FollowerProgress progress, SnapshotTransfer transfer, RaftSnapshotChunk chunk, long nowMs) {
    Objects.requireNonNull(chunk, "Expected a chunk to send, but a running transfer had none");
    RaftSnapshot snapshot = transfer.snapshot();
    node.send(
        progress.memberId(),
        new InstallSnapshotRequest(
            node.quorum.term(), node.localId, snapshot.index(), snapshot.term(), chunk));
    progress.onSnapshotChunkSent(nowMs);
  }
}
