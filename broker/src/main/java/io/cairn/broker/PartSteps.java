package io.cairn.broker;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How one broker waits for and closes its parts, with messages that name the node: a part's future
 * is waited for with a timeout and its failure thrown as one {@link IllegalStateException} naming
 * the part; a closing step that throws is logged and the next step runs, so that one part that
 * cannot close keeps no other part open.
 */
final class PartSteps {

  // the broker's logger: these lines are the broker's
  private static final Logger LOG = LoggerFactory.getLogger(Broker.class);

  /** How long a part gets by default to start (actors, partitions) or to close (partitions). */
  static final Duration PART_TIMEOUT = Duration.ofSeconds(60);

  private final int nodeId;

  PartSteps(int nodeId) {
    this.nodeId = nodeId;
  }

  /** A closing step. */
  @FunctionalInterface
  interface Step {
    void run() throws Exception;
  }

  /** Runs {@code step}; what it throws is logged, never thrown (an interrupt is kept). */
  void quietly(String what, Step step) {
    try {
      step.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      LOG.warn("Interrupted while closing {} of node {}", what, nodeId);
    } catch (Exception e) {
      LOG.warn("Closing {} of node {} failed", what, nodeId, e);
    }
  }

  /**
   * Waits {@link #PART_TIMEOUT} for {@code future}; see {@link #join(CompletableFuture, String,
   * Duration)}.
   */
  void join(CompletableFuture<?> future, String what) {
    join(future, what, PART_TIMEOUT);
  }

  /**
   * Waits for {@code future}.
   *
   * @throws IllegalStateException naming {@code what} if it failed, did not complete within {@code
   *     timeout} or the wait was interrupted (the interrupt is kept)
   */
  void join(CompletableFuture<?> future, String what, Duration timeout) {
    try {
      future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(
          "Interrupted while waiting for " + what + " (node " + nodeId + ")", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "Expected " + what + " to complete, but it failed (node " + nodeId + ")", e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "Expected " + what + " within " + timeout + ", but it did not (node " + nodeId + ")", e);
    }
  }

  /** Closes {@code closeable} unless it is null. */
  static void close(AutoCloseable closeable) throws Exception {
    if (closeable != null) {
      closeable.close();
    }
  }
}
