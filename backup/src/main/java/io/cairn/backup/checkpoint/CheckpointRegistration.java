package io.cairn.backup.checkpoint;

import io.cairn.backup.BackupMetrics;
import io.cairn.backup.CheckpointListener;
import io.cairn.backup.CheckpointState;
import io.cairn.backup.restore.RestoreMarker;
import io.cairn.db.CairnDb;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.RecordMetadata;
import io.cairn.streamprocessor.RecordProcessors;
import java.util.Optional;

/**
 * Wires the checkpoint processors, appliers and the cut interceptor; see {@code CheckpointRecords}.
 */
public final class CheckpointRegistration {

  private CheckpointRegistration() {}

  public static CheckpointState register(
      int partitionId,
      CairnDb db,
      RecordProcessors.Builder builder,
      CheckpointListener listener,
      BackupMetrics metrics,
      Optional<RestoreMarker> restored) {
    DbCheckpointState state = new DbCheckpointState(db);
    CheckpointAppliers appliers = new CheckpointAppliers(partitionId, db, state, metrics);
    state.latestCheckpoint().ifPresent(metrics::checkpointApplied);
    CreateCheckpointProcessor create = new CreateCheckpointProcessor(db, state, listener);
    builder
        .interceptor(
            new CheckpointCutInterceptor(
                state,
                restored.map(RestoreMarker::checkpointPosition).orElse(RecordMetadata.NO_POSITION)))
        .processor(CheckpointIntent.CREATE, create)
        .processor(CheckpointIntent.MARK, create)
        .processor(CheckpointIntent.CONFIRM_BACKUP, new ConfirmBackupProcessor(state))
        .processor(CheckpointIntent.DELETE_BACKUP, new DeleteBackupProcessor(state, listener))
        .processor(CheckpointIntent.CONFIRM_DELETION, new ConfirmDeletionProcessor(state))
        .applier(CheckpointIntent.CREATED, appliers.created())
        .applier(CheckpointIntent.IGNORED, appliers.ignored())
        .applier(CheckpointIntent.CONFIRMED_BACKUP, appliers.confirmedBackup())
        .applier(CheckpointIntent.DELETING_BACKUP, appliers.deletingBackup())
        .applier(CheckpointIntent.DELETED_BACKUP, appliers.deletedBackup());
    return state;
  }
}
