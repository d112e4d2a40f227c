package io.cairn.backup;

import io.cairn.backup.checkpoint.DbCheckpointState;
import io.cairn.db.CairnDb;
import io.cairn.protocol.RecordMetadata;
import java.util.List;
import java.util.Optional;

/**
 * The checkpoint bookkeeping of a partition's state (families {@link
 * BackupColumnFamily#BACKUP_CHECKPOINTS} and {@link BackupColumnFamily#BACKUP_DELETIONS}): the
 * latest checkpoint, the latest confirmed backup and the deletions pending. Written only by the
 * checkpoint event appliers, so leaders and followers agree and replay rebuilds it; read on the
 * partition's thread (inside or outside a transaction: reads see the open transaction's writes).
 *
 * <p>{@link #latestCheckpointId()} is what the engine stamps on every inter-partition command: pass
 * {@code state::latestCheckpointId} as the engine's {@code CheckpointIdSupplier}. It is a function
 * of the state only, as that contract requires.
 */
public interface CheckpointState {

  /**
   * A view of the checkpoint state of {@code db} (opened with {@link BackupColumnFamily#all()}).
   */
  static CheckpointState of(CairnDb db) {
    return new DbCheckpointState(db);
  }

  /** The latest checkpoint taken, if any. */
  Optional<Checkpoint> latestCheckpoint();

  /** The latest checkpoint's id, or {@link RecordMetadata#NO_CHECKPOINT_ID} if none was taken. */
  long latestCheckpointId();

  /** The backup with the highest id whose completion was confirmed, if any. */
  Optional<ConfirmedBackup> latestConfirmedBackup();

  /**
   * The backup ids whose deletion from the store was requested and not yet confirmed, ascending
   * (family {@link BackupColumnFamily#BACKUP_DELETIONS}).
   */
  List<Long> pendingDeletions();
}
