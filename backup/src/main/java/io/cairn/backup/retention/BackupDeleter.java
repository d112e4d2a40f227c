package io.cairn.backup.retention;

import io.cairn.backup.BackupMetrics;
import io.cairn.backup.upload.StoreQueries;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.CheckpointPattern;
import io.cairn.logstreams.LogStreamWriter;
import io.cairn.logstreams.WriteResult;
import io.cairn.pacing.Backoff;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.scheduler.Actor;
import io.cairn.scheduler.Futures;
import io.cairn.scheduler.LoggingContext;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes one partition's backups from the store as its log asks, on the partition's leader; an
 * {@link Actor} that lives as long as the leadership, like the backup manager.
 *
 * <p>A deletion is pending in the partition's state from {@code DELETING_BACKUP(id)} (retention
 * wrote {@code DELETE_BACKUP}) to {@code DELETED_BACKUP(id)}. The leader deletes every copy of the
 * partition's backup {@code id} in the store (whichever node wrote it) and then writes {@code
 * CONFIRM_DELETION(id)}. A leader that starts takes over every deletion pending in the state
 * ({@link #resumeFrom}), so a crash or a leader change in the middle of one finishes it: deleting
 * what is gone already is a no-op. A deletion that fails (the store is down, a copy is still
 * IN_PROGRESS) is tried again after a backoff, and stays visible as pending until done; never half
 * done silently.
 */
public final class BackupDeleter extends Actor {

  private static final Logger LOG = LoggerFactory.getLogger(BackupDeleter.class);

  /** The waits between attempts of a failed deletion: 1 s doubling to a minute. */
  public static final Backoff BACKOFF = new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(1));

  private final int partitionId;
  private final BackupStore store;
  private final LogStreamWriter writer;
  private final Backoff backoff;
  private final BackupMetrics metrics;

  // actor thread: deletions under way → attempts made
  private final Map<Long, Integer> underWay = new HashMap<>();

  // actor thread: deletions whose CONFIRM_DELETION this deleter wrote, until the state no longer
  // lists them as pending: a read of the state taken before the confirmation was applied still
  // lists them, and must not start them again
  private final Set<Long> confirmed = new HashSet<>();

  // actor thread: reads of the pending deletions taken, and the newest one whose answer was used;
  // an answer older than one already used is stale (answers may arrive out of order)
  private long readsTaken;
  private long newestAnswered;

  /**
   * @param writer the partition's log, for {@code CONFIRM_DELETION}
   * @param metrics counts deletions ({@code operation=delete})
   */
  public BackupDeleter(
      int nodeId,
      int partitionId,
      BackupStore store,
      LogStreamWriter writer,
      Backoff backoff,
      BackupMetrics metrics) {
    super("backup-deleter-" + partitionId, LoggingContext.partition(nodeId, partitionId));
    this.partitionId = partitionId;
    this.store = Objects.requireNonNull(store, "store");
    this.writer = Objects.requireNonNull(writer, "writer");
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /** Any thread: deletes backup {@code backupId} of this partition (once, however often told). */
  public void delete(long backupId) {
    submit(() -> start(backupId));
  }

  /**
   * Any thread: reads the deletions pending in the partition's state through {@code pending} now
   * and every {@code interval}, and takes over those not under way. The reader answers empty while
   * the state is not complete yet (a new leader replaying its log), and is asked again then. So a
   * new leader finishes what its predecessor left pending, also what it only learns by replay.
   */
  public void resumeFrom(
      Supplier<CompletableFuture<Optional<List<Long>>>> pending, Duration interval) {
    submit(() -> scheduleAtFixedRate(Duration.ZERO, interval, () -> readPending(pending)));
  }

  private void readPending(Supplier<CompletableFuture<Optional<List<Long>>>> pending) {
    long number = ++readsTaken;
    CompletableFuture<Optional<List<Long>>> read;
    try {
      read = pending.get();
    } catch (RuntimeException e) {
      read = CompletableFuture.failedFuture(e);
    }
    read.whenCompleteAsync(
        (ids, error) -> {
          if (error == null && ids.isPresent() && number > newestAnswered) {
            newestAnswered = number;
            resumeNow(ids.get());
          }
        },
        executor());
  }

  private void resumeNow(List<Long> pending) {
    confirmed.retainAll(pending);
    List<Long> fresh =
        pending.stream()
            .filter(id -> !underWay.containsKey(id) && !confirmed.contains(id))
            .toList();
    if (!fresh.isEmpty()) {
      LOG.info(
          "Partition {}: taking over the deletion of backups {} from the store",
          partitionId,
          fresh);
      fresh.forEach(this::start);
    }
  }

  /** Actor thread: the deletions under way, for tests and status. */
  public CompletableFuture<List<Long>> underWay() {
    return call(() -> underWay.keySet().stream().sorted().toList());
  }

  @Override
  protected void onClose() {
    metrics.deletionsPending(0);
  }

  private void start(long backupId) {
    if (underWay.putIfAbsent(backupId, 0) == null) {
      metrics.deletionsPending(underWay.size());
      attempt(backupId);
    }
  }

  private void done(long backupId) {
    underWay.remove(backupId);
    metrics.deletionsPending(underWay.size());
  }

  private void attempt(long backupId) {
    int attempt = underWay.merge(backupId, 1, Integer::sum);
    CompletableFuture<Void> deleted;
    try {
      deleted = deleteFromStore(backupId);
    } catch (RuntimeException e) {
      deleted = CompletableFuture.failedFuture(e);
    }
    deleted.whenComplete(
        (ignored, error) -> executor().execute(() -> attempted(backupId, attempt, error)));
  }

  private CompletableFuture<Void> deleteFromStore(long backupId) {
    return StoreQueries.listAll(
            store,
            BackupIdentifierWildcard.ofPartition(partitionId)
                .withCheckpoints(CheckpointPattern.exact(backupId)))
        .thenCompose(
            statuses -> {
              for (BackupStatus status : statuses) {
                if (status.statusCode() == BackupStatusCode.IN_PROGRESS) {
                  return CompletableFuture.failedFuture(
                      new IllegalStateException(
                          "node "
                              + status.id().nodeId()
                              + "'s copy is IN_PROGRESS; it is deleted once it ended"));
                }
              }
              CompletableFuture<Void> deletes = CompletableFuture.completedFuture(null);
              for (BackupStatus status : statuses) {
                deletes = deletes.thenCompose(ignored -> store.delete(status.id()));
              }
              return deletes;
            });
  }

  private void attempted(long backupId, int attempt, Throwable error) {
    if (error != null) {
      metrics.operation(BackupMetrics.Operation.DELETE, BackupMetrics.Result.FAILURE);
      Duration wait = backoff.ceiling(attempt);
      LOG.warn(
          "Partition {}: deleting backup {} from the store failed (attempt {}): {}; trying again"
              + " in {}",
          partitionId,
          backupId,
          attempt,
          Futures.unwrap(error).getMessage(),
          wait);
      schedule(wait, () -> attempt(backupId));
      return;
    }
    metrics.operation(BackupMetrics.Operation.DELETE, BackupMetrics.Result.SUCCESS);
    confirm(backupId, 1);
  }

  /** Writes {@code CONFIRM_DELETION}; on backpressure again after the backoff. */
  private void confirm(long backupId, int attempt) {
    Record command =
        new Record(
            RecordMetadata.builder().command(CheckpointIntent.CONFIRM_DELETION).build(),
            new CheckpointValue(backupId, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP));
    WriteResult result;
    try {
      result = writer.tryWrite(command);
    } catch (RuntimeException e) {
      result = null;
      LOG.warn("Partition {}: could not write CONFIRM_DELETION({})", partitionId, backupId, e);
    }
    if (result != null && result.isWritten()) {
      confirmed.add(backupId);
      done(backupId);
      LOG.info("Partition {}: backup {} deleted from the store", partitionId, backupId);
      return;
    }
    if (result instanceof WriteResult.NotLeader) {
      // the next leader finds the deletion pending and does it again (a no-op in the store)
      done(backupId);
      return;
    }
    schedule(backoff.ceiling(attempt), () -> confirm(backupId, attempt + 1));
  }
}
