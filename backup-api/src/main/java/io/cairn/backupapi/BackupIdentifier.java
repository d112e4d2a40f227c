package io.cairn.backupapi;

import java.util.Comparator;

/**
 * Names one partition's backup taken by one node for one checkpoint.
 *
 * <p>The checkpoint id is the backup id: the same value for every partition of a cluster backup.
 * Identifiers order by partition, then checkpoint id, then node (the order of {@link
 * BackupStore#list} results).
 *
 * @param nodeId the node that took the backup, {@code >= 0}
 * @param partitionId the partition, {@code >= 1}
 * @param checkpointId the checkpoint (= backup) id, {@code >= 1}
 */
public record BackupIdentifier(int nodeId, int partitionId, long checkpointId)
    implements Comparable<BackupIdentifier> {

  private static final Comparator<BackupIdentifier> ORDER =
      Comparator.comparingInt(BackupIdentifier::partitionId)
          .thenComparingLong(BackupIdentifier::checkpointId)
          .thenComparingInt(BackupIdentifier::nodeId);

  public BackupIdentifier {
    if (nodeId < 0) {
      throw new IllegalArgumentException(
          "Expected nodeId >= 0, but was " + nodeId + " (backup identifier)");
    }
    if (partitionId < 1) {
      throw new IllegalArgumentException(
          "Expected partitionId >= 1, but was " + partitionId + " (backup identifier)");
    }
    if (checkpointId < 1) {
      throw new IllegalArgumentException(
          "Expected checkpointId >= 1, but was " + checkpointId + " (backup identifier)");
    }
  }

  @Override
  public int compareTo(BackupIdentifier other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return "backup{checkpoint="
        + checkpointId
        + ", partition="
        + partitionId
        + ", node="
        + nodeId
        + "}";
  }
}
