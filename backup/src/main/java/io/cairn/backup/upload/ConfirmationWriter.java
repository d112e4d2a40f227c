package io.cairn.backup.upload;

import io.cairn.backup.BackupConfig;
import io.cairn.backup.BackupMetrics;
import io.cairn.backup.BackupMetrics.Operation;
import io.cairn.backup.BackupMetrics.Result;
import io.cairn.backup.Checkpoint;
import io.cairn.logstreams.LogStreamWriter;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import java.time.Duration;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes {@code CHECKPOINT CONFIRM_BACKUP(id)} once a backup completed: retried after {@link
 * BackupConfig#confirmRetryDelay()} on backpressure, up to {@link
 * BackupConfig#confirmMaxAttempts()} attempts; given up when this member does not lead (the backup
 * is COMPLETED in the store all the same). Runs on the backup manager's actor.
 */
public final class ConfirmationWriter {

  private static final Logger LOG = LoggerFactory.getLogger(ConfirmationWriter.class);

  private final int partitionId;
  private final LogStreamWriter writer;
  private final BackupConfig config;
  private final BackupMetrics metrics;
  private final BiConsumer<Duration, Runnable> scheduler;
  private final BooleanSupplier stopped;

  /**
   * @param scheduler runs a retry on the owner's thread after a delay
   * @param stopped true once the owner stopped (no more attempts)
   */
  public ConfirmationWriter(
      int partitionId,
      LogStreamWriter writer,
      BackupConfig config,
      BackupMetrics metrics,
      BiConsumer<Duration, Runnable> scheduler,
      BooleanSupplier stopped) {
    this.partitionId = partitionId;
    this.writer = writer;
    this.config = config;
    this.metrics = metrics;
    this.scheduler = scheduler;
    this.stopped = stopped;
  }

  /** Writes the confirmation of {@code checkpoint}'s backup. */
  public void confirm(Checkpoint checkpoint) {
    attempt(checkpoint, 1);
  }

  private void attempt(Checkpoint checkpoint, int attempt) {
    if (stopped.getAsBoolean()) {
      return;
    }
    Record command =
        new Record(
            RecordMetadata.builder().command(CheckpointIntent.CONFIRM_BACKUP).build(),
            new CheckpointValue(
                checkpoint.id(), checkpoint.position(), RecordMetadata.NO_TIMESTAMP));
    WriteResult result;
    try {
      result = writer.tryWrite(command);
    } catch (RuntimeException e) {
      metrics.operation(Operation.CONFIRM, Result.FAILED);
      LOG.warn("Partition {}: could not write CONFIRM_BACKUP({})", partitionId, checkpoint.id(), e);
      return;
    }
    if (result.isWritten()) {
      metrics.operation(Operation.CONFIRM, Result.WRITTEN);
    } else if (result instanceof WriteResult.Backpressure
        && attempt < config.confirmMaxAttempts()) {
      scheduler.accept(config.confirmRetryDelay(), () -> attempt(checkpoint, attempt + 1));
    } else {
      metrics.operation(Operation.CONFIRM, Result.FAILED);
      LOG.warn(
          "Partition {}: CONFIRM_BACKUP({}) not written after {} attempts: {}; the backup is"
              + " COMPLETED in the store all the same",
          partitionId,
          checkpoint.id(),
          attempt,
          result);
    }
  }
}
