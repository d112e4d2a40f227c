package io.cairn.client;

import java.util.List;

/**
 * The cluster status of one backup.
 *
 * @param backupId the backup id
 * @param state COMPLETED iff every partition completed it; FAILED if one failed; IN_PROGRESS while
 *     one runs; INCOMPLETE when some partitions have none
 * @param failureReason why it is not COMPLETED; empty when it is
 * @param partitions one entry per partition that has it, by partition id
 */
public record BackupInfo(
    long backupId, BackupState state, String failureReason, List<PartitionBackupInfo> partitions) {
  public BackupInfo {
    partitions = List.copyOf(partitions);
  }
}
