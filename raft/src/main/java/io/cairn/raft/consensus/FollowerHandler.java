package io.cairn.raft.consensus;

import io.cairn.journal.JournalException;
import io.cairn.journal.JournalRecord;
import io.cairn.raft.RaftSafetyException;
import io.cairn.raft.RaftSnapshotChunk;
import io.cairn.raft.RaftSnapshotReceiver;
import io.cairn.raft.log.RaftEntryCodec;
import io.cairn.raft.log.RaftLog;
import io.cairn.raft.protocol.RaftMessage.AppendRequest;
import io.cairn.raft.protocol.RaftMessage.AppendResponse;
import io.cairn.raft.protocol.RaftMessage.InstallSnapshotRequest;
import io.cairn.raft.protocol.RaftMessage.InstallSnapshotResponse;
import io.cairn.raft.protocol.RaftMessage.InstallSnapshotResponse.Status;
import io.cairn.raft.state.FollowerState;
import java.util.ArrayDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The follower's side of replication: appends entries that extend a matching prefix, truncates a
 * conflicting suffix (never a committed entry), answers only once the entries are flushed, and
 * installs snapshots sent in chunks.
 */
final class FollowerHandler {

  private static final Logger LOG = LoggerFactory.getLogger(FollowerHandler.class);

  private final RaftNode node;
  private final ArrayDeque<PendingAck> pendingAcks = new ArrayDeque<>();

  /** Entries the journal refused in a row (a full disk, say), since one last appended. */
  private long refusedAppends;

  private Installation installation;

  FollowerHandler(RaftNode node) {
    this.node = node;
  }

  void onAppendRequest(int from, AppendRequest request, long nowMs) {
    long term = node.quorum.term();
    int entryCount = request.entries().size();
    if (request.term() < term) {
      node.send(from, new AppendResponse(term, false, 0, entryCount, -1, -1));
      return;
    }
    FollowerState follower = node.becomeFollower(request.term(), request.leaderId(), nowMs);
    follower.onLeaderContact(nowMs, node.randomElectionDeadline(nowMs));
    term = request.term();

    RaftLog log = node.log;
    long commitIndex = node.commitIndex();
    long prevIndex = request.prevLogIndex();
    long lastIndex = log.lastIndex();
    if (prevIndex > lastIndex) {
      node.send(from, new AppendResponse(term, false, 0, entryCount, lastIndex + 1, -1));
      return;
    }
    long localPrevTerm = log.termAt(prevIndex);
    if (localPrevTerm == RaftLog.UNKNOWN_TERM && prevIndex > commitIndex) {
      // cannot happen with a log that is compacted only below committed snapshots; ask from commit
      node.send(from, new AppendResponse(term, false, 0, entryCount, commitIndex + 1, -1));
      return;
    }
    if (localPrevTerm != RaftLog.UNKNOWN_TERM && localPrevTerm != request.prevLogTerm()) {
      if (prevIndex <= commitIndex) {
        throw new RaftSafetyException(
            "Expected committed entry "
                + prevIndex
                + " to have the leader's term "
                + request.prevLogTerm()
                + ", but it has term "
                + localPrevTerm
                + context());
      }
      long firstOfTerm = log.firstIndexOfTerm(localPrevTerm);
      long conflictIndex = Math.max(commitIndex + 1, firstOfTerm < 0 ? prevIndex : firstOfTerm);
      node.send(from, new AppendResponse(term, false, 0, entryCount, conflictIndex, localPrevTerm));
      return;
    }

    long index = prevIndex;
    boolean rejected = false;
    for (JournalRecord record : request.entries()) {
      index++;
      if (record.index() != index) {
        LOG.warn("Dropping append with a gap at index {} from {}{}", index, from, context());
        rejected = true;
        break;
      }
      if (index < log.firstIndex()) {
        continue; // compacted here, so committed, so the same entry
      }
      if (!appendOne(record, index, commitIndex)) {
        rejected = true;
        break;
      }
    }
    if (!rejected) {
      // answered once the entries are flushed (at once when they are, or when flushes are inline)
      pendingAcks.add(
          new PendingAck(
              from,
              term,
              prevIndex + entryCount,
              entryCount,
              request.leaderCommit(),
              log.truncationCount()));
    }
    node.onEntriesAppended();
    if (rejected) {
      long retryFrom = index;
      node.send(from, new AppendResponse(term, false, 0, entryCount, retryFrom, -1));
    }
  }

  /**
   * Sends, in order, the acknowledgements whose entries are flushed now, and advances the commit
   * index with each. An acknowledgement of an older term, or of entries a truncation may have
   * replaced since, is dropped: its leader is gone, or the new leader's request is answered.
   */
  void sendFlushedAcks() {
    RaftLog log = node.log;
    while (!pendingAcks.isEmpty()) {
      PendingAck ack = pendingAcks.peekFirst();
      boolean stale = ack.term != node.quorum.term() || ack.truncations != log.truncationCount();
      if (!stale && ack.matchIndex > log.flushedIndex()) {
        return;
      }
      pendingAcks.pollFirst();
      if (!stale) {
        node.advanceCommitIndex(Math.min(ack.leaderCommit, ack.matchIndex));
        node.send(
            ack.leader, new AppendResponse(ack.term, true, ack.matchIndex, ack.entryCount, -1, -1));
      }
    }
  }

