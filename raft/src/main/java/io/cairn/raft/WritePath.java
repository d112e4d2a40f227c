package io.cairn.raft;

import io.cairn.raft.AppendResult.Appended;
import io.cairn.raft.consensus.RaftNode;
import io.cairn.raft.log.RaftLog;
import io.cairn.scheduler.Clock;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path of one {@link RaftServer}, from an application append to the local flush: the
 * appends that wait for a leadership transfer to end (at most {@value
 * RaftServer#DEFERRED_APPENDS_MAX}; one more gives the transfer up), and the journal flushes,
 * batched (many appends, one flush) and, with a flush executor, run there one at a time while the
 * member goes on. What waits for a flush or a commit is the {@link AppendTracker}'s. Actor thread
 * only, except the fsync on the flush executor.
 */
final class WritePath {

  // the server's logger: these lines are the server's
  private static final Logger LOG = LoggerFactory.getLogger(RaftServer.class);

  private final RaftServer server;
  private final RaftNode node;
  private final RaftLog log;
  private final AppendTracker appends;
  private final Clock clock;
  private final Executor flushExecutor;
  private final Runnable afterEvent;
  private final ArrayDeque<DeferredAppend> deferredAppends = new ArrayDeque<>();
  private boolean flushScheduled;
  private boolean flushInFlight;

  /**
   * @param flushExecutor where fsyncs run, or null to run them on the actor thread
   * @param afterEvent the server's follow-up after the node changed (timer, releases, flushes)
   */
  WritePath(
      RaftServer server,
      RaftNode node,
      RaftLog log,
      AppendTracker appends,
      Clock clock,
      Executor flushExecutor,
      Runnable afterEvent) {
    this.server = server;
    this.node = node;
    this.log = log;
    this.appends = appends;
    this.clock = clock;
    this.flushExecutor = flushExecutor;
    this.afterEvent = afterEvent;
  }

  void append(
      long lowestPosition,
      long highestPosition,
      byte[] payload,
      CompletableFuture<AppendResult> result) {
    if (!isUsable()) {
      result.completeExceptionally(notActive(server));
      return;
    }
    DeferredAppend append =
        new DeferredAppend(lowestPosition, highestPosition, payload, result, clock.nanos());
    if (node.isTransferringLeadership() || !deferredAppends.isEmpty()) {
      deferredAppends.add(append); // in order behind the ones already waiting
      if (deferredAppends.size() > RaftServer.DEFERRED_APPENDS_MAX) {
        node.abortLeadershipTransfer(
            clock.millis(),
            "more than " + RaftServer.DEFERRED_APPENDS_MAX + " appends wait for it");
        afterEvent.run();
      }
      return;
    }
    appendNow(append);
  }

  private void appendNow(DeferredAppend append) {
    AppendResult appendResult =
        node.append(
            append.lowestPosition(),
            append.highestPosition(),
            new UnsafeBuffer(append.payload()),
            clock.millis());
    if (appendResult instanceof Appended appended) {
      appends.onAppended(appended, append.result(), append.startNanos());
      scheduleFlush();
    } else {
      append.result().complete(appendResult);
    }
  }

  /**
   * After the node changed: appends what waited for a leadership transfer, once none runs (or
   * answers NotLeader), and schedules the flush a flush executor's node needs.
   */
  void afterEvent() {
    releaseDeferredAppends();
    if (flushExecutor != null && !flushInFlight && node.needsFlush()) {
      scheduleFlush();
    }
  }

  private void releaseDeferredAppends() {
    while (!deferredAppends.isEmpty() && isUsable() && !node.isTransferringLeadership()) {
      DeferredAppend append = deferredAppends.poll();
      try {
        appendNow(append);
      } catch (IllegalArgumentException e) {
        append.result().completeExceptionally(e); // positions that do not follow: the caller's bug
      } catch (RuntimeException e) {
        append.result().completeExceptionally(e);
        throw e; // the member failed; failAll answers the rest
      }
    }
  }

  static IllegalStateException notActive(RaftServer server) {
    return new IllegalStateException(
        "Expected an active raft member to append, but it is "
            + server.role()
            + " (partition "
            + server.partitionId()
            + ", node "
            + server.localNodeId()
            + ")");
  }

  private void scheduleFlush() {
    if (!flushScheduled) {
      flushScheduled = true;
      server.submit(this::flush);
    }
  }

  private void flush() {
    flushScheduled = false;
    if (!isUsable()) {
      failAll("raft member is " + server.role());
      return;
    }
    if (flushExecutor == null) {
      long flushedIndex = node.flushAndReplicate(clock.millis());
      appends.onFlushed(flushedIndex, clock.nanos(), server.leaderId(), server.term());
      afterEvent.run();
      return;
    }
    if (flushInFlight || !node.needsFlush()) {
      return; // the flush in flight schedules the next one when it is done
    }
    RaftLog.PendingFlush pending = node.prepareFlush(clock.millis());
    flushInFlight = true;
    try {
      flushExecutor.execute(() -> forceAndReport(pending));
    } catch (RejectedExecutionException e) {
      forceAndReport(pending); // the executor is shutting down: this member closes soon too
    }
    afterEvent.run();
  }

  /** Flush executor: the fsync, then back to the actor. */
  private void forceAndReport(RaftLog.PendingFlush pending) {
    RuntimeException failure = null;
    try {
      pending.force();
    } catch (RuntimeException e) {
      failure = e;
    }
    RuntimeException error = failure;
    server.submit(() -> onFlushDone(pending, error));
  }

  private void onFlushDone(RaftLog.PendingFlush pending, RuntimeException error) {
    flushInFlight = false;
    if (!isUsable()) {
      return;
    }
    if (error != null) {
      LOG.error(
          "Flushing the journal failed; the raft member fails (partition {}, node {})",
          server.partitionId(),
          server.localNodeId(),
          error);
      node.onFlushFailed(error);
      return;
    }
    node.onFlushed(pending, clock.millis());
    appends.onFlushed(log.flushedIndex(), clock.nanos(), server.leaderId(), server.term());
    afterEvent.run();
  }

  boolean isUsable() {
    RaftRole current = node.role();
    return current != RaftRole.FAILED && current != RaftRole.INACTIVE;
  }

  /** Fails every append that waits here or in the tracker. */
  void failAll(String reason) {
    while (!deferredAppends.isEmpty()) {
      deferredAppends.poll().result().completeExceptionally(new IllegalStateException(reason));
    }
    appends.failAll(reason);
  }

  /** An append that waits for a leadership transfer to end. */
  private record DeferredAppend(
      long lowestPosition,
      long highestPosition,
      byte[] payload,
      CompletableFuture<AppendResult> result,
      long startNanos) {}
}
