package io.cairn.raft.consensus;

import io.cairn.journal.JournalRecord;
import io.cairn.raft.AppendResult;
import io.cairn.raft.RaftConfig;
import io.cairn.raft.RaftRole;
import io.cairn.raft.RaftSnapshot;
import io.cairn.raft.RaftSnapshotStore;
import io.cairn.raft.log.RaftEntry;
import io.cairn.raft.log.RaftEntryType;
import io.cairn.raft.log.RaftLog;
import io.cairn.raft.protocol.RaftMessage;
import io.cairn.raft.protocol.RaftMessage.AppendRequest;
import io.cairn.raft.protocol.RaftMessage.AppendResponse;
import io.cairn.raft.protocol.RaftMessage.InstallSnapshotRequest;
import io.cairn.raft.protocol.RaftMessage.InstallSnapshotResponse;
import io.cairn.raft.protocol.RaftMessage.TimeoutNow;
import io.cairn.raft.protocol.RaftMessage.VoteRequest;
import io.cairn.raft.protocol.RaftMessage.VoteResponse;
import io.cairn.raft.state.CandidateState;
import io.cairn.raft.state.FollowerState;
import io.cairn.raft.state.LeaderState;
import io.cairn.raft.state.PreCandidateState;
import io.cairn.raft.state.QuorumState;
import io.cairn.raft.state.RoleState;
import io.cairn.raft.storage.RaftMetaStore;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The decision code of one raft member: pure and single-threaded. Inputs are messages, ticks and
 * appends, each with {@code nowMs}; outputs are messages put into the {@link RaftOutbox}, events to
 * the {@link RaftNodeListener}, and {@link #nextDeadlineMs()}, when it wants the next tick. It
 * reads no clock, starts no thread and draws randomness only from the injected generator, so a run
 * is reproducible from its inputs.
 *
 * <p>Durable effects happen before the messages that depend on them: the term and vote are stored
 * before a vote is answered, and entries are flushed before they are acknowledged (followers) or
 * counted for the commit (leader). Entry flushes run inline, or — {@code deferFlush} — in three
 * steps the shell drives ({@link #needsFlush()}, {@link #prepareFlush}, the fsync on any thread,
 * {@link #onFlushed}), so that the member's thread never waits for the disk.
 *
 * <p>With a preferred leader, a leader that is not that member hands leadership to it once it is in
 * sync ({@link LeadershipTransfer}); while the transfer runs — the target catching up with the last
 * entries, then taking over — {@link #append} answers {@link AppendResult.NotLeader} with the
 * target.
 *
 * <p>A broken invariant (truncating a committed entry, two leaders in one term) or a storage
 * failure moves the member to {@link RaftRole#FAILED} and is rethrown to the caller.
 */
public final class RaftNode {

  static final DirectBuffer EMPTY = new UnsafeBuffer(new byte[0]);

  final int partitionId;
  final int localId;
  final List<Integer> members;
  final int preferredLeader;
  final RaftConfig config;
  final RaftLog log;
  final RaftSnapshotStore snapshots;
  final RaftOutbox outbox;
  final RaftNodeListener listener;
  final UnsafeOptions unsafe;
  final QuorumState quorum;
  final long electionTimeoutMs;
  final long heartbeatMs;
  final long requestTimeoutMs;

  // false: appended entries are flushed inline; true: the shell runs the flushes (needsFlush)
  private final boolean deferFlush;
  private final RandomGenerator random;
  private final ElectionHandler elections;
  private final FollowerHandler followerHandler;
  private final LeaderReplicator replicator;
  private final LeadershipTransfer transfer;
  private long commitIndex;

  /**
   * @param preferredLeader the member that should lead when it can ({@link LeadershipTransfer}), or
   *     -1 for none: then whoever wins an election leads until it steps down
   */
  public RaftNode(
      int partitionId,
      int localId,
      List<Integer> members,
      int preferredLeader,
      RaftConfig config,
      RaftLog log,
      RaftMetaStore metaStore,
      RaftSnapshotStore snapshots,
      RandomGenerator random,
      RaftOutbox outbox,
      RaftNodeListener listener,
      UnsafeOptions unsafe,
      boolean deferFlush) {
    this.partitionId = partitionId;
    this.localId = localId;
    this.members = List.copyOf(members);
    this.config = Objects.requireNonNull(config, "config");
    this.log = Objects.requireNonNull(log, "log");
    this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
    this.random = Objects.requireNonNull(random, "random");
    this.outbox = Objects.requireNonNull(outbox, "outbox");
    this.listener = Objects.requireNonNull(listener, "listener");
    this.unsafe = Objects.requireNonNull(unsafe, "unsafe");
    this.deferFlush = deferFlush;
    int size = this.members.size();
    if (size != 1 && size != 3 && size != 5) {
      throw new IllegalArgumentException(
          "Expected 1, 3 or 5 members, but was "
              + this.members
              + " (partition "
              + partitionId
              + ")");
    }
    if (this.members.stream().distinct().count() != size) {
      throw new IllegalArgumentException(
          "Expected distinct member ids, but was "
              + this.members
              + " (partition "
              + partitionId
              + ")");
    }
    if (preferredLeader != -1 && !this.members.contains(preferredLeader)) {
      throw new IllegalArgumentException(
          "Expected the preferred leader to be -1 (none) or one of the members "
              + this.members
              + ", but was "
              + preferredLeader
              + " (partition "
              + partitionId
              + ")");
    }
    this.preferredLeader = preferredLeader;
    this.electionTimeoutMs = config.electionTimeout().toMillis();
    this.heartbeatMs = config.heartbeatInterval().toMillis();
    this.requestTimeoutMs = config.requestTimeout().toMillis();
    this.quorum =
        new QuorumState(
            partitionId, localId, members, metaStore, this::onTransition, unsafe.allowSecondVote());
    this.elections = new ElectionHandler(this);
    this.followerHandler = new FollowerHandler(this);
    this.replicator = new LeaderReplicator(this);
    this.transfer = new LeadershipTransfer(this, preferredLeader);
  }

  /** Loads the stored term and vote and starts as a follower. */
  public void start(long nowMs) {
    guard(
        () -> {
          commitIndex = log.snapshotIndex();
          quorum.start(randomElectionDeadline(nowMs));
        });
  }

  /** Handles one message from {@code from}; messages from non-members are dropped. */
  public void handle(int from, RaftMessage message, long nowMs) {
    if (!quorum.isActive() || from == localId || !members.contains(from)) {
      return;
    }
    guard(
        () -> {
          if (message instanceof VoteRequest m) {
            elections.onVoteRequest(from, m, nowMs);
          } else if (message instanceof VoteResponse m) {
            elections.onVoteResponse(from, m, nowMs);
          } else if (message instanceof AppendRequest m) {
            followerHandler.onAppendRequest(from, m, nowMs);
          } else if (message instanceof AppendResponse m) {
            replicator.onAppendResponse(from, m, nowMs);
            if (quorum.state() instanceof LeaderState leader) {
              transfer.onAppendResponse(leader, from);
            }
          } else if (message instanceof InstallSnapshotRequest m) {
            followerHandler.onInstallSnapshotRequest(from, m, nowMs);
          } else if (message instanceof InstallSnapshotResponse m) {
            replicator.onInstallSnapshotResponse(from, m, nowMs);
          } else if (message instanceof TimeoutNow m) {
            elections.onTimeoutNow(from, m, nowMs);
          }
          if (quorum.isLeader()) {
            replicator.replicateAll(nowMs);
          }
        });
  }

  /** Acts on every deadline that has passed: elections, heartbeats, retries, quorum checks. */
  public void tick(long nowMs) {
    if (!quorum.isActive()) {
      return;
    }
    guard(
        () -> {
          RoleState state = quorum.state();
          if (state instanceof FollowerState follower) {
            if (nowMs >= follower.electionDeadlineMs()) {
              elections.onElectionTimeout(nowMs);
            }
          } else if (state instanceof PreCandidateState preCandidate) {
            if (nowMs >= preCandidate.electionDeadlineMs()) {
              elections.onElectionTimeout(nowMs);
            }
          } else if (state instanceof CandidateState candidate) {
            if (nowMs >= candidate.electionDeadlineMs()) {
              elections.onElectionTimeout(nowMs);
            }
          } else if (state instanceof LeaderState) {
            replicator.tick(nowMs);
            if (quorum.state() instanceof LeaderState leader) {
              transfer.onLeaderTick(leader, nowMs);
            }
          }
        });
  }

  /**
   * Appends an application entry if this member leads. The entry is not flushed yet: call {@link
   * #flushAndReplicate(long)} (once for many appends) before acknowledging it. While a leadership
   * transfer runs the answer is {@link AppendResult.NotLeader} with the transfer's target: the
   * target's log must stay as recent as any other for it to win.
   *
   * @throws IllegalArgumentException if the positions are not increasing
   */
  public AppendResult append(
      long lowestPosition, long highestPosition, DirectBuffer payload, long nowMs) {
    if (!quorum.isLeader()) {
      return new AppendResult.NotLeader(quorum.leaderId(), quorum.term());
    }
    if (transfer.isTransferring()) {
      return new AppendResult.NotLeader(transfer.target(), quorum.term());
    }
    if (lowestPosition < 0 || highestPosition < lowestPosition) {
      throw new IllegalArgumentException(
          "Expected 0 <= lowestPosition <= highestPosition, but was ["
              + lowestPosition
              + ", "
              + highestPosition
              + "] (partition "
              + partitionId
              + ")");
    }
    long lastPosition = log.lastPosition();
    if (lowestPosition <= lastPosition) {
      throw new IllegalArgumentException(
          "Expected lowestPosition > last written position "
              + lastPosition
              + ", but was "
              + lowestPosition
              + " (partition "
              + partitionId
              + ")");
    }
    long term = quorum.term();
    RaftEntry entry =
        new RaftEntry(term, RaftEntryType.APPLICATION, lowestPosition, highestPosition, payload);
    JournalRecord[] written = new JournalRecord[1];
    guard(() -> written[0] = log.append(entry));
    return new AppendResult.Appended(written[0].index(), term, lowestPosition, highestPosition);
  }

  /**
   * Flushes appended entries here, on the caller's thread: {@link #prepareFlush}, the fsync and
   * {@link #onFlushed}. Returns the flushed index.
   */
  public long flushAndReplicate(long nowMs) {
    if (!quorum.isActive()) {
      return log.flushedIndex();
    }
    RaftLog.PendingFlush flush = prepareFlush(nowMs);
    guard(flush::force);
    onFlushed(flush, nowMs);
    return log.flushedIndex();
  }

  /** Whether appended entries wait for a flush (with deferred flushes the shell then runs one). */
  public boolean needsFlush() {
    return quorum.isActive() && log.hasUnflushed();
  }

  /**
   * Prepares the flush of every appended entry; its fsync ({@link RaftLog.PendingFlush#force()})
   * may run on another thread, then call {@link #onFlushed}. A leader first sends followers what
   * they miss, so that they write and flush it while this member does.
   */
  public RaftLog.PendingFlush prepareFlush(long nowMs) {
    RaftLog.PendingFlush[] flush = new RaftLog.PendingFlush[1];
    guard(
        () -> {
          if (quorum.isLeader()) {
            replicator.replicateAll(nowMs);
          }
          flush[0] = log.prepareFlush();
        });
    return flush[0];
  }

  /**
   * A prepared flush ran: a leader counts the entries for the commit, a follower answers the
   * appends they completed.
   */
  public void onFlushed(RaftLog.PendingFlush flush, long nowMs) {
    if (!quorum.isActive()) {
      return;
    }
    guard(
        () -> {
          log.onFlushed(flush);
          if (quorum.isLeader()) {
            replicator.advanceCommit();
            replicator.replicateAll(nowMs);
          } else {
            followerHandler.sendFlushedAcks();
          }
        });
  }

  /** A prepared flush failed: the storage is broken; the member fails and rethrows. */
  public void onFlushFailed(RuntimeException error) {
    guard(
        () -> {
          throw error;
        });
  }

  /**
   * Deletes whole segments below {@code index}, never past the snapshot store's compaction bound
   * nor past the commit index.
   *
   * @return true if a segment was deleted
   */
  public boolean compact(long index) {
    if (!quorum.isActive()) {
      return false;
    }
    Optional<RaftSnapshot> latest = snapshots.latestSnapshot();
    if (latest.isEmpty()) {
      return false;
    }
    RaftSnapshot snapshot = latest.get();
    if (snapshot.index() > commitIndex) {
      throw new IllegalStateException(
          "Expected the latest snapshot to cover committed entries only, but its index "
              + snapshot.index()
              + " is above commit index "
              + commitIndex
              + " (partition "
              + partitionId
              + ", node "
              + localId
              + ")");
    }
    long bound = Math.min(Math.min(index, snapshots.compactionBoundIndex()), snapshot.index() + 1);
    boolean[] deleted = new boolean[1];
    guard(
        () -> {
          log.onSnapshot(snapshot.index(), snapshot.term());
          deleted[0] = log.compact(bound);
        });
    return deleted[0];
  }

  /** The time at which {@link #tick(long)} has something to do; Long.MAX_VALUE when never. */
  public long nextDeadlineMs() {
    RoleState state = quorum.state();
    if (state instanceof FollowerState follower) {
      return follower.electionDeadlineMs();
    } else if (state instanceof PreCandidateState preCandidate) {
      return preCandidate.electionDeadlineMs();
    } else if (state instanceof CandidateState candidate) {
      return candidate.electionDeadlineMs();
    } else if (state instanceof LeaderState leader) {
      return Math.min(replicator.nextDeadlineMs(leader), transfer.deadlineMs());
    }
    return Long.MAX_VALUE;
  }

  /** Stops: becomes INACTIVE; aborts a snapshot being received. */
  public void close() {
    followerHandler.abortInstallation();
    quorum.close();
  }

  public RaftRole role() {
    return quorum.role();
  }

  public long term() {
    return quorum.term();
  }

  public int votedFor() {
    return quorum.votedFor();
  }

  /** The leader this member knows of in its term, or -1. */
  public int leaderId() {
    return quorum.leaderId();
  }

  public long commitIndex() {
    return commitIndex;
  }

  public RaftLog log() {
    return log;
  }

  public int localId() {
    return localId;
  }

  public int partitionId() {
    return partitionId;
  }

  /** The member this group prefers as leader, or -1. */
  public int preferredLeader() {
    return preferredLeader;
  }

  /** True while this member leads and hands leadership over: it appends nothing new meanwhile. */
  public boolean isTransferringLeadership() {
    return transfer.isTransferring();
  }

  /**
   * Ends a running leadership transfer as failed, so that this member appends again at once; the
   * next attempt backs off as after any failed transfer.
   *
   * @return whether a transfer was running
   */
  public boolean abortLeadershipTransfer(long nowMs, String reason) {
    return transfer.abort(nowMs, reason);
  }

  /** The role's data, for tests and diagnostics. */
  public RoleState roleState() {
    return quorum.state();
  }

  // ---- shared with the handlers -------------------------------------------------------------

  long randomElectionDeadline(long nowMs) {
    return nowMs + electionTimeoutMs + random.nextLong(electionTimeoutMs);
  }

  void send(int memberId, RaftMessage message) {
    outbox.send(memberId, message);
  }

  void sendToOthers(RaftMessage message) {
    for (int member : members) {
      if (member != localId) {
        outbox.send(member, message);
      }
    }
  }

  /**
   * A follower appended the leader's entries (or found them present): acknowledgements whose
   * entries are flushed go out now; with inline flushes the new entries are flushed first.
   */
  void onEntriesAppended() {
    if (!deferFlush && log.hasUnflushed()) {
      log.flush();
    }
    followerHandler.sendFlushedAcks();
  }

  /** Raises the commit index (never lowers it) and tells the listener. */
  void advanceCommitIndex(long index) {
    if (index > commitIndex) {
      commitIndex = index;
      listener.onCommit(index);
    }
  }

  /** Steps down (or stays) as follower of {@code term}, resetting the election deadline. */
  FollowerState becomeFollower(long term, int leader, long nowMs) {
    return quorum.becomeFollower(term, leader, randomElectionDeadline(nowMs));
  }

  void becomeLeader(long nowMs) {
    quorum.becomeLeader(log.lastIndex() + 1, nowMs + electionTimeoutMs);
    transfer.onBecameLeader(nowMs);
    log.append(
        new RaftEntry(
            quorum.term(),
            RaftEntryType.INITIAL,
            RaftEntry.NO_POSITION,
            RaftEntry.NO_POSITION,
            EMPTY));
    log.flush();
    replicator.advanceCommit();
    replicator.replicateAll(nowMs);
  }

  private void onTransition(RoleState previous, RoleState next) {
    if (!(next instanceof FollowerState)) {
      followerHandler.abortInstallation();
      followerHandler.dropPendingAcks();
    }
    transfer.onTransition(next);
    listener.onRoleChange(next.role(), next.term(), next.leaderId());
  }

  private void guard(Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      if (quorum.isActive()) {
        quorum.fail(e);
      }
      throw e;
    }
  }
}
