package io.cairn.backup;

import io.cairn.backup.upload.InProgressSweep;
import io.cairn.scheduler.Cancellable;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link BackupManager}'s state and the one place it changes ({@link #transition}). Each state
 * carries its own data: which sweep attempt runs, the retry timer of a failed one.
 *
 * <table>
 *   <caption>Backup manager states and their moves</caption>
 *   <tr><th>from</th><th>to</th><th>on</th></tr>
 *   <tr><td>NEW: built; backups queue on the actor</td><td>SWEEPING(1)</td>
 *       <td>the actor starts (this member leads)</td></tr>
 *   <tr><td>SWEEPING(n): sweep attempt n runs ({@link InProgressSweep}); backups wait</td>
 *       <td>OPEN</td><td>it succeeded: {@link BackupManager#ready()} completes</td></tr>
 *   <tr><td>SWEEPING(n)</td><td>SWEEP_BACKOFF(n)</td><td>the listing or a mark failed</td></tr>
 *   <tr><td>SWEEP_BACKOFF(n): waits {@link InProgressSweep#retryDelay}(n) on the actor's timer
 *       </td><td>SWEEPING(n + 1)</td><td>the timer fired</td></tr>
 *   <tr><td>OPEN: backups reach the store as upload slots free up</td><td>STOPPED</td>
 *       <td>closed (leadership lost)</td></tr>
 *   <tr><td>NEW, SWEEPING, SWEEP_BACKOFF</td><td>STOPPED</td>
 *       <td>closed ({@link BackupManager#ready()} fails)</td></tr>
 *   <tr><td>STOPPED: no uploads, confirmations or sweep attempts</td><td>–</td><td>–</td></tr>
 * </table>
 *
 * <p>{@link #transition} refuses a move not in the table with an {@link IllegalStateException} and
 * logs each move once, on the manager's logger: at INFO, but at WARN into SWEEP_BACKOFF (as the
 * failed sweep was logged before), with the stack trace for the first of a series. There is no
 * gauge of it (the in-progress gauge counts backups; each has its own states, {@code BackupJob}).
 * Moves on the manager's actor thread; read anywhere (STOPPED is checked on the upload executor).
 */
final class BackupManagerState {

  private static final Logger LOG = LoggerFactory.getLogger(BackupManager.class);

  /** The states of the class doc's table. */
  sealed interface State {

    record New() implements State {
      @Override
      public String toString() {
        return "NEW";
      }
    }

    record Sweeping(int attempt) implements State {
      @Override
      public String toString() {
        return "SWEEPING(attempt " + attempt + ")";
      }
    }

    record SweepBackoff(int failedAttempts, Cancellable retry) implements State {
      public SweepBackoff {
        Objects.requireNonNull(retry, "retry");
      }

      @Override
      public String toString() {
        return "SWEEP_BACKOFF(" + failedAttempts + " failed)";
      }
    }

    record Open() implements State {
      @Override
      public String toString() {
        return "OPEN";
      }
    }

    record Stopped() implements State {
      @Override
      public String toString() {
        return "STOPPED";
      }
    }
  }

  private final int partitionId;
  private volatile State state = new State.New();

  BackupManagerState(int partitionId) {
    this.partitionId = partitionId;
  }

  State get() {
    return state;
  }

  /**
   * Moves to {@code next}: checks the move against the class doc's table, then logs it once.
   *
   * @param on why, for the log line
   * @param cause logged with the line (a failed sweep), or null
   * @throws IllegalStateException if the move is not in the table
   */
  void transition(State next, String on, Throwable cause) {
    State current = state;
    if (!canBecome(current, next)) {
      throw new IllegalStateException(
          "Expected a move in the backup manager table, but "
              + current
              + " -> "
              + next
              + " ("
              + on
              + ") is not one (partition "
              + partitionId
              + ")");
    }
    state = next;
    if (next instanceof State.SweepBackoff) {
      LOG.warn("Partition {}: backup manager {} -> {}: {}", partitionId, current, next, on, cause);
    } else {
      LOG.info("Partition {}: backup manager {} -> {}: {}", partitionId, current, next, on);
    }
  }

  static boolean canBecome(State current, State next) {
    if (current instanceof State.Stopped) {
      return false;
    }
    if (next instanceof State.Stopped) {
      return true;
    }
    if (current instanceof State.New) {
      return next instanceof State.Sweeping sweeping && sweeping.attempt() == 1;
    }
    if (current instanceof State.Sweeping sweeping) {
      return next instanceof State.Open
          || next instanceof State.SweepBackoff backoff
              && backoff.failedAttempts() == sweeping.attempt();
    }
    if (current instanceof State.SweepBackoff backoff) {
      return next instanceof State.Sweeping sweeping
          && sweeping.attempt() == backoff.failedAttempts() + 1;
    }
    return false;
  }
}
