package io.cairn.restore;

import io.cairn.backupapi.BackupIdentifier;
import java.util.Objects;
import java.util.Optional;

/**
 * What was restored for one partition.
 *
 * @param partitionId the partition
 * @param source the backup copy it was restored from
 * @param checkpointPosition the position of the kept {@code CHECKPOINT CREATE}: the log ends there
 * @param snapshotId the installed snapshot, empty for a log-only backup
 * @param fileCount files downloaded and checked
 * @param sizeBytes their bytes
 * @param firstIndex the first raft index of the installed log
 * @param lastIndex the last raft index of the installed log (the checkpoint's entry)
 * @param droppedRecords records after the checkpoint position that the backup held and the restore
 *     dropped (they were written after the cut)
 */
public record PartitionRestoreResult(
    int partitionId,
    BackupIdentifier source,
    long checkpointPosition,
    Optional<String> snapshotId,
    int fileCount,
    long sizeBytes,
    long firstIndex,
    long lastIndex,
    long droppedRecords) {

  public PartitionRestoreResult {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(snapshotId, "snapshotId");
  }
}
