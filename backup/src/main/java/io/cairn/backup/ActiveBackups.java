package io.cairn.backup;

import io.cairn.backup.BackupMetrics.Operation;
import io.cairn.backup.BackupMetrics.Result;
import io.cairn.backup.upload.BackupJob;
import io.cairn.backup.upload.BackupUploader;
import io.cairn.backup.upload.SnapshotUnavailableException;
import io.cairn.backupapi.BackupFailure;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.scheduler.Futures;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.ObjLongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The backups of one {@link BackupManager} that have not ended, and their end; any thread. While a
 * backup runs it is the one of its checkpoint id (a checkpoint told twice gets one backup). It ends
 * once: its outcome logged (INFO, or WARN for FAILED), a failed one made FAILED with the reason in
 * the store (never left IN_PROGRESS: a mark that fails is handed to the manager to try again), the
 * meters told, its reservation released and its outcome completed. Where the manager's queue stands
 * is the manager's; the backup's own state is its {@link BackupJob}'s.
 */
final class ActiveBackups {

  // the manager's logger: these lines are the manager's
  private static final Logger LOG = LoggerFactory.getLogger(BackupManager.class);

  private final int partitionId;
  private final BackupUploader uploader;
  private final BackupMetrics metrics;
  private final LongSupplier nanos;
  private final ObjLongConsumer<String> markFailedAgain;
  private final Map<Long, BackupJob> active = new ConcurrentHashMap<>();

  /**
   * @param nanos the manager's clock
   * @param markFailedAgain told (reason, checkpoint id) when a backup could not be marked FAILED
   */
  ActiveBackups(
      int partitionId,
      BackupUploader uploader,
      BackupMetrics metrics,
      LongSupplier nanos,
      ObjLongConsumer<String> markFailedAgain) {
    this.partitionId = partitionId;
    this.uploader = uploader;
    this.metrics = metrics;
    this.nanos = nanos;
    this.markFailedAgain = markFailedAgain;
  }

  /** The running backup of checkpoint {@code checkpointId}, or null. */
  BackupJob get(long checkpointId) {
    return active.get(checkpointId);
  }

  /** Adds {@code job} unless a backup of its checkpoint runs; returns that one, or null. */
  BackupJob putIfAbsent(BackupJob job) {
    return active.putIfAbsent(job.checkpoint().id(), job);
  }

  /** Ends {@code job} with what its upload chain gave. */
  void ended(BackupJob job, BackupOutcome outcome, Throwable error) {
    if (error != null) {
      BackupFailure failure =
          Futures.unwrap(error) instanceof SnapshotUnavailableException
              ? BackupFailure.SNAPSHOT_UNAVAILABLE
              : BackupFailure.UPLOAD_FAILED;
      fail(job, failure.reason(BackupUploader.describe(error)));
      return;
    }
    if (outcome.kind() == BackupOutcome.Kind.COMPLETED) {
      BackupSaveResult result = outcome.saveResult().orElseThrow();
      metrics.bytes(result.copiedBytes(), result.reusedBytes());
      result.status().lastUpdatedAt().ifPresent(at -> metrics.latestCompleted(at.toEpochMilli()));
      LOG.info(
          "Partition {}: backup {} at position {} COMPLETED: {} files ({} bytes) copied, {} files"
              + " ({} bytes) reused",
          partitionId,
          job.id(),
          job.checkpoint().position(),
          result.copiedFileCount(),
          result.copiedBytes(),
          result.reusedFileCount(),
          result.reusedBytes());
    } else if (outcome.kind() == BackupOutcome.Kind.FAILED) {
      fail(job, outcome.reason().orElse("unknown"));
      return;
    } else {
      LOG.info(
          "Partition {}: backup {} not taken, {}{}",
          partitionId,
          job.id(),
          outcome.kind(),
          outcome.reason().map(reason -> ": " + reason).orElse(""));
    }
    finish(job, outcome);
  }

  /**
   * Marks the backup FAILED in the store with {@code reason}, then ends the job. A mark that fails
   * is handed on to be tried again; the job ends all the same, so that its reservation does not
   * hold the log while the store is down.
   */
  void fail(BackupJob job, String reason) {
    LOG.warn("Partition {}: backup {} FAILED: {}", partitionId, job.id(), reason);
    uploader
        .markFailed(job.id(), reason)
        .whenComplete(
            (status, error) -> {
              finish(job, BackupOutcome.failed(job.checkpoint().id(), reason));
              if (error != null) {
                markFailedAgain.accept(reason, job.id());
              }
            });
  }

  /** Ends a job once (metrics, outcome, reservation). */
  void finish(BackupJob job, BackupOutcome outcome) {
    if (!job.transition(new BackupJob.State.Finished(outcome), "ended " + outcome.kind())) {
      return;
    }
    job.release();
    active.remove(job.checkpoint().id(), job);
    boolean success =
        outcome.kind() == BackupOutcome.Kind.COMPLETED
            || outcome.kind() == BackupOutcome.Kind.ALREADY_COMPLETED;
    metrics.backupEnded(success, nanos.getAsLong() - job.reservedNanos());
    metrics.operation(Operation.TAKE, resultOf(outcome.kind()));
    job.outcome().complete(outcome);
  }

  /**
   * Ends a job that never ran because its checkpoint is a marker: the reservation is released,
   * nothing counted.
   */
  void drop(BackupJob job) {
    BackupOutcome outcome = BackupOutcome.marker(job.checkpoint().id());
    if (!job.transition(new BackupJob.State.Finished(outcome), "a marker, not a backup")) {
      return;
    }
    job.release();
    active.remove(job.checkpoint().id(), job);
    job.outcome().complete(outcome);
  }

  private static Result resultOf(BackupOutcome.Kind kind) {
    return switch (kind) {
      case COMPLETED -> Result.COMPLETED;
      case ALREADY_COMPLETED, MARKER -> Result.NO_OP;
      case REFUSED -> Result.REFUSED;
      case FAILED -> Result.FAILED;
    };
  }
}
