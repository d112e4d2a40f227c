package io.cairn.raft;

import io.cairn.raft.AppendResult.Appended;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongUnaryOperator;

/**
 * The application's outstanding appends on one member: appends waiting for the local flush, callers
 * waiting for a commit, and append start times for the latency timers. Actor thread only.
 */
final class AppendTracker {

  private final int partitionId;
  private final RaftMetrics metrics;
  private final LongUnaryOperator termAt;
  private final List<PendingAppend> pendingFlush = new ArrayList<>();
  private final TreeMap<Long, List<CommitWaiter>> commitWaiters = new TreeMap<>();
  private final TreeMap<Long, Long> appendStartNanos = new TreeMap<>();

  private record PendingAppend(
      Appended appended, CompletableFuture<AppendResult> result, long startNanos) {}

  private record CommitWaiter(Appended appended, CompletableFuture<Long> result) {}

  /**
   * @param termAt the term of the local entry at an index, negative when unknown
   */
  AppendTracker(int partitionId, RaftMetrics metrics, LongUnaryOperator termAt) {
    this.partitionId = partitionId;
    this.metrics = metrics;
    this.termAt = termAt;
  }

  /** The leader appended an entry; its future completes after the next flush. */
  void onAppended(Appended appended, CompletableFuture<AppendResult> result, long startNanos) {
    pendingFlush.add(new PendingAppend(appended, result, startNanos));
    appendStartNanos.put(appended.index(), startNanos);
  }

  /**
   * Entries up to {@code flushedIndex} are on disk: completes their waiting appends, answers
   * NotLeader for those that a new leader's log replaced meanwhile, and keeps waiting for the rest
   * (appended while the flush ran; the next flush covers them).
   */
  void onFlushed(long flushedIndex, long nowNanos, int leaderId, long term) {
    for (Iterator<PendingAppend> it = pendingFlush.iterator(); it.hasNext(); ) {
      PendingAppend pending = it.next();
      Appended appended = pending.appended();
      boolean ours = termAt.applyAsLong(appended.index()) == appended.term();
      if (ours && appended.index() > flushedIndex) {
        continue;
      }
      if (ours) {
        metrics.recordAppendLatency(nowNanos - pending.startNanos());
        pending.result().complete(appended);
      } else {
        pending.result().complete(new AppendResult.NotLeader(leaderId, term));
      }
      it.remove();
    }
  }

  void awaitCommit(Appended appended, CompletableFuture<Long> result, long commitIndex) {
    CommitWaiter waiter = new CommitWaiter(appended, result);
    if (appended.index() <= commitIndex) {
      complete(waiter);
    } else {
      commitWaiters.computeIfAbsent(appended.index(), i -> new ArrayList<>()).add(waiter);
    }
  }

  void onCommit(long commitIndex, long nowNanos) {
    Map<Long, Long> started = appendStartNanos.headMap(commitIndex, true);
    for (long startNanos : started.values()) {
      metrics.recordCommitLatency(nowNanos - startNanos);
    }
    started.clear();
    Map<Long, List<CommitWaiter>> due = commitWaiters.headMap(commitIndex, true);
    for (Iterator<List<CommitWaiter>> it = due.values().iterator(); it.hasNext(); ) {
      for (CommitWaiter waiter : it.next()) {
        complete(waiter);
      }
      it.remove();
    }
  }

  /**
   * Entries after {@code lastKeptIndex} are gone: their appends answer NotLeader (with the leader
   * and term this member knows now) and their waiters will never see them commit.
   */
  void onTruncated(long lastKeptIndex, int leaderId, long term) {
    for (Iterator<PendingAppend> it = pendingFlush.iterator(); it.hasNext(); ) {
      PendingAppend pending = it.next();
      if (pending.appended().index() > lastKeptIndex) {
        pending.result().complete(new AppendResult.NotLeader(leaderId, term));
        it.remove();
      }
    }
    appendStartNanos.tailMap(lastKeptIndex, false).clear();
    Map<Long, List<CommitWaiter>> lost = commitWaiters.tailMap(lastKeptIndex, false);
    for (List<CommitWaiter> waiters : lost.values()) {
      for (CommitWaiter waiter : waiters) {
        waiter
            .result()
            .completeExceptionally(
                new RaftEntryNotCommittedException(
                    "Expected entry "
                        + waiter.appended().index()
                        + " of term "
                        + waiter.appended().term()
                        + " to commit, but another leader's log replaced it (partition "
                        + partitionId
                        + ")"));
      }
    }
    lost.clear();
  }

  /** Leadership ended: latencies of this member's appends are no longer measured. */
  void onLeadershipLost() {
    appendStartNanos.clear();
  }

  void failAll(String reason) {
    for (PendingAppend pending : pendingFlush) {
      pending.result().completeExceptionally(new IllegalStateException(reason));
    }
    pendingFlush.clear();
    for (List<CommitWaiter> waiters : commitWaiters.values()) {
      for (CommitWaiter waiter : waiters) {
        waiter.result().completeExceptionally(new RaftEntryNotCommittedException(reason));
      }
    }
    commitWaiters.clear();
    appendStartNanos.clear();
  }

  private void complete(CommitWaiter waiter) {
    Appended appended = waiter.appended();
    long entryTerm = termAt.applyAsLong(appended.index());
    if (entryTerm == appended.term()) {
      waiter.result().complete(appended.index());
      return;
    }
    waiter
        .result()
        .completeExceptionally(
            new RaftEntryNotCommittedException(
                "Expected entry "
                    + appended.index()
                    + " of term "
                    + appended.term()
                    + " to commit, but the committed entry there has "
                    + (entryTerm < 0 ? "an unknown term (snapshot installed)" : "term " + entryTerm)
                    + " (partition "
                    + partitionId
                    + ")"));
  }
}
