package io.cairn.backup.upload;

import io.cairn.backup.BackupOutcome;
import io.cairn.backup.Checkpoint;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One backup in a backup manager, from its checkpoint's reservation to its outcome. The flags are
 * thread-safe; {@link #finish()} lets exactly one caller end the job.
 */
public final class BackupJob {

  private final Checkpoint checkpoint;
  private final CheckpointReservation reservation;
  private final String reservationFailure;
  private final long reservedNanos;
  private final CompletableFuture<BackupOutcome> outcome = new CompletableFuture<>();
  private final AtomicBoolean finished = new AtomicBoolean();
  private volatile boolean accepted;
  private volatile long uploadStartNanos;

  /**
   * @param reservation null iff {@code reservationFailure} is set
   * @param reservedNanos when the reservation was taken, on the manager's clock
   */
  public BackupJob(
      final Checkpoint checkpoint,
      final CheckpointReservation reservation,
      final String reservationFailure,
      final long reservedNanos) {
    this.checkpoint = checkpoint;
    this.reservation = reservation;
    this.reservationFailure = reservationFailure;
    this.reservedNanos = reservedNanos;
  }

  public Checkpoint checkpoint() {
    return checkpoint;
  }

  public long id() {
    return checkpoint.id();
  }

  /** The reservation; null if taking it failed (see {@link #reservationFailure()}). */
  public CheckpointReservation reservation() {
    return reservation;
  }

  /** Why the reservation could not be taken, or null. */
  public String reservationFailure() {
    return reservationFailure;
  }

  public long reservedNanos() {
    return reservedNanos;
  }

  public CompletableFuture<BackupOutcome> outcome() {
    return outcome;
  }

  /** The manager's actor took the job over. */
  public void accepted() {
    accepted = true;
  }

  public boolean isAccepted() {
    return accepted;
  }

  public void uploadStarted(final long nanos) {
    uploadStartNanos = nanos;
  }

  public long uploadStartNanos() {
    return uploadStartNanos;
  }

  /** True for the one caller that ends the job. */
  public boolean finish() {
    return finished.compareAndSet(false, true);
  }

  /** Releases the snapshot and the log hold; idempotent. */
  public void release() {
    if (reservation != null) {
      reservation.close();
    }
  }
}
