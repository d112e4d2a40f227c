package io.cairn.protocol.api;

import java.util.Objects;

/**
 * The descriptor of a partition backup (the backup-api's {@code BackupDescriptor} without the ids,
 * which the enclosing {@link BackupStatusEntry} carries).
 *
 * @param checkpointPosition {@code >= 0}
 * @param snapshotId the reserved snapshot's id; empty for a log-only backup (at most {@link
 *     ApiDescriptor#NAME_MAX_BYTES} bytes)
 * @param numberOfPartitions the partition count when taken, {@code >= 1}
 * @param brokerVersion 1 to {@link ApiDescriptor#NAME_MAX_BYTES} bytes
 * @param stateDigest lowercase hex, at most {@link ApiDescriptor#STATE_DIGEST_MAX_BYTES} bytes
 * @param fileCount {@code >= 0}
 * @param sizeBytes {@code >= 0}
 */
public record BackupDetails(
    long checkpointPosition,
    String snapshotId,
    int numberOfPartitions,
    String brokerVersion,
    String stateDigest,
    int fileCount,
    long sizeBytes) {
  public BackupDetails {
    Objects.requireNonNull(snapshotId, "snapshotId");
    Objects.requireNonNull(brokerVersion, "brokerVersion");
    Objects.requireNonNull(stateDigest, "stateDigest");
    if (checkpointPosition < 0) {
      throw invalid("checkpointPosition >= 0", checkpointPosition);
    }
    if (numberOfPartitions < 1 || numberOfPartitions > ApiDescriptor.PARTITION_ID_MAX) {
      throw invalid(
          "numberOfPartitions in [1, " + ApiDescriptor.PARTITION_ID_MAX + "]", numberOfPartitions);
    }
    if (fileCount < 0) {
      throw invalid("fileCount >= 0", fileCount);
    }
    if (sizeBytes < 0) {
      throw invalid("sizeBytes >= 0", sizeBytes);
    }
  }

  private static IllegalArgumentException invalid(String rule, Object actual) {
    return new IllegalArgumentException(
        "Expected " + rule + ", but was " + actual + " (backup details)");
  }
}
