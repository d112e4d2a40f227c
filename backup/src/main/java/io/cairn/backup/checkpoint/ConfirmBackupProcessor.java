package io.cairn.backup.checkpoint;

import io.cairn.backup.Checkpoint;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.RejectionType;
import io.cairn.streamprocessor.CommandProcessor;
import io.cairn.streamprocessor.ProcessingContext;
import io.cairn.streamprocessor.ProcessingResultBuilder;
import java.util.Optional;

/**
 * {@code CHECKPOINT CONFIRM_BACKUP(id)}, written by the leader's backup manager once the backup of
 * checkpoint {@code id} completed: {@code CONFIRMED_BACKUP} if a checkpoint with that id (or a
 * higher one) was taken on this partition, else a {@code NOT_FOUND} rejection. Any other failure
 * halts the partition.
 */
final class ConfirmBackupProcessor implements CommandProcessor {

  private final DbCheckpointState state;

  ConfirmBackupProcessor(DbCheckpointState state) {
    this.state = state;
  }

  @Override
  public void process(ProcessingContext context, ProcessingResultBuilder result) {
    try {
      confirm(context, result);
    } catch (RuntimeException e) {
      // An applier's failure halted the partition already (the first halt's reason is kept).
      CheckpointFailure.haltPartition(context, result, e);
    }
  }

  private void confirm(ProcessingContext context, ProcessingResultBuilder result) {
    CheckpointValue value = (CheckpointValue) context.value();
    Optional<Checkpoint> latest = state.latestCheckpoint();
    if (value.checkpointId() < 1 || latest.isEmpty() || value.checkpointId() > latest.get().id()) {
      result.reject(
          RejectionType.NOT_FOUND,
          "Expected the backup id of a checkpoint taken on partition "
              + context.partitionId()
              + " (1.."
              + latest.map(Checkpoint::id).orElse(0L)
              + "), but was "
              + value.checkpointId());
      return;
    }
    result.appendEventAndRespond(
        context.key(),
        CheckpointIntent.CONFIRMED_BACKUP,
        new CheckpointValue(value.checkpointId(), value.checkpointPosition(), context.timestamp()));
  }
}
