package io.cairn.restore;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What a restore or verification is about to do.
 *
 * @param backupId the backup (resolved when {@code latest} was asked for)
 * @param nodeId the node restored, empty for a verification (which covers every partition)
 * @param directory the data directory restored into, or the verification's scratch directory
 * @param partitions the partitions and the copy chosen for each, by partition id
 */
public record RestorePlan(
    long backupId, Optional<Integer> nodeId, Path directory, List<PartitionPlan> partitions) {

  public RestorePlan {
    partitions = List.copyOf(partitions);
  }

  public long totalBytes() {
    return partitions.stream().mapToLong(PartitionPlan::sizeBytes).sum();
  }

  public int totalFiles() {
    return partitions.stream().mapToInt(PartitionPlan::fileCount).sum();
  }
}