  /** Forgets unsent acknowledgements (the member is no longer a follower of their term). */
  void dropPendingAcks() {
    pendingAcks.clear();
  }

  /** Appends one leader entry at {@code index}; false when the record is corrupt. */
  private boolean appendOne(JournalRecord record, long index, long commitIndex) {
    RaftLog log = node.log;
    long incomingTerm;
    try {
      incomingTerm = RaftEntryCodec.term(record.data());
    } catch (IllegalArgumentException e) {
      LOG.warn("Dropping corrupt entry {}{}: {}", index, context(), e.getMessage());
      return false;
    }
    if (index <= log.lastIndex()) {
      if (log.termAt(index) == incomingTerm) {
        return true; // already have it
      }
      log.truncateAfter(index - 1, commitIndex);
      node.listener.onTruncated(index - 1);
    }
    try {
      log.appendReplicated(record);
    } catch (JournalException | IllegalArgumentException e) {
      if (log.lastIndex() >= index) {
        throw e; // written anyway: storage is broken
      }
      refusedAppends++;
      if (refusedAppends == 1) {
        // the leader sends it again at once: a full disk would log this for every request
        LOG.warn(
            "Dropping entry {} that failed to append{}: {}; the leader sends it again, and until"
                + " an append succeeds further failures are logged at DEBUG",
            index,
            context(),
            e.toString());
      } else {
        LOG.debug(
            "Dropping entry {} that failed to append{}, {} in a row: {}",
            index,
            context(),
            refusedAppends,
            e.toString());
      }
      return false;
    }
    if (refusedAppends > 0) {
      LOG.info("Appending entries works again{}, after {} refused", context(), refusedAppends);
      refusedAppends = 0;
    }
    return true;
  }

  void onInstallSnapshotRequest(int from, InstallSnapshotRequest request, long nowMs) {
    long term = node.quorum.term();
    RaftSnapshotChunk chunk = request.chunk();
    if (request.term() < term) {
      node.send(
          from,
          new InstallSnapshotResponse(
              term, request.snapshotIndex(), chunk.chunkIndex(), Status.REJECTED));
      return;
    }
    FollowerState follower = node.becomeFollower(request.term(), request.leaderId(), nowMs);
    follower.onLeaderContact(nowMs, node.randomElectionDeadline(nowMs));
    term = request.term();
    Status status = installChunk(request, chunk);
    node.send(
        from,
        new InstallSnapshotResponse(term, request.snapshotIndex(), chunk.chunkIndex(), status));
  }

  private Status installChunk(InstallSnapshotRequest request, RaftSnapshotChunk chunk) {
    RaftLog log = node.log;
    long index = request.snapshotIndex();
    long snapshotTerm = request.snapshotTerm();
    if (index <= log.snapshotIndex()
        || (index <= log.lastIndex() && log.termAt(index) == snapshotTerm)) {
      abortInstallation();
      log.flush();
      return Status.INSTALLED; // the entries are here already
    }
    boolean sameSnapshot =
        installation != null && installation.index == index && installation.term == snapshotTerm;
    if (sameSnapshot && chunk.chunkIndex() < installation.nextChunk) {
      return Status.ACCEPTED; // a duplicate of a chunk already stored
    }
    if (!sameSnapshot) {
      if (chunk.chunkIndex() != 0) {
        abortInstallation();
        return Status.REJECTED;
      }
      abortInstallation();
      installation =
          new Installation(index, snapshotTerm, node.snapshots.newReceiver(index, snapshotTerm));
    }
    if (chunk.chunkIndex() != installation.nextChunk) {
      abortInstallation();
      return Status.REJECTED;
    }
    if (!chunk.isIntact() || !installation.receiver.accept(chunk)) {
      LOG.warn(
          "Rejected chunk {} of snapshot {}: corrupt or refused by the store; the leader restarts"
              + " the transfer{}",
          chunk.chunkIndex(),
          index,
          context());
      abortInstallation();
      return Status.REJECTED;
    }
    installation.nextChunk++;
    if (!chunk.isLast()) {
      return Status.ACCEPTED;
    }
    RaftSnapshotReceiver receiver = installation.receiver;
    installation = null;
    if (!receiver.commit()) {
      LOG.warn(
          "Snapshot {} failed verification; the leader restarts the transfer{}", index, context());
      receiver.abort();
      return Status.REJECTED;
    }
    log.resetToSnapshot(index, snapshotTerm);
    LOG.info("Installed snapshot {} (term {}) from the leader{}", index, snapshotTerm, context());
    node.listener.onSnapshotInstalled(index, snapshotTerm);
    node.advanceCommitIndex(index);
    return Status.INSTALLED;
  }

  void abortInstallation() {
    if (installation != null) {
      installation.receiver.abort();
      installation = null;
    }
  }

  private String context() {
    return " (partition " + node.partitionId + ", node " + node.localId + ")";
  }

  /** A successful append, answered once its entries are flushed. */
  private record PendingAck(
      int leader,
      long term,
      long matchIndex,
      int entryCount,
      long leaderCommit,
      long truncations) {}

  /** A snapshot being received. */
  private static final class Installation {
    private final long index;
    private final long term;
    private final RaftSnapshotReceiver receiver;
    private int nextChunk;

    private Installation(long index, long term, RaftSnapshotReceiver receiver) {
      this.index = index;
      this.term = term;
      this.receiver = receiver;
    }
  }
}
