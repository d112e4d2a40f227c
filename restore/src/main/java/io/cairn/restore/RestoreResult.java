package io.cairn.restore;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A completed restore of one node.
 *
 * @param backupId the backup restored
 * @param nodeId the node
 * @param dataDirectory its data directory, now ready for the broker
 * @param partitions every partition the node hosts, by partition id
 * @param duration how long the restore took
 */
public record RestoreResult(
    long backupId,
    int nodeId,
    Path dataDirectory,
    List<PartitionRestoreResult> partitions,
    Duration duration) {

  public RestoreResult {
    Objects.requireNonNull(dataDirectory, "dataDirectory");
    Objects.requireNonNull(duration, "duration");
    partitions = List.copyOf(partitions);
  }

  public long totalBytes() {
    return partitions.stream().mapToLong(PartitionRestoreResult::sizeBytes).sum();
  }
}
