package io.cairn.backupapi;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A backup id's state across a cluster, aggregated by {@link BackupStatusAggregator}.
 *
 * @param checkpointId the backup id
 * @param statusCode the aggregated state
 * @param reason why it is not {@link ClusterBackupStatusCode#COMPLETED}; empty iff completed
 * @param partitions for every partition that has a backup of this id, the status that counted
 *     (partitions without one are absent)
 */
public record ClusterBackupStatus(
    long checkpointId,
    ClusterBackupStatusCode statusCode,
    Optional<String> reason,
    Map<Integer, BackupStatus> partitions) {

  public ClusterBackupStatus {
    Objects.requireNonNull(statusCode, "statusCode");
    Objects.requireNonNull(reason, "reason");
    partitions = Map.copyOf(partitions);
  }
}
