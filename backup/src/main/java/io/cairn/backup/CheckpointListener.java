package io.cairn.backup;

/**
 * Told on the partition's leader when a checkpoint was taken (and when a backup's deletion was
 * requested): the {@code CREATE} command was just processed and its {@code CREATED} event applied,
 * in the command's transaction. Never called during replay or on followers.
 *
 * <p>Runs on the processing thread: it must not block (the {@link BackupManager} reserves the
 * snapshot — a short in-memory step — and hands everything else to its own actor). It may be told
 * the same checkpoint more than once (a command retried after backpressure, a {@code CREATE}
 * processed again by a new leader because its {@code CREATED} batch was dropped), and it must not
 * throw.
 */
@FunctionalInterface
public interface CheckpointListener {

  /** Does nothing: followers, and leaders without backups. */
  CheckpointListener NONE = checkpoint -> {};

  void onCheckpointCreated(Checkpoint checkpoint);

  /**
   * Told instead of {@link #onCheckpointCreated} with what asked for the checkpoint. By default a
   * marker is not a backup, and a checkpoint taken through a stamp is one (a listener that learns
   * what asked for it later, {@link #onCheckpointRequested}, may decide otherwise).
   */
  default void onCheckpointTaken(Checkpoint checkpoint, CheckpointOrigin origin) {
    if (origin != CheckpointOrigin.MARKER) {
      onCheckpointCreated(checkpoint);
    }
  }

  /**
   * Told on the leader when a {@code CREATE} ({@link CheckpointOrigin#BACKUP}) or {@code MARK}
   * ({@link CheckpointOrigin#MARKER}) asked for the partition's latest checkpoint after it was
   * taken (through a stamp): it is {@code IGNORED}, and says what the checkpoint was meant to be.
   * Does nothing by default.
   */
  default void onCheckpointRequested(long checkpointId, CheckpointOrigin origin) {}

  /**
   * Told on the leader when the deletion of backup {@code backupId} from the store was requested
   * ({@code DELETING_BACKUP} applied), under the same rules. Does nothing by default.
   */
  default void onDeletionRequested(long backupId) {}
}
