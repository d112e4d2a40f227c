package io.cairn.client;

import java.util.List;

/**
 * A backup was started: every partition wrote its checkpoint. Follow its progress with {@link
 * CairnClient#getBackup(long)}.
 *
 * @param backupId the backup (= checkpoint) id
 * @param partitions each partition's answer, by partition id; empty when the management HTTP
 *     endpoint of an older gateway did not report them
 */
public record BackupTaken(long backupId, List<PartitionCheckpoint> partitions) {
  public BackupTaken {
    partitions = List.copyOf(partitions);
  }
}
