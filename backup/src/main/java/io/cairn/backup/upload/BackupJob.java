package io.cairn.backup.upload;

import io.cairn.backup.BackupOutcome;
import io.cairn.backup.Checkpoint;
import io.cairn.backupapi.BackupFailure;
import io.cairn.snapshot.SnapshotStore;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One backup in a backup manager, from its checkpoint's reservation to its outcome.
 *
 * <table>
 *   <caption>A backup's states and their moves</caption>
 *   <tr><th>from</th><th>to</th><th>on</th></tr>
 *   <tr><td>SUBMITTED: handed to the manager's actor</td><td>WAITING</td>
 *       <td>the actor takes it over</td></tr>
 *   <tr><td>SUBMITTED</td><td>FINISHED</td>
 *       <td>the actor closed before it took it over (nothing reached the store)</td></tr>
 *   <tr><td>WAITING: queued for an upload slot</td><td>UPLOADING</td>
 *       <td>a slot is free (the sweep is done, the throttle allows)</td></tr>
 *   <tr><td>WAITING</td><td>FINISHED</td>
 *       <td>refused (too many waiting) or dropped (leadership lost)</td></tr>
 *   <tr><td>UPLOADING(since): the upload chain runs</td><td>FINISHED</td>
 *       <td>the chain ended, or the reservation it needed had failed</td></tr>
 *   <tr><td>FINISHED(outcome)</td><td>–</td><td>finishing again is no move: the first wins</td>
 *   </tr>
 * </table>
 *
 * <p>{@link #transition} is the one place the state changes: thread-safe (compare-and-set, as a
 * backup may end on a store thread or the actor), it refuses a move not in the table with an {@link
 * IllegalStateException} and logs each move once at DEBUG — the manager logs each backup's outcome
 * at INFO or WARN, and a line per move per backup beside it would be noise. The in-progress gauge
 * is the manager's ({@code BackupMetrics#backupStarted}/{@code backupEnded}).
 *
 * <p>What taking the reservation gave — the reservation, or why there is none — is one {@link
 * Reservation} for the job's whole life.
 */
public final class BackupJob {

  private static final Logger LOG = LoggerFactory.getLogger(BackupJob.class);

  /** What taking the checkpoint's reservation gave. */
  public sealed interface Reservation {

    /** Holds the snapshot and the log until the job ends. */
    record Held(CheckpointReservation reservation) implements Reservation {
      public Held {
        Objects.requireNonNull(reservation, "reservation");
      }
    }

    /** Nothing held: the backup fails with {@code reason} when its turn comes. */
    record Unavailable(String reason) implements Reservation {
      public Unavailable {
        Objects.requireNonNull(reason, "reason");
      }
    }
  }

  /** A backup's states; the moves are in the class doc's table. */
  public sealed interface State {

    /** Handed to the manager's actor, not taken over yet. */
    record Submitted() implements State {
      @Override
      public String toString() {
        return "SUBMITTED";
      }
    }

    /** Taken over by the actor: waits for an upload slot. */
    record Waiting() implements State {
      @Override
      public String toString() {
        return "WAITING";
      }
    }

    /** Its upload chain runs since {@code startNanos}, on the manager's clock. */
    record Uploading(long startNanos) implements State {
      @Override
      public String toString() {
        return "UPLOADING";
      }
    }

    /** Ended with {@code outcome}. */
    record Finished(BackupOutcome outcome) implements State {
      public Finished {
        Objects.requireNonNull(outcome, "outcome");
      }

      @Override
      public String toString() {
        return "FINISHED(" + outcome.kind() + ")";
      }
    }
  }

  private final Checkpoint checkpoint;
  private final Reservation reservation;
  private final long reservedNanos;
  private final CompletableFuture<BackupOutcome> outcome = new CompletableFuture<>();
  private final AtomicReference<State> state = new AtomicReference<>(new State.Submitted());

  /**
   * A SUBMITTED job.
   *
   * @param reservedNanos when the reservation was taken, on the manager's clock
   */
  public BackupJob(Checkpoint checkpoint, Reservation reservation, long reservedNanos) {
    this.checkpoint = Objects.requireNonNull(checkpoint, "checkpoint");
    this.reservation = Objects.requireNonNull(reservation, "reservation");
    this.reservedNanos = reservedNanos;
  }

  /**
   * A SUBMITTED job for {@code checkpoint}, with what {@link CheckpointReservation#take} gave: the
   * reservation, or why there is none (the backup fails with that when its turn comes).
   *
   * @param nowNanos the manager's clock
   */
  public static BackupJob reserve(Checkpoint checkpoint, SnapshotStore snapshots, long nowNanos) {
    Reservation reservation;
    try {
      reservation = new Reservation.Held(CheckpointReservation.take(checkpoint, snapshots));
    } catch (RuntimeException e) {
      reservation =
          new Reservation.Unavailable(
              BackupFailure.SNAPSHOT_UNAVAILABLE.reason(
                  "Expected to reserve a snapshot for checkpoint "
                      + checkpoint.id()
                      + " at position "
                      + checkpoint.position()
                      + ", but: "
                      + e.getMessage()));
    }
    return new BackupJob(checkpoint, reservation, nowNanos);
  }

  public Checkpoint checkpoint() {
    return checkpoint;
  }

  public long id() {
    return checkpoint.id();
  }

  public Reservation reservation() {
    return reservation;
  }

  public long reservedNanos() {
    return reservedNanos;
  }

  /** Completed by the manager once the job is FINISHED. */
  public CompletableFuture<BackupOutcome> outcome() {
    return outcome;
  }

  public State state() {
    return state.get();
  }

  /**
   * When the upload started, on the manager's clock.
   *
   * @throws IllegalStateException if the job is not UPLOADING
   */
  public long uploadStartNanos() {
    State current = state.get();
    if (current instanceof State.Uploading uploading) {
      return uploading.startNanos();
    }
    throw new IllegalStateException(
        "Expected backup " + id() + " to be uploading, but it is " + current);
  }

  /**
   * Moves to {@code next}; see the class doc's table.
   *
   * @param on what made the move, for the DEBUG line
   * @return false only if {@code next} is FINISHED and the job had finished already (the first
   *     caller to finish a job ends it; the others do nothing)
   * @throws IllegalStateException if the move is not in the table
   */
  public boolean transition(State next, String on) {
    Objects.requireNonNull(next, "next");
    while (true) {
      State current = state.get();
      if (current instanceof State.Finished && next instanceof State.Finished) {
        return false;
      }
      if (!canBecome(current, next)) {
        throw new IllegalStateException(
            "Expected a move in the backup job table, but "
                + current
                + " -> "
                + next
                + " ("
                + on
                + ") is not one (backup "
                + id()
                + ")");
      }
      if (state.compareAndSet(current, next)) {
        LOG.debug("Backup {}: {} -> {} ({})", id(), current, next, on);
        return true;
      }
    }
  }

  /** Releases the snapshot and the log hold, if held; idempotent. */
  public void release() {
    if (reservation instanceof Reservation.Held held) {
      held.reservation().close();
    }
  }

  private static boolean canBecome(State current, State next) {
    if (current instanceof State.Submitted) {
      return next instanceof State.Waiting || next instanceof State.Finished;
    }
    if (current instanceof State.Waiting) {
      return next instanceof State.Uploading || next instanceof State.Finished;
    }
    if (current instanceof State.Uploading) {
      return next instanceof State.Finished;
    }
    return false;
  }
}
