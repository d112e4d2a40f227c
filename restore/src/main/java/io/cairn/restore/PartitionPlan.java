package io.cairn.restore;

import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.BackupIdentifier;
import java.util.Objects;

/**
 * The backup copy chosen for one partition.
 *
 * @param partitionId the partition
 * @param source the copy: the node that took it, the partition and the backup id
 * @param descriptor the copy's descriptor (checkpoint position, snapshot, digest, sizes)
 */
public record PartitionPlan(int partitionId, BackupIdentifier source, BackupDescriptor descriptor) {

  public PartitionPlan {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(descriptor, "descriptor");
  }

  public long sizeBytes() {
    return descriptor.sizeBytes();
  }

  public int fileCount() {
    return descriptor.fileCount();
  }
}
