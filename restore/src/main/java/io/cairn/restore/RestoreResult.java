package io.cairn.restore;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A completed restore of one node. Without {@link RestoreConfig#allowPartial()} every partition the
 * node hosts is restored and {@code skipped} is empty.
 *
 * @param backupId the backup restored
 * @param nodeId the node
 * @param dataDirectory its data directory, now ready for the broker
 * @param partitions the restored partitions, by partition id (every partition the node hosts,
 *     unless some were skipped)
 * @param duration how long the restore took
 * @param skipped partitions a partial restore skipped because no copy verified, by partition id
 * @param restorePoint for a point-in-time restore, the restore point the log was continued to from
 *     the archive after backup {@code backupId}
 */
public record RestoreResult(
    long backupId,
    int nodeId,
    Path dataDirectory,
    List<PartitionRestoreResult> partitions,
    Duration duration,
    List<SkippedPartition> skipped,
    Optional<Long> restorePoint) {

  public RestoreResult {
    Objects.requireNonNull(restorePoint, "restorePoint");
    Objects.requireNonNull(dataDirectory, "dataDirectory");
    Objects.requireNonNull(duration, "duration");
    partitions = List.copyOf(partitions);
    skipped = List.copyOf(skipped);
  }

  /** A complete restore: nothing skipped. */
  public RestoreResult(
      long backupId,
      int nodeId,
      Path dataDirectory,
      List<PartitionRestoreResult> partitions,
      Duration duration) {
    this(backupId, nodeId, dataDirectory, partitions, duration, List.of(), Optional.empty());
  }

  /** The checkpoint the restored state is at: the restore point's, else the backup's. */
  public long checkpointId() {
    return restorePoint.orElse(backupId);
  }

  /** True when every partition the node hosts was restored. */
  public boolean isComplete() {
    return skipped.isEmpty();
  }

  public long totalBytes() {
    return partitions.stream().mapToLong(PartitionRestoreResult::sizeBytes).sum();
  }
}
