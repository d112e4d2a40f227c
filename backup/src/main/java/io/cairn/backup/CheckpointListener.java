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
   * Told on the leader when the deletion of backup {@code backupId} from the store was requested
   * ({@code DELETING_BACKUP} applied), under the same rules. Does nothing by default.
   */
  default void onDeletionRequested(long backupId) {}
}
