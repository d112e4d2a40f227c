package io.cairn.backup.checkpoint;

import io.cairn.backup.CheckpointListener;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RejectionType;
import io.cairn.streamprocessor.CommandProcessor;
import io.cairn.streamprocessor.ProcessingContext;
import io.cairn.streamprocessor.ProcessingResultBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code CHECKPOINT DELETE_BACKUP(id)}, written by retention: {@code DELETING_BACKUP(id)}, whose
 * applier records the deletion as pending; once that batch is committed (a side effect), the
 * leader's listener is told to delete the partition's backup {@code id} from the store, and it
 * answers {@code CONFIRM_DELETION} when done. A deletion already pending is answered with the same
 * event (idempotent: retention may ask again after a lost answer). An id below 1, or at or above
 * the latest checkpoint (the newest backup is never deleted by retention), is rejected. Any other
 * failure halts the partition.
 */
final class DeleteBackupProcessor implements CommandProcessor {

  private static final Logger LOG = LoggerFactory.getLogger(DeleteBackupProcessor.class);

  private final DbCheckpointState state;
  private final CheckpointListener listener;

  DeleteBackupProcessor(DbCheckpointState state, CheckpointListener listener) {
    this.state = state;
    this.listener = listener;
  }

  @Override
  public void process(ProcessingContext context, ProcessingResultBuilder result) {
    long id = ((CheckpointValue) context.value()).checkpointId();
    try {
      long latest = state.latestCheckpointId();
      if (id < 1 || id >= latest) {
        result.reject(
            RejectionType.INVALID_ARGUMENT,
            "Expected the id of a backup older than the latest checkpoint "
                + latest
                + " of partition "
                + context.partitionId()
                + ", but was "
                + id
                + " (the newest backup is never deleted by retention)");
        return;
      }
      result.appendEventAndRespond(
          context.key(),
          CheckpointIntent.DELETING_BACKUP,
          new CheckpointValue(id, RecordMetadata.NO_POSITION, context.timestamp()));
      // only once DELETING_BACKUP is committed: a deletion from the store cannot be undone, and a
      // batch a leader loses before it commits must leave no trace
      int partitionId = context.partitionId();
      result.appendSideEffect(() -> tell(partitionId, id));
    } catch (RuntimeException e) {
      CheckpointFailure.haltPartition(context, result, e);
    }
  }

  private void tell(int partitionId, long id) {
    try {
      listener.onDeletionRequested(id);
    } catch (RuntimeException e) {
      // the deletion stays pending in the state: the leader's deleter finds it there
      LOG.error(
          "Partition {}: the backup deleter refused the deletion of backup {}; it stays pending",
          partitionId,
          id,
          e);
    }
  }
}
