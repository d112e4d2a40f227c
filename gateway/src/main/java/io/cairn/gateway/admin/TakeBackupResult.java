package io.cairn.gateway.admin;

import java.util.List;

/** A backup that was taken: every partition's answer, by partition id. */
public record TakeBackupResult(long backupId, List<PartitionCheckpointResult> partitions) {
  public TakeBackupResult {
    partitions = List.copyOf(partitions);
  }
}
