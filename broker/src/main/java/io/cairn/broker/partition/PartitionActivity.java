package io.cairn.broker.partition;

import io.cairn.scheduler.Cancellable;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a partition's actor ({@link PartitionActor}) is doing, and the one place that changes it
 * ({@link #transition}). Each state carries its own data: the transition under way, the failures so
 * far, the retry timer, the work in flight. The partition's role ({@link PartitionRoleState}) is
 * what this work leads to; it changes when a transition ends, fails, or the partition stops.
 *
 * <table>
 *   <caption>Partition activities and their moves</caption>
 *   <tr><th>from</th><th>to</th><th>on</th></tr>
 *   <tr><td>IDLE(failed): nothing in flight; {@code failed} failed attempts in a row (0 once one
 *       succeeded)</td><td>TRANSITIONING</td><td>reconcile: the run does not match raft's role
 *       and term, or its state is stale</td></tr>
 *   <tr><td>TRANSITIONING(target, term): stop the run, rebuild the state if stale, start a run
 *       </td><td>IDLE(0)</td><td>it succeeded: the role is the target</td></tr>
 *   <tr><td>TRANSITIONING</td><td>CLEANING_UP</td><td>it failed and attempts are left: the role
 *       is INACTIVE, the health UNHEALTHY</td></tr>
 *   <tr><td>TRANSITIONING</td><td>FAILING</td><td>it failed for good (a corrupt state, the last
 *       attempt), or ended while a failure was pending</td></tr>
 *   <tr><td>TRANSITIONING, CLEANING_UP</td><td>the same, with a pending failure</td>
 *       <td>a failure came meanwhile: applied when the work in flight ends</td></tr>
 *   <tr><td>CLEANING_UP(failed, delay): stop the run, close the state</td>
 *       <td>RETRY_WAITING</td><td>done</td></tr>
 *   <tr><td>CLEANING_UP</td><td>FAILING</td><td>done, with a failure pending</td></tr>
 *   <tr><td>RETRY_WAITING(failed): a timer runs for the delay</td><td>IDLE(failed)</td>
 *       <td>the timer fired (reconcile follows)</td></tr>
 *   <tr><td>IDLE, RETRY_WAITING</td><td>FAILING</td><td>a failure: the stream processor or the
 *       raft member failed (the role is FAILED, the health FAILED)</td></tr>
 *   <tr><td>FAILING: stop the run, close the state</td><td>FAILED</td><td>done</td></tr>
 *   <tr><td>FAILED: stopped for good; the raft member keeps running</td><td>CLOSING</td>
 *       <td>shutdown</td></tr>
 *   <tr><td>any but CLOSING and CLOSED</td><td>CLOSING(interrupted)</td><td>shutdown: waits
 *       for what {@code interrupted} had in flight, then stops and closes everything</td></tr>
 *   <tr><td>CLOSING</td><td>CLOSED</td><td>everything closed: the role is CLOSED</td></tr>
 * </table>
 *
 * <p>{@link #transition} refuses a move not in the table with an {@link IllegalStateException} and
 * logs each move once at DEBUG, as the start of a transition was logged before: what a move means
 * to operators is logged once by the role (INFO; ERROR for FAILED) or the health (WARN for
 * UNHEALTHY) that changes with it, and their gauges are set there. Actor thread only.
 */
final class PartitionActivity {

  private static final Logger LOG = LoggerFactory.getLogger(PartitionActivity.class);

  private static final CompletableFuture<Void> NOTHING_IN_FLIGHT =
      CompletableFuture.completedFuture(null);

  /** The states of the class doc's table. */
  sealed interface Activity {

    /** Completes when the work in flight has ended; completed when there is none. */
    default CompletableFuture<Void> inFlight() {
      return NOTHING_IN_FLIGHT;
    }

    record Idle(int failedAttempts) implements Activity {
      @Override
      public String toString() {
        return "IDLE(" + failedAttempts + " failed)";
      }
    }

    /**
     * @param failedAttempts failed attempts in a row before this one
     * @param pendingFailure a failure that came meanwhile
     * @param done completes once the transition's end was handled
     */
    record Transitioning(
        PartitionRole target,
        long term,
        boolean rebuild,
        long startedNanos,
        int failedAttempts,
        Optional<String> pendingFailure,
        CompletableFuture<Void> done)
        implements Activity {

      public Transitioning {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(pendingFailure, "pendingFailure");
        Objects.requireNonNull(done, "done");
      }

      Transitioning withPendingFailure(String reason) {
        return new Transitioning(
            target, term, rebuild, startedNanos, failedAttempts, Optional.of(reason), done);
      }

      @Override
      public CompletableFuture<Void> inFlight() {
        return done;
      }

      @Override
      public String toString() {
        return "TRANSITIONING(to "
            + target
            + " in term "
            + term
            + (rebuild ? ", rebuilding the state" : "")
            + pendingFailure.map(reason -> ", failure pending: " + reason).orElse("")
            + ")";
      }
    }

    /**
     * @param failedAttempts failed attempts in a row, this one included
     * @param delay before the next attempt
     */
    record CleaningUp(
        int failedAttempts,
        Duration delay,
        Optional<String> pendingFailure,
        CompletableFuture<Void> done)
        implements Activity {

      public CleaningUp {
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(pendingFailure, "pendingFailure");
        Objects.requireNonNull(done, "done");
      }

      CleaningUp withPendingFailure(String reason) {
        return new CleaningUp(failedAttempts, delay, Optional.of(reason), done);
      }

      @Override
      public CompletableFuture<Void> inFlight() {
        return done;
      }

      @Override
      public String toString() {
        return "CLEANING_UP("
            + failedAttempts
            + " failed, retry in "
            + delay
            + pendingFailure.map(reason -> ", failure pending: " + reason).orElse("")
            + ")";
      }
    }

    record RetryWaiting(int failedAttempts, Cancellable timer) implements Activity {
      public RetryWaiting {
        Objects.requireNonNull(timer, "timer");
      }

      @Override
      public String toString() {
        return "RETRY_WAITING(" + failedAttempts + " failed)";
      }
    }

    record Failing(CompletableFuture<Void> done) implements Activity {
      public Failing {
        Objects.requireNonNull(done, "done");
      }

      @Override
      public CompletableFuture<Void> inFlight() {
        return done;
      }

      @Override
      public String toString() {
        return "FAILING";
      }
    }

    record Failed() implements Activity {
      @Override
      public String toString() {
        return "FAILED";
      }
    }

    /**
     * @param interrupted what the partition was doing; its work in flight ends first
     */
    record Closing(Activity interrupted) implements Activity {
      public Closing {
        Objects.requireNonNull(interrupted, "interrupted");
      }

      @Override
      public CompletableFuture<Void> inFlight() {
        return interrupted.inFlight();
      }

      @Override
      public String toString() {
        return "CLOSING(after " + interrupted + ")";
      }
    }

    record Closed() implements Activity {
      @Override
      public String toString() {
        return "CLOSED";
      }
    }
  }

  private final String description;
  private Activity activity = new Activity.Idle(0);

  /**
   * @param description "partition p on node n", for the log lines and messages
   */
  PartitionActivity(String description) {
    this.description = description;
  }

  Activity get() {
    return activity;
  }

  /** Shutdown began (CLOSING or CLOSED): nothing new starts. */
  boolean isClosing() {
    return activity instanceof Activity.Closing || activity instanceof Activity.Closed;
  }

  /**
   * Moves to {@code next}: checks the move against the class doc's table and logs it at DEBUG.
   *
   * @param on what made the move, for the log line
   * @throws IllegalStateException if the move is not in the table
   */
  void transition(Activity next, String on) {
    Activity current = activity;
    if (!canBecome(current, next)) {
      throw new IllegalStateException(
          "Expected a move in the partition activity table, but "
              + current
              + " -> "
              + next
              + " ("
              + on
              + ") is not one ("
              + description
              + ")");
    }
    activity = next;
    LOG.debug("{}: {} -> {} ({})", description, current, next, on);
  }

  static boolean canBecome(Activity current, Activity next) {
    if (next instanceof Activity.Closing) {
      return !(current instanceof Activity.Closing) && !(current instanceof Activity.Closed);
    }
    if (current instanceof Activity.Idle) {
      return next instanceof Activity.Transitioning || next instanceof Activity.Failing;
    }
    if (current instanceof Activity.Transitioning) {
      return next instanceof Activity.Transitioning
          || next instanceof Activity.Idle idle && idle.failedAttempts() == 0
          || next instanceof Activity.CleaningUp
          || next instanceof Activity.Failing;
    }
    if (current instanceof Activity.CleaningUp) {
      return next instanceof Activity.CleaningUp
          || next instanceof Activity.RetryWaiting
          || next instanceof Activity.Failing;
    }
    if (current instanceof Activity.RetryWaiting waiting) {
      return next instanceof Activity.Idle idle && idle.failedAttempts() == waiting.failedAttempts()
          || next instanceof Activity.Failing;
    }
    if (current instanceof Activity.Failing) {
      return next instanceof Activity.Failed;
    }
    if (current instanceof Activity.Closing) {
      return next instanceof Activity.Closed;
    }
    return false;
  }
}
