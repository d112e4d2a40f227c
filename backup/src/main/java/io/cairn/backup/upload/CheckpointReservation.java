package io.cairn.backup.upload;

import io.cairn.backup.Checkpoint;
import io.cairn.snapshot.CompactionHold;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotReservation;
import io.cairn.snapshot.SnapshotStore;
import java.util.Optional;

/**
 * What a backup holds from the moment its checkpoint is taken until it ends: the newest snapshot
 * usable for the checkpoint (if any) and a compaction hold on the log from that snapshot's index
 * (from index 1 when there is none). Taken before any call to the backup store (LESSONS.md,
 * camunda#63806): a snapshot taken later, or retention, can then never remove what the backup
 * needs. Thread-safe; {@link #close()} is idempotent.
 */
public final class CheckpointReservation implements AutoCloseable {

  private final Checkpoint checkpoint;
  private final Optional<SnapshotReservation> snapshot;
  private final CompactionHold hold;

  private CheckpointReservation(
      Checkpoint checkpoint, Optional<SnapshotReservation> snapshot, CompactionHold hold) {
    this.checkpoint = checkpoint;
    this.snapshot = snapshot;
    this.hold = hold;
  }

  /**
   * Holds the whole log first, then reserves the newest snapshot whose processed and last written
   * positions are both below the checkpoint position, then narrows the hold to that snapshot's
   * index. So no compaction can slip in between.
   *
   * @throws RuntimeException if the snapshot store fails (nothing stays held)
   */
  public static CheckpointReservation take(Checkpoint checkpoint, SnapshotStore snapshots) {
    CompactionHold hold = snapshots.registerCompactionHold("backup-" + checkpoint.id(), 1);
    try {
      long position = checkpoint.position();
      Optional<SnapshotReservation> reserved =
          snapshots.reserveNewest(
              candidate ->
                  candidate.metadata().processedPosition() < position
                      && candidate.metadata().lastWrittenPosition() < position);
      reserved.ifPresent(r -> hold.moveTo(r.snapshot().index()));
      return new CheckpointReservation(checkpoint, reserved, hold);
    } catch (RuntimeException e) {
      hold.close();
      throw e;
    }
  }

  public Checkpoint checkpoint() {
    return checkpoint;
  }

  /** The reserved snapshot; empty when none was usable (a log-only backup, if the log allows). */
  public Optional<PersistedSnapshot> snapshot() {
    return snapshot.map(SnapshotReservation::snapshot);
  }

  /** The lowest log index held. */
  public long heldIndex() {
    return hold.index();
  }

  /** Releases the snapshot and the log. Call only once nothing reads their files any more. */
  @Override
  public void close() {
    try {
      snapshot.ifPresent(SnapshotReservation::close);
    } finally {
      hold.close();
    }
  }
}
