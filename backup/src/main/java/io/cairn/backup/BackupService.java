package io.cairn.backup;

import io.cairn.backup.upload.StoreQueries;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusAggregator;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.CheckpointPattern;
import io.cairn.backupapi.ClusterBackupStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * The cluster's view of its backups, for the gateway and the management endpoints: the status of a
 * backup id across every partition (DESIGN.md §9), read from the backup store every partition
 * leader writes to, and aggregated by {@link BackupStatusAggregator}. Stateless and thread-safe;
 * every call returns at once and completes on the store's executor.
 */
public final class BackupService {

  private final BackupStore store;
  private final int partitionCount;

  /**
   * @param partitionCount the cluster's partition count ({@code 1..partitionCount})
   */
  public BackupService(BackupStore store, int partitionCount) {
    this.store = Objects.requireNonNull(store, "store");
    if (partitionCount < 1) {
      throw new IllegalArgumentException(
          "Expected partitionCount >= 1, but was " + partitionCount + " (BackupService)");
    }
    this.partitionCount = partitionCount;
  }

  /**
   * The cluster status of backup {@code checkpointId}: {@code COMPLETED} iff every partition
   * completed, {@code FAILED} if any failed, {@code IN_PROGRESS} while any runs, {@code INCOMPLETE}
   * when some partitions have none, {@code DOES_NOT_EXIST} when none has it.
   *
   * @throws IllegalArgumentException if {@code checkpointId < 1}
   */
  public CompletableFuture<ClusterBackupStatus> status(long checkpointId) {
    BackupIdentifierWildcard wildcard =
        BackupIdentifierWildcard.ofCheckpoints(CheckpointPattern.exact(checkpointId));
    return StoreQueries.listAll(store, wildcard)
        .thenApply(
            statuses ->
                BackupStatusAggregator.aggregate(checkpointId, partitionCount, inRange(statuses)));
  }

  /**
   * The cluster status of every backup id matching {@code pattern}, by id ascending. Reads every
   * matching manifest: use a narrow pattern on stores with many backups.
   */
  public CompletableFuture<List<ClusterBackupStatus>> list(CheckpointPattern pattern) {
    return StoreQueries.listAll(store, BackupIdentifierWildcard.ofCheckpoints(pattern))
        .thenApply(
            statuses -> {
              Map<Long, List<BackupStatus>> byId = new TreeMap<>();
              for (BackupStatus status : inRange(statuses)) {
                byId.computeIfAbsent(status.id().checkpointId(), id -> new ArrayList<>())
                    .add(status);
              }
              List<ClusterBackupStatus> result = new ArrayList<>(byId.size());
              byId.forEach(
                  (id, ofId) ->
                      result.add(BackupStatusAggregator.aggregate(id, partitionCount, ofId)));
              return result;
            });
  }

  /** Backups of partitions above the partition count (an older, larger cluster) do not count. */
  private List<BackupStatus> inRange(List<BackupStatus> statuses) {
    return statuses.stream().filter(s -> s.id().partitionId() <= partitionCount).toList();
  }
}
