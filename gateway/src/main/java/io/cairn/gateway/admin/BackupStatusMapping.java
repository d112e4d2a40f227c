package io.cairn.gateway.admin;

import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.protocol.api.BackupDetails;
import io.cairn.protocol.api.BackupStatusEntry;
import java.time.Instant;
import java.util.Optional;

/** Maps the wire form of a partition backup's status back to the backup-api's. */
final class BackupStatusMapping {
  private BackupStatusMapping() {}

  /**
   * @throws IllegalArgumentException if the entry breaks a rule of {@link BackupStatus} or {@link
   *     BackupDescriptor}
   */
  static BackupStatus toStatus(BackupStatusEntry entry) {
    BackupIdentifier id =
        new BackupIdentifier(entry.nodeId(), entry.partitionId(), entry.checkpointId());
    BackupStatusCode code =
        switch (entry.state()) {
          case DOES_NOT_EXIST -> BackupStatusCode.DOES_NOT_EXIST;
          case IN_PROGRESS -> BackupStatusCode.IN_PROGRESS;
          case COMPLETED -> BackupStatusCode.COMPLETED;
          case FAILED -> BackupStatusCode.FAILED;
        };
    if (code == BackupStatusCode.DOES_NOT_EXIST) {
      return BackupStatus.doesNotExist(id);
    }
    Optional<BackupDescriptor> descriptor = entry.details().map(d -> descriptor(entry, d));
    return new BackupStatus(
        id,
        code,
        descriptor,
        code == BackupStatusCode.FAILED ? Optional.of(entry.failureReason()) : Optional.empty(),
        Optional.of(Instant.ofEpochMilli(entry.createdAtMs())),
        Optional.of(Instant.ofEpochMilli(entry.lastUpdatedAtMs())));
  }

  private static BackupDescriptor descriptor(BackupStatusEntry entry, BackupDetails details) {
    return new BackupDescriptor(
        entry.checkpointId(),
        entry.partitionId(),
        entry.nodeId(),
        details.checkpointPosition(),
        details.snapshotId().isEmpty() ? Optional.empty() : Optional.of(details.snapshotId()),
        details.numberOfPartitions(),
        details.brokerVersion(),
        details.stateDigest(),
        details.fileCount(),
        details.sizeBytes());
  }
}
