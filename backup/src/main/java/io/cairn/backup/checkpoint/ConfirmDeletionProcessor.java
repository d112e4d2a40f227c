package io.cairn.backup.checkpoint;

import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RejectionType;
import io.cairn.streamprocessor.CommandProcessor;
import io.cairn.streamprocessor.ProcessingContext;
import io.cairn.streamprocessor.ProcessingResultBuilder;

/**
 * {@code CHECKPOINT CONFIRM_DELETION(id)}, written by the leader once the partition's backup {@code
 * id} is gone from the store: {@code DELETED_BACKUP(id)}, whose applier ends the pending deletion;
 * a rejection ({@code NOT_FOUND}) if none is pending (a confirmation written twice). Any other
 * failure halts the partition.
 */
final class ConfirmDeletionProcessor implements CommandProcessor {

  private final DbCheckpointState state;

  ConfirmDeletionProcessor(DbCheckpointState state) {
    this.state = state;
  }

  @Override
  public void process(ProcessingContext context, ProcessingResultBuilder result) {
    long id = ((CheckpointValue) context.value()).checkpointId();
    try {
      if (!state.deletionPending(id)) {
        result.reject(
            RejectionType.NOT_FOUND,
            "Expected a pending deletion of backup "
                + id
                + " on partition "
                + context.partitionId()
                + ", but there is none");
        return;
      }
      result.appendEventAndRespond(
          context.key(),
          CheckpointIntent.DELETED_BACKUP,
          new CheckpointValue(id, RecordMetadata.NO_POSITION, context.timestamp()));
    } catch (RuntimeException e) {
      CheckpointFailure.haltPartition(context, result, e);
    }
  }
}
