package io.cairn.backupapi;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Aggregates the partition statuses of one backup id into a cluster status. Pure: no I/O, no time.
 *
 * <p><b>Per partition.</b> Several nodes may hold a backup of the same partition and id (a leader
 * change during a backup). The one that counts is the best: {@code COMPLETED > IN_PROGRESS > FAILED
 * > DOES_NOT_EXIST}, because one completed copy is enough to restore that partition, and a running
 * copy may still complete.
 *
 * <p><b>Across partitions</b>, by precedence:
 *
 * <ol>
 *   <li>{@code DOES_NOT_EXIST} when no partition has any backup of the id;
 *   <li>{@code FAILED} when any partition's status is failed (it can never complete);
 *   <li>{@code IN_PROGRESS} when any partition's backup is running (partitions that have none yet
 *       may simply not have processed the checkpoint);
 *   <li>{@code INCOMPLETE} when some partitions have none and nothing runs;
 *   <li>{@code COMPLETED} when every partition {@code 1..partitionCount} completed.
 * </ol>
 *
 * The reason lists the partitions behind the verdict, for example {@code "partition 2 failed:
 * LEADER_CHANGED: this member stopped leading the partition"}.
 */
public final class BackupStatusAggregator {

  private BackupStatusAggregator() {}

  /**
   * @param checkpointId the backup id every status must belong to
   * @param partitionCount the cluster's partition count (partitions {@code 1..partitionCount})
   * @param statuses statuses of that id, from any nodes; {@code DOES_NOT_EXIST} entries allowed
   * @throws IllegalArgumentException if a status is of another id or of a partition outside the
   *     range
   */
  public static ClusterBackupStatus aggregate(
      long checkpointId, int partitionCount, Collection<BackupStatus> statuses) {
    if (partitionCount < 1) {
      throw new IllegalArgumentException(
          "Expected partitionCount >= 1, but was "
              + partitionCount
              + " (backup "
              + checkpointId
              + ")");
    }
    Map<Integer, BackupStatus> best = new TreeMap<>();
    for (BackupStatus status : statuses) {
      BackupIdentifier id = status.id();
      if (id.checkpointId() != checkpointId) {
        throw new IllegalArgumentException(
            "Expected statuses of backup " + checkpointId + ", but got one of " + id);
      }
      if (id.partitionId() > partitionCount) {
        throw new IllegalArgumentException(
            "Expected partitions 1.." + partitionCount + ", but got a status of " + id);
      }
      best.merge(id.partitionId(), status, BackupStatusAggregator::better);
    }

    List<String> failed = new ArrayList<>();
    List<Integer> running = new ArrayList<>();
    List<Integer> missing = new ArrayList<>();
    Map<Integer, BackupStatus> partitions = new TreeMap<>();
    for (int partition = 1; partition <= partitionCount; partition++) {
      BackupStatus status = best.get(partition);
      if (status == null || !status.exists()) {
        missing.add(partition);
        continue;
      }
      partitions.put(partition, status);
      switch (status.statusCode()) {
        case FAILED ->
            failed.add(
                "partition " + partition + " failed: " + status.failureReason().orElse("unknown"));
        case IN_PROGRESS -> running.add(partition);
        case COMPLETED, DOES_NOT_EXIST -> {
          // completed counts as done; DOES_NOT_EXIST was handled above
        }
      }
    }

    if (missing.size() == partitionCount) {
      return new ClusterBackupStatus(
          checkpointId,
          ClusterBackupStatusCode.DOES_NOT_EXIST,
          Optional.of("no partition has backup " + checkpointId),
          partitions);
    }
    if (!failed.isEmpty()) {
      return new ClusterBackupStatus(
          checkpointId,
          ClusterBackupStatusCode.FAILED,
          Optional.of(String.join("; ", failed)),
          partitions);
    }
    if (!running.isEmpty()) {
      String reason = describe(running, "in progress");
      if (!missing.isEmpty()) {
        reason += "; " + describe(missing, "not started");
      }
      return new ClusterBackupStatus(
          checkpointId, ClusterBackupStatusCode.IN_PROGRESS, Optional.of(reason), partitions);
    }
    if (!missing.isEmpty()) {
      return new ClusterBackupStatus(
          checkpointId,
          ClusterBackupStatusCode.INCOMPLETE,
          Optional.of(
              describe(missing, "without a backup")
                  + " ("
                  + (partitionCount - missing.size())
                  + " of "
                  + partitionCount
                  + " partitions completed)"),
          partitions);
    }
    return new ClusterBackupStatus(
        checkpointId, ClusterBackupStatusCode.COMPLETED, Optional.empty(), partitions);
  }

  private static BackupStatus better(BackupStatus a, BackupStatus b) {
    return rank(b.statusCode()) > rank(a.statusCode()) ? b : a;
  }

  private static int rank(BackupStatusCode code) {
    return switch (code) {
      case COMPLETED -> 3;
      case IN_PROGRESS -> 2;
      case FAILED -> 1;
      case DOES_NOT_EXIST -> 0;
    };
  }

  private static String describe(List<Integer> partitions, String what) {
    return (partitions.size() == 1 ? "partition " : "partitions ")
        + String.join(", ", partitions.stream().map(String::valueOf).toList())
        + " "
        + what;
  }
}
