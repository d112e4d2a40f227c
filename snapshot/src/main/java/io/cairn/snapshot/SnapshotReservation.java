package io.cairn.snapshot;

/**
 * Keeps one persisted snapshot from being deleted, by retention or anything else, until closed. A
 * snapshot is deleted only when every reservation on it is closed and retention no longer keeps it.
 * Thread-safe; {@link #close()} is idempotent.
 */
public interface SnapshotReservation extends AutoCloseable {

  /** The reserved snapshot; its files stay in place until this reservation is closed. */
  PersistedSnapshot snapshot();

  /** Releases the reservation. Idempotent. */
  @Override
  void close();
}
