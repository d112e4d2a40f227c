package io.cairn.backup.checkpoint;

import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.ValueType;
import io.cairn.streamprocessor.CommandInterceptor;
import io.cairn.streamprocessor.ProcessingContext;
import io.cairn.streamprocessor.ProcessingResultBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receiving half of the consistent cut (DESIGN.md §7): a command stamped with a checkpoint id
 * higher than this partition's latest is not processed yet. Instead {@code CHECKPOINT CREATE(id)}
 * and a copy of the command are written as one batch, so the checkpoint is taken first — before the
 * command, and before any other command that carries that id — and the copy is processed after it
 * (its stamp is then no longer higher).
 *
 * <p>The comparison is with the <em>state's</em> latest id, not the log's: a stamped command that
 * arrives while an earlier {@code CREATE(id)} is written but not processed yet is deferred the same
 * way (its second {@code CREATE} is then {@code IGNORED}). If the batch cannot be written
 * (backpressure), the stream processor retries the command; nothing is processed out of order.
 *
 * <p><b>A restored partition</b> (DESIGN.md §10) processes the kept log before its checkpoint
 * position again. A stamped command there was deferred when it was first processed: the deferred
 * copy was written after the command, and either it lies before the checkpoint (it is in the kept
 * log and is processed there again) or after it (the restore dropped it with the rest of the log
 * after the cut, and with it the command's effect — the credit applied or acknowledged after the
 * cut of the partition that sent it). Either way, deferring it once more would be wrong: the copy
 * would be processed after the restored checkpoint, in a cluster whose other partitions were
 * restored to states before that command was sent (an {@code ACK} of a credit the restored target
 * never applied, an {@code APPLY} of a debit the restored source never made). So below {@code
 * restoredCheckpointPosition} such a command is dropped: taken, nothing written, no state change —
 * exactly what its first processing did to the state.
 */
final class CheckpointCutInterceptor implements CommandInterceptor {

  private static final Logger LOG = LoggerFactory.getLogger(CheckpointCutInterceptor.class);

  private final DbCheckpointState state;
  private final long restoredCheckpointPosition;

  /** Whether this run dropped a command already (logging only; not state). */
  private boolean droppedAny;

  /**
   * @param restoredCheckpointPosition the kept checkpoint's position if the partition was restored
   *     from a backup, else {@link RecordMetadata#NO_POSITION}
   */
  CheckpointCutInterceptor(DbCheckpointState state, long restoredCheckpointPosition) {
    this.state = state;
    this.restoredCheckpointPosition = restoredCheckpointPosition;
  }

  @Override
  public Decision intercept(ProcessingContext context, ProcessingResultBuilder result) {
    long stamped = context.checkpointId();
    if (stamped < 1 // unstamped (NO_CHECKPOINT_ID); ids start at 1
        || context.intent().valueType() == ValueType.CHECKPOINT) {
      return Decision.CONTINUE; // the state is not read: CHECKPOINT commands report its failures
    }
    long latest = state.latestCheckpointId();
    if (stamped <= latest) {
      return Decision.CONTINUE;
    }
    if (context.position() < restoredCheckpointPosition) {
      logDropped(context, stamped, latest);
      return Decision.HANDLED;
    }
    result.appendCommand(
        RecordMetadata.NO_KEY,
        CheckpointIntent.CREATE,
        new CheckpointValue(stamped, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP));
    result.appendCommand(context.command());
    return Decision.HANDLED;
  }

  /** INFO for the first command a run drops, DEBUG after: a burst of credits may put many there. */
  private void logDropped(ProcessingContext context, long stamped, long latest) {
    boolean first = !droppedAny;
    droppedAny = true;
    if (!first && !LOG.isDebugEnabled()) {
      return;
    }
    String message =
        "Partition {} restored: dropped the {} {} at position {} (stamped with checkpoint {}, above"
            + " the state's {}): it was deferred past the checkpoint at position {} when first"
            + " processed, so it belongs after the restored cut"
            + (first ? "; further ones are logged at DEBUG" : "");
    Object[] arguments = {
      context.partitionId(),
      context.intent().valueType(),
      context.intent().name(),
      context.position(),
      stamped,
      latest,
      restoredCheckpointPosition
    };
    if (first) {
      LOG.info(message, arguments);
    } else {
      LOG.debug(message, arguments);
    }
  }
}
