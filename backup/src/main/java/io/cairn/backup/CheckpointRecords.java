package io.cairn.backup;

import io.cairn.backup.checkpoint.CheckpointRegistration;
import io.cairn.backup.restore.RestoreMarker;
import io.cairn.db.CairnDb;
import io.cairn.streamprocessor.RecordProcessors;
import java.util.Objects;
import java.util.Optional;

/**
 * Registers the {@code CHECKPOINT} records (DESIGN.md §7) on a stream processor's registry: the
 * {@code CREATE} and {@code CONFIRM_BACKUP} processors, the {@code CREATED}, {@code IGNORED} and
 * {@code CONFIRMED_BACKUP} appliers, and the interceptor of the consistent cut.
 *
 * <pre>{@code
 * RecordProcessors.Builder builder = RecordProcessors.builder();
 * CheckpointState checkpoints =
 *     CheckpointRecords.register(partitionId, db, builder, leader ? backupManager : CheckpointListener.NONE, metrics);
 * Ledger.register(db, builder, checkpoints::latestCheckpointId, ...);   // the engine stamps with it
 * }</pre>
 *
 * <p>Register the checkpoint records <em>before</em> other interceptors: the cut interceptor must
 * see every command first. The database must be opened with {@link BackupColumnFamily#all()}.
 */
public final class CheckpointRecords {

  private CheckpointRecords() {}

  /**
   * @param partitionId the partition, for logs
   * @param listener told on the leader when a checkpoint is created (the backup manager), {@link
   *     CheckpointListener#NONE} otherwise
   * @param metrics the partition's backup metrics (checkpoint id, position, digest mismatches)
   * @return the checkpoint state over {@code db}; its {@link CheckpointState#latestCheckpointId()}
   *     is the engine's checkpoint id supplier
   * @throws IllegalArgumentException if {@code db} lacks {@link BackupColumnFamily#all()}
   */
  public static CheckpointState register(
      int partitionId,
      CairnDb db,
      RecordProcessors.Builder builder,
      CheckpointListener listener,
      BackupMetrics metrics) {
    return register(partitionId, db, builder, listener, metrics, Optional.empty());
  }

  /**
   * Registers the checkpoint records of a partition that may have been restored from a backup.
   *
   * <p>A restored partition's leader processes the kept log up to the checkpoint again (DESIGN.md
   * §10). An inter-partition command in that stretch stamped with a checkpoint id above the state's
   * latest was deferred behind a {@code CREATE} when it was first processed, so it took effect
   * after the cut; the restore dropped the deferred copy with everything after the checkpoint. With
   * {@code restored} present, such a command is therefore dropped again — taken, nothing written —
   * instead of being deferred once more: it belongs to the other partitions' state after their cut,
   * which the restore does not hold. Pass the partition's {@link RestoreMarker} whenever its
   * directory has one (every role, every run).
   *
   * @param restored the partition's restore marker; empty if the partition was not restored
   */
  public static CheckpointState register(
      int partitionId,
      CairnDb db,
      RecordProcessors.Builder builder,
      CheckpointListener listener,
      BackupMetrics metrics,
      Optional<RestoreMarker> restored) {
    return CheckpointRegistration.register(
        partitionId,
        Objects.requireNonNull(db, "db"),
        Objects.requireNonNull(builder, "builder"),
        Objects.requireNonNull(listener, "listener"),
        Objects.requireNonNull(metrics, "metrics"),
        Objects.requireNonNull(restored, "restored"));
  }
}
