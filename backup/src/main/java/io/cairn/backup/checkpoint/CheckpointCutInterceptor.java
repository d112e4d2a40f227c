package io.cairn.backup.checkpoint;

import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.ValueType;
import io.cairn.streamprocessor.CommandInterceptor;
import io.cairn.streamprocessor.ProcessingContext;
import io.cairn.streamprocessor.ProcessingResultBuilder;

/**
 * The receiving half of the consistent cut (DESIGN.md §7): a command stamped with a checkpoint id
 * higher than this partition's latest is not processed yet. Instead {@code CHECKPOINT CREATE(id)}
 * and a copy of the command are written as one batch, so the checkpoint is taken first — before
 * the command, and before any other command that carries that id — and the copy is processed after
 * it (its stamp is then no longer higher).
 *
 * <p>The comparison is with the <em>state's</em> latest id, not the log's: a stamped command that
 * arrives while an earlier {@code CREATE(id)} is written but not processed yet is deferred the same
 * way (its second {@code CREATE} is then {@code IGNORED}). If the batch cannot be written
 * (backpressure), the stream processor retries the command; nothing is processed out of order.
 */
final class CheckpointCutInterceptor implements CommandInterceptor {

  private final DbCheckpointState state;

  CheckpointCutInterceptor(final DbCheckpointState state) {
    this.state = state;
  }

  @Override
  public Decision intercept(final ProcessingContext context, final ProcessingResultBuilder result) {
    final long stamped = context.checkpointId();
    if (stamped < 1 // unstamped (NO_CHECKPOINT_ID); ids start at 1
        || context.intent().valueType() == ValueType.CHECKPOINT
        || stamped <= state.latestCheckpointId()) {
      return Decision.CONTINUE;
    }
    result.appendCommand(
        RecordMetadata.NO_KEY,
        CheckpointIntent.CREATE,
        new CheckpointValue(stamped, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP));
    result.appendCommand(context.command());
    return Decision.HANDLED;
  }
}
