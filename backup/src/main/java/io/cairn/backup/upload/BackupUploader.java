package io.cairn.backup.upload;

import io.cairn.backup.BackupManager;
import io.cairn.backup.BackupMetrics;
import io.cairn.backup.BackupMetrics.Operation;
import io.cairn.backup.BackupMetrics.Result;
import io.cairn.backup.BackupOutcome;
import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.CheckpointPattern;
import io.cairn.scheduler.Futures;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store side of a partition's backups, for its {@link BackupManager}: every call is
 * asynchronous (the store's executor; file collection on the upload executor) and thread-safe.
 */
public final class BackupUploader {

  private static final Logger LOG = LoggerFactory.getLogger(BackupUploader.class);

  private final int partitionId;
  private final int nodeId;
  private final BackupStore store;
  private final BackupPlanner planner;
  private final Executor uploadExecutor;
  private final BackupMetrics metrics;

  public BackupUploader(
      int partitionId,
      int nodeId,
      BackupStore store,
      BackupPlanner planner,
      Executor uploadExecutor,
      BackupMetrics metrics) {
    this.partitionId = partitionId;
    this.nodeId = nodeId;
    this.store = store;
    this.planner = planner;
    this.uploadExecutor = uploadExecutor;
    this.metrics = metrics;
  }

  /** Every backup of the partition, by any node. */
  public CompletableFuture<List<BackupStatus>> partitionBackups() {
    return StoreQueries.listAll(store, BackupIdentifierWildcard.ofPartition(partitionId));
  }

  /**
   * Uploads {@code job}'s backup unless its id is taken: looks the id up for the partition (any
   * node) — COMPLETED: {@link BackupOutcome.Kind#ALREADY_COMPLETED}; FAILED or IN_PROGRESS: {@link
   * BackupOutcome.Kind#REFUSED}; otherwise collects the files on the upload executor and saves them
   * with {@code previous} for reuse.
   *
   * @param reservation what the job holds (the files are collected from it)
   * @param stopped checked before the files are collected: true ends with {@code LEADER_CHANGED}
   * @return the outcome; fails if collecting the files or the store failed
   */
  public CompletableFuture<BackupOutcome> upload(
      BackupJob job,
      CheckpointReservation reservation,
      Optional<BackupIdentifier> previous,
      BooleanSupplier stopped) {
    BackupIdentifierWildcard sameId =
        BackupIdentifierWildcard.ofPartition(partitionId)
            .withCheckpoints(CheckpointPattern.exact(job.id()));
    return StoreQueries.listAll(store, sameId)
        .thenComposeAsync(
            existing -> saveUnlessTaken(job, reservation, existing, previous, stopped),
            uploadExecutor);
  }

  /**
   * Marks this node's backup {@code checkpointId} FAILED with {@code reason} (a no-op on a
   * COMPLETED or FAILED one); counted and logged, never fails the caller's chain.
   */
  public CompletableFuture<BackupStatus> markFailed(long checkpointId, String reason) {
    return markFailed(new BackupIdentifier(nodeId, partitionId, checkpointId), reason);
  }

  /** Marks {@code id} FAILED with {@code reason}; counted and logged. */
  public CompletableFuture<BackupStatus> markFailed(BackupIdentifier id, String reason) {
    return store
        .markFailed(id, reason)
        .whenComplete(
            (status, error) -> {
              if (error == null) {
                metrics.operation(Operation.MARK_FAILED, Result.SUCCESS);
              } else {
                metrics.operation(Operation.MARK_FAILED, Result.FAILURE);
                LOG.warn(
                    "Partition {}: could not mark backup {} FAILED ({})",
                    partitionId,
                    id,
                    reason,
                    Futures.unwrap(error));
              }
            });
  }

  private CompletableFuture<BackupOutcome> saveUnlessTaken(
      BackupJob job,
      CheckpointReservation reservation,
      List<BackupStatus> existing,
      Optional<BackupIdentifier> previous,
      BooleanSupplier stopped) {
    long id = job.id();
    if (stopped.getAsBoolean()) {
      return CompletableFuture.completedFuture(
          BackupOutcome.failed(id, BackupManager.LEADER_CHANGED));
    }
    for (BackupStatus status : existing) {
      if (status.statusCode() == BackupStatusCode.COMPLETED) {
        return CompletableFuture.completedFuture(BackupOutcome.alreadyCompleted(id));
      }
    }
    for (BackupStatus status : existing) {
      if (status.exists()) {
        return CompletableFuture.completedFuture(
            BackupOutcome.refused(
                id,
                "Expected no backup "
                    + id
                    + " of partition "
                    + partitionId
                    + ", but "
                    + status.id()
                    + " exists with status "
                    + status.statusCode()
                    + status.failureReason().map(reason -> " (" + reason + ")").orElse("")
                    + ". Backup ids are never reused; take a backup with a new id."));
      }
    }
    Backup backup = planner.plan(reservation);
    return store.save(backup, previous).thenApply(result -> BackupOutcome.completed(id, result));
  }

  /** A failure reason: the message, or the exception itself when it has none. */
  public static String describe(Throwable error) {
    Throwable cause = Futures.unwrap(error);
    String message = cause.getMessage();
    return message == null || message.isBlank() ? cause.toString() : message;
  }
}
