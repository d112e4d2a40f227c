package io.cairn.restore;

import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.archive.ArchivedCheckpoint;
import java.util.Objects;
import java.util.Optional;

/**
 * The backup copy chosen for one partition.
 *
 * @param partitionId the partition
 * @param source the copy: the node that took it, the partition and the backup id
 * @param descriptor the copy's descriptor (checkpoint position, snapshot, digest, sizes)
 * @param restorePoint for a point-in-time restore, the partition's restore point after the backup:
 *     the archived log is appended up to it, the log cut at it and its digest checked
 */
public record PartitionPlan(
    int partitionId,
    BackupIdentifier source,
    BackupDescriptor descriptor,
    Optional<ArchivedCheckpoint> restorePoint) {

  public PartitionPlan {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(descriptor, "descriptor");
    Objects.requireNonNull(restorePoint, "restorePoint");
  }

  /** A plan that restores the backup itself. */
  public PartitionPlan(int partitionId, BackupIdentifier source, BackupDescriptor descriptor) {
    this(partitionId, source, descriptor, Optional.empty());
  }

  /** This plan continued from the archive up to {@code point}. */
  public PartitionPlan toPoint(ArchivedCheckpoint point) {
    return new PartitionPlan(partitionId, source, descriptor, Optional.of(point));
  }

  /** The checkpoint the restored log ends at: the restore point's, else the backup's. */
  public long checkpointId() {
    return restorePoint.map(ArchivedCheckpoint::id).orElse(descriptor.checkpointId());
  }

  /** The position of the {@code CREATE} command the restored log ends with. */
  public long checkpointPosition() {
    return restorePoint.map(ArchivedCheckpoint::position).orElse(descriptor.checkpointPosition());
  }

  public long sizeBytes() {
    return descriptor.sizeBytes();
  }

  public int fileCount() {
    return descriptor.fileCount();
  }
}
