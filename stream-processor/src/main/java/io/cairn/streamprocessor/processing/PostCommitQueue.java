package io.cairn.streamprocessor.processing;

import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.streamprocessor.CommandResponseWriter;
import io.cairn.streamprocessor.SideEffect;
import io.cairn.streamprocessor.StreamProcessorMetrics;
import java.util.ArrayDeque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Responses (and sends those that need not wait) and side effects waiting for their batch to
 * commit, in processing order. Each entry waits for a position: the end of its command's batch, or,
 * for a command that wrote nothing, the end of the last batch written before it (its result was
 * computed on that state). Entries run in order once the commit position reaches them.
 */
public final class PostCommitQueue {

  private static final Logger LOG = LoggerFactory.getLogger(PostCommitQueue.class);

  private record Pending(
      long position,
      int requestStreamId,
      long requestId,
      Record response,
      List<SideEffect> sideEffects) {}

  private final int partitionId;
  private final CommandResponseWriter responseWriter;
  private final StreamProcessorMetrics metrics;
  private final ArrayDeque<Pending> pending = new ArrayDeque<>();

  public PostCommitQueue(
      int partitionId, CommandResponseWriter responseWriter, StreamProcessorMetrics metrics) {
    this.partitionId = partitionId;
    this.responseWriter = responseWriter;
    this.metrics = metrics;
  }

  /**
   * Queues what runs once {@code position} is committed.
   *
   * @param response null for none
   */
  void add(
      long position,
      int requestStreamId,
      long requestId,
      Record response,
      List<SideEffect> sideEffects) {
    if (response == null && sideEffects.isEmpty()) {
      return;
    }
    pending.add(new Pending(position, requestStreamId, requestId, response, sideEffects));
  }

  /** Sends a response now, ahead of the entries still waiting for their batch. */
  void respond(int requestStreamId, long requestId, Record response) {
    send(new Pending(RecordMetadata.NO_POSITION, requestStreamId, requestId, response, List.of()));
  }

  /** Runs, in order, every entry whose position is at or below {@code commitPosition}. */
  public void runCommitted(long commitPosition) {
    while (!pending.isEmpty() && pending.peekFirst().position() <= commitPosition) {
      Pending entry = pending.pollFirst();
      if (entry.response() != null) {
        send(entry);
      }
      for (SideEffect sideEffect : entry.sideEffects()) {
        run(sideEffect, entry.position());
      }
    }
  }

  /** Drops everything: the batches may never commit (leadership lost, processor closed). */
  public int clear() {
    int dropped = pending.size();
    pending.clear();
    return dropped;
  }

  public int size() {
    return pending.size();
  }

  private void send(Pending entry) {
    try {
      responseWriter.sendResponse(entry.requestStreamId(), entry.requestId(), entry.response());
    } catch (RuntimeException e) {
      // The client times out and retries; the state is committed either way.
      metrics.responseFailed();
      LOG.warn(
          "Response to request {} on stream {} not sent (partition {})",
          entry.requestId(),
          entry.requestStreamId(),
          partitionId,
          e);
    }
  }

  private void run(SideEffect sideEffect, long position) {
    try {
      sideEffect.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      metrics.sideEffectFailed();
      LOG.warn(
          "Side effect after position {} was interrupted (partition {})", position, partitionId, e);
    } catch (Exception e) {
      // Side effects are retried by their owners (e.g. unacknowledged credits are re-sent).
      metrics.sideEffectFailed();
      LOG.warn("Side effect after position {} failed (partition {})", position, partitionId, e);
    }
  }
}
