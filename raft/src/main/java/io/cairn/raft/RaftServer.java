package io.cairn.raft;

import io.cairn.journal.Journal;
import io.cairn.raft.AppendResult.Appended;
import io.cairn.raft.consensus.RaftNode;
import io.cairn.raft.consensus.RaftNodeListener;
import io.cairn.raft.consensus.UnsafeOptions;
import io.cairn.raft.log.RaftLog;
import io.cairn.raft.protocol.RaftMessage;
import io.cairn.raft.protocol.RaftMessageCodec;
import io.cairn.raft.storage.RaftMetaStore;
import io.cairn.scheduler.Actor;
import io.cairn.scheduler.LoggingContext;
import io.cairn.transport.MessagingService;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.random.RandomGenerator;
import org.agrona.DirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One member of one partition's raft group, as an {@link Actor}: the shell around the pure decision
 * code ({@link RaftNode}) that does the I/O. It receives raft messages from the {@link
 * MessagingService} (type {@code raft-<partitionId>}, one-way), drives the node's timers with the
 * actor's clock, batches the leader's flushes (many appends, one flush) and completes the
 * application's futures. The way from an append to the flush is {@link WritePath}'s, the node's
 * timer {@link DeadlineTimer}'s.
 *
 * <p>The application appends through the leader only: {@link #append} returns {@link
 * AppendResult.Appended} once the entry is flushed locally, or {@link AppendResult.NotLeader} with
 * the leader it knows. {@link #whenCommitted} completes when that entry is committed.
 *
 * <p>With a {@linkplain Builder#preferredLeader preferred leader}, a leader that is not that member
 * hands leadership to it once it is caught up. While the transfer runs, appends wait here (at most
 * {@value #DEFERRED_APPENDS_MAX}; one more gives the transfer up) instead of being refused: when
 * the transfer fails the leader appends them in order, when it succeeds they complete with {@link
 * AppendResult.NotLeader}. So a transfer that fails costs a writer a delay of at most one election
 * timeout, never its term.
 *
 * <p>Ownership: the journal, meta store and snapshot store are given to the server and closed by
 * their owner after {@link #closeAsync()} completed.
 */
public final class RaftServer extends Actor {

  private static final Logger LOG = LoggerFactory.getLogger(RaftServer.class);

  /** Appends waiting for a leadership transfer to end; one more gives the transfer up. */
  static final int DEFERRED_APPENDS_MAX = 1024;

  private final int partitionId;
  private final int localId;
  private final List<Integer> members;
  private final int preferredLeader;
  private final RaftConfig config;
  private final Journal journal;
  private final RaftMetaStore metaStore;
  private final RaftSnapshotStore snapshots;
  private final MessagingService messaging;
  private final RandomGenerator random;
  private final UnsafeOptions unsafe;
  private final Executor flushExecutor;
  private final RaftMetrics metrics;
  private final String messageType;
  private final List<RaftRoleListener> roleListeners = new CopyOnWriteArrayList<>();
  private final List<RaftCommitListener> commitListeners = new CopyOnWriteArrayList<>();

  // actor thread only
  private RaftNode node;
  private RaftLog log;
  private DeadlineTimer deadlines;
  private AppendTracker appends;
  private WritePath writes;

  // written on the actor thread, read anywhere
  private volatile RaftRole role = RaftRole.INACTIVE;
  private volatile long term;
  private volatile int leaderId = -1;
  private volatile long commitIndex;
  private volatile long flushedIndex;
  private volatile long lastIndex;

  private RaftServer(Builder builder) {
    // the local member id is the node id (the builder checks it against the messaging service)
    super(
        "raft-" + builder.partitionId + "-" + builder.localId,
        LoggingContext.partition(builder.localId, builder.partitionId));
    this.partitionId = builder.partitionId;
    this.localId = builder.localId;
    this.members = List.copyOf(builder.members);
    this.preferredLeader = builder.preferredLeader;
    this.config = builder.config;
    this.journal = builder.journal;
    this.metaStore = builder.metaStore;
    this.snapshots = builder.snapshots;
    this.messaging = builder.messaging;
    this.random = builder.random;
    this.unsafe = builder.unsafe;
    this.flushExecutor = builder.flushExecutor;
    this.metrics = new RaftMetrics(builder.registry, partitionId, localId);
    this.messageType = messageType(partitionId);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The messaging type of a partition's raft messages. */
  public static String messageType(int partitionId) {
    return "raft-" + partitionId;
  }

  // ---- application API (any thread) ---------------------------------------------------------

  /**
   * Appends a batch of stream records with positions [{@code lowestPosition}, {@code
   * highestPosition}] if this member leads. The future completes with {@link Appended} (index and
   * term) once the entry is flushed locally, or {@link AppendResult.NotLeader}. It fails with
   * {@link IllegalArgumentException} when the positions do not follow the last written ones, and
   * with {@link IllegalStateException} when the member is closed or failed.
   *
   * @param payload copied before this method returns
   */
  public CompletableFuture<AppendResult> append(
      long lowestPosition, long highestPosition, DirectBuffer payload) {
    byte[] copy = new byte[payload.capacity()];
    payload.getBytes(0, copy);
    CompletableFuture<AppendResult> result = new CompletableFuture<>();
    submit(() -> doAppend(lowestPosition, highestPosition, copy, result))
        .whenComplete(
            (ignored, error) -> {
              if (error != null) {
                result.completeExceptionally(error);
              }
            });
    return result;
  }

  /**
   * Completes with the entry's index when it is committed; fails with {@link
   * RaftEntryNotCommittedException} when it was replaced by another leader's entry or its outcome
   * can no longer be known.
   */
  public CompletableFuture<Long> whenCommitted(Appended appended) {
    CompletableFuture<Long> result = new CompletableFuture<>();
    submit(() -> registerCommitWaiter(appended, result))
        .whenComplete(
            (ignored, error) -> {
              if (error != null) {
                result.completeExceptionally(error);
              }
            });
    return result;
  }

  /**
   * Deletes whole journal segments below {@code index}, never past the snapshot store's compaction
   * bound. Completes with true if a segment was deleted.
   */
  public CompletableFuture<Boolean> compact(long index) {
    return call(() -> node != null && node.compact(index));
  }

  /** Adds a listener; it is told the current role at once (on the actor thread). */
  public void addRoleListener(RaftRoleListener listener) {
    roleListeners.add(listener);
    submit(() -> listener.onRoleChange(role, term, leaderId));
  }

  public void addCommitListener(RaftCommitListener listener) {
    commitListeners.add(listener);
  }

  public RaftRole role() {
    return role;
  }

  public long term() {
    return term;
  }

  /** The leader this member knows of, or -1. */
  public int leaderId() {
    return leaderId;
  }

  public long commitIndex() {
    return commitIndex;
  }

  /**
   * The index up to which this member's log is flushed, as of its last event: a crash can lose the
   * entries after it, and this member never acknowledged them.
   */
  public long flushedIndex() {
    return flushedIndex;
  }

  /** The index of this member's last log entry, flushed or not, as of its last event. */
  public long lastIndex() {
    return lastIndex;
  }

  public int partitionId() {
    return partitionId;
  }

  public int localNodeId() {
    return localId;
  }

  // ---- actor life cycle ---------------------------------------------------------------------

  @Override
  protected void onStart() {
    Optional<RaftSnapshot> snapshot = snapshots.latestSnapshot();
    String context = "partition " + partitionId + " node " + localId;
    log =
        RaftLog.open(
            journal,
            snapshot.map(RaftSnapshot::index).orElse(0L),
            snapshot.map(RaftSnapshot::term).orElse(0L),
            context);
    appends = new AppendTracker(partitionId, metrics, log::termAt);
    node =
        new RaftNode(
            partitionId,
            localId,
            members,
            preferredLeader,
            config,
            log,
            metaStore,
            snapshots,
            random,
            this::sendMessage,
            new NodeEvents(),
            unsafe,
            flushExecutor != null);
    writes = new WritePath(this, node, log, appends, clock(), flushExecutor, this::afterEvent);
    deadlines = new DeadlineTimer(this, clock(), this::onTimer);
    node.start(nowMs());
    commitIndex = node.commitIndex();
    metrics.onCommit(commitIndex);
    messaging.registerMessageHandler(messageType, this::onMessage, executor());
    afterEvent();
  }

  @Override
  protected void onClose() {
    messaging.unregisterHandler(messageType);
    if (deadlines != null) {
      deadlines.cancel();
    }
    if (node != null) {
      node.close();
    }
    failPending("raft member closed (partition " + partitionId + ", node " + localId + ")");
    if (log != null) {
      log.close();
    }
    metrics.close();
  }

  // ---- actor thread -------------------------------------------------------------------------

  private void onMessage(int sender, byte[] payload) {
    if (node == null) {
      return;
    }
    RaftMessage message;
    try {
      message = RaftMessageCodec.decode(payload);
    } catch (IllegalArgumentException e) {
      LOG.debug("Dropping undecodable raft message from {} (partition {})", sender, partitionId, e);
      return;
    }
    node.handle(sender, message, nowMs());
    afterEvent();
  }

  private void onTimer() {
    if (node == null) {
      return;
    }
    node.tick(nowMs());
    afterEvent();
  }

  private void doAppend(
      long lowestPosition,
      long highestPosition,
      byte[] payload,
      CompletableFuture<AppendResult> result) {
    if (writes == null) {
      result.completeExceptionally(WritePath.notActive(this));
      return;
    }
    writes.append(lowestPosition, highestPosition, payload, result);
  }

  private void registerCommitWaiter(Appended appended, CompletableFuture<Long> result) {
    if (writes == null || !writes.isUsable()) {
      result.completeExceptionally(
          new RaftEntryNotCommittedException(
              "Expected an active raft member, but it is "
                  + role
                  + " (partition "
                  + partitionId
                  + ")"));
      return;
    }
    appends.awaitCommit(appended, result, node.commitIndex());
  }

  private void afterEvent() {
    if (writes == null || !writes.isUsable()) {
      return;
    }
    writes.afterEvent();
    flushedIndex = node.log().flushedIndex();
    lastIndex = node.log().lastIndex();
    deadlines.armFor(node.nextDeadlineMs());
  }

  private void sendMessage(int memberId, RaftMessage message) {
    try {
      messaging
          .send(memberId, messageType, RaftMessageCodec.encode(message))
          .whenComplete(
              (ignored, error) -> {
                if (error != null) {
                  LOG.trace("Raft message to {} not sent: {}", memberId, error.toString());
                }
              });
    } catch (RuntimeException e) {
      LOG.debug("Raft message to {} not sent (partition {})", memberId, partitionId, e);
    }
  }

  private long nowMs() {
    return clock().millis();
  }

  private void failPending(String reason) {
    if (writes != null) {
      writes.failAll(reason);
    }
  }

  /** The decision code, for tests that drive or inspect it on the actor thread. */
  RaftNode node() {
    return node;
  }

  /** Events from the decision code, on the actor thread. */
  private final class NodeEvents implements RaftNodeListener {

    @Override
    public void onRoleChange(RaftRole newRole, long newTerm, int newLeaderId) {
      RaftRole previous = role;
      role = newRole;
      term = newTerm;
      leaderId = newLeaderId;
      metrics.onRoleChange(newRole, newTerm);
      if (previous == RaftRole.LEADER && newRole != RaftRole.LEADER) {
        appends.onLeadershipLost();
      }
      if (newRole == RaftRole.FAILED) {
        failPending("raft member failed (partition " + partitionId + ", node " + localId + ")");
      }
      for (RaftRoleListener listener : roleListeners) {
        listener.onRoleChange(newRole, newTerm, newLeaderId);
      }
    }

    @Override
    public void onCommit(long newCommitIndex) {
      commitIndex = newCommitIndex;
      metrics.onCommit(newCommitIndex);
      appends.onCommit(newCommitIndex, clock().nanos());
      for (RaftCommitListener listener : commitListeners) {
        listener.onCommit(newCommitIndex);
      }
    }

    @Override
    public void onTruncated(long lastKeptIndex) {
      appends.onTruncated(lastKeptIndex, leaderId, term);
    }

    @Override
    public void onLeadershipTransferStarted(int target, long transferTerm) {
      metrics.onLeadershipTransferStarted();
    }

    @Override
    public void onLeadershipTransferEnded(int target, long transferTerm, boolean completed) {
      metrics.onLeadershipTransferEnded(completed);
    }

    @Override
    public void onSnapshotInstalled(long index, long snapshotTerm) {
      metrics.onSnapshotInstalled();
      onTruncated(index);
      for (RaftCommitListener listener : commitListeners) {
        listener.onSnapshotInstalled(index, snapshotTerm);
      }
    }
  }

  /** Collects what a member needs; every field is required except the test-only options. */
  public static final class Builder {
    private int partitionId = -1;
    private int localId = -1;
    private List<Integer> members;
    private int preferredLeader = -1;
    private RaftConfig config = RaftConfig.defaults();
    private Journal journal;
    private RaftMetaStore metaStore;
    private RaftSnapshotStore snapshots;
    private MessagingService messaging;
    private RandomGenerator random;
    private MeterRegistry registry;
    private UnsafeOptions unsafe = UnsafeOptions.NONE;
    private Executor flushExecutor;

    private Builder() {}

    public Builder partitionId(int value) {
      partitionId = value;
      return this;
    }

    public Builder localNodeId(int value) {
      localId = value;
      return this;
    }

    /** The static members of the group (1, 3 or 5 node ids), the local node included. */
    public Builder members(List<Integer> value) {
      members = List.copyOf(value);
      return this;
    }

    /**
     * The member that should lead whenever it can: a leader that is not this member hands
     * leadership to it once its log is caught up (leadership transfer). Unset (or -1): no
     * preference, whoever wins an election leads until it steps down.
     */
    public Builder preferredLeader(int memberId) {
      preferredLeader = memberId;
      return this;
    }

    public Builder config(RaftConfig value) {
      config = Objects.requireNonNull(value, "config");
      return this;
    }

    public Builder journal(Journal value) {
      journal = value;
      return this;
    }

    public Builder metaStore(RaftMetaStore value) {
      metaStore = value;
      return this;
    }

    public Builder snapshotStore(RaftSnapshotStore value) {
      snapshots = value;
      return this;
    }

    public Builder messagingService(MessagingService value) {
      messaging = value;
      return this;
    }

    /**
     * The source of randomized election timeouts. Seed it (differently per member) so that runs can
     * be reproduced.
     */
    public Builder random(RandomGenerator value) {
      random = value;
      return this;
    }

    public Builder meterRegistry(MeterRegistry value) {
      registry = value;
      return this;
    }

    /**
     * Where journal fsyncs run. Without one they run on this member's actor thread, which then
     * waits for the disk; with one the member goes on (appending, answering, replicating) while its
     * fsync runs there, and one fsync covers everything appended before it started. Give it a
     * thread per member that may flush at once (a broker: one per partition it hosts).
     */
    public Builder flushExecutor(Executor value) {
      flushExecutor = Objects.requireNonNull(value, "flushExecutor");
      return this;
    }

    /** Test only: deliberately broken voting, to prove that checkers catch it. */
    Builder unsafeOptions(UnsafeOptions value) {
      unsafe = Objects.requireNonNull(value, "unsafe");
      return this;
    }

    /**
     * @throws IllegalArgumentException naming the missing or invalid setting
     */
    public RaftServer build() {
      if (partitionId < 1) {
        throw new IllegalArgumentException(
            "Expected partitionId >= 1, but was " + partitionId + " (raft server)");
      }
      if (members == null || !members.contains(localId)) {
        throw new IllegalArgumentException(
            "Expected members to contain localNodeId "
                + localId
                + ", but was "
                + members
                + " (raft server, partition "
                + partitionId
                + ")");
      }
      if (preferredLeader != -1 && !members.contains(preferredLeader)) {
        throw new IllegalArgumentException(
            "Expected preferredLeader to be one of the members "
                + members
                + " or -1 (none), but was "
                + preferredLeader
                + " (raft server, partition "
                + partitionId
                + ")");
      }
      require(journal, "journal");
      require(metaStore, "metaStore");
      require(snapshots, "snapshotStore");
      require(messaging, "messagingService");
      require(random, "random");
      require(registry, "meterRegistry");
      if (messaging.localNodeId() != localId) {
        throw new IllegalArgumentException(
            "Expected the messaging service of node "
                + localId
                + ", but it belongs to node "
                + messaging.localNodeId()
                + " (raft server, partition "
                + partitionId
                + ")");
      }
      return new RaftServer(this);
    }

    private void require(Object value, String name) {
      if (value == null) {
        throw new IllegalArgumentException(
            "Expected "
                + name
                + " to be set, but it is missing (raft server, partition "
                + partitionId
                + ")");
      }
    }
  }
}
