package io.cairn.protocol.api;

import java.util.Objects;
import java.util.Optional;

/**
 * One partition backup's status as the store reported it (the backup-api's {@code BackupStatus} in
 * wire form; the broker maps to it, the gateway maps back and aggregates).
 *
 * @param nodeId the node that took it, {@code >= 0}
 * @param partitionId in [1, {@link ApiDescriptor#PARTITION_ID_MAX}]
 * @param checkpointId the backup id, {@code >= 1}
 * @param state the state
 * @param failureReason the reason when {@link BackupState#FAILED}, else empty (at most {@link
 *     ApiDescriptor#REASON_MAX_BYTES} bytes, cut to fit)
 * @param createdAtMs epoch milliseconds, or -1 iff {@link BackupState#DOES_NOT_EXIST}
 * @param lastUpdatedAtMs epoch milliseconds, or -1 iff {@link BackupState#DOES_NOT_EXIST}
 * @param details absent for DOES_NOT_EXIST (and for a backup only marked failed), present for
 *     COMPLETED
 */
public record BackupStatusEntry(
    int nodeId,
    int partitionId,
    long checkpointId,
    BackupState state,
    String failureReason,
    long createdAtMs,
    long lastUpdatedAtMs,
    Optional<BackupDetails> details) {

  /** No timestamp (the backup does not exist). */
  public static final long NO_TIMESTAMP = -1;

  public BackupStatusEntry {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(failureReason, "failureReason");
    Objects.requireNonNull(details, "details");
    failureReason = ApiStrings.truncate(failureReason, ApiDescriptor.REASON_MAX_BYTES);
    String context =
        " (backup status of checkpoint "
            + checkpointId
            + ", partition "
            + partitionId
            + ", node "
            + nodeId
            + ")";
    if (nodeId < 0) {
      throw new IllegalArgumentException("Expected nodeId >= 0, but was " + nodeId + context);
    }
    if (partitionId < 1 || partitionId > ApiDescriptor.PARTITION_ID_MAX) {
      throw new IllegalArgumentException(
          "Expected partitionId in [1, "
              + ApiDescriptor.PARTITION_ID_MAX
              + "], but was "
              + partitionId
              + context);
    }
    if (checkpointId < 1) {
      throw new IllegalArgumentException(
          "Expected checkpointId >= 1, but was " + checkpointId + context);
    }
    if (state != BackupState.FAILED && !failureReason.isEmpty()) {
      throw new IllegalArgumentException(
          "Expected no failure reason unless FAILED, but state was " + state + context);
    }
    boolean exists = state != BackupState.DOES_NOT_EXIST;
    if (exists
        ? createdAtMs < 0 || lastUpdatedAtMs < 0
        : createdAtMs != NO_TIMESTAMP || lastUpdatedAtMs != NO_TIMESTAMP) {
      throw new IllegalArgumentException(
          "Expected timestamps >= 0 iff the backup exists (else -1), but state was "
              + state
              + " with createdAtMs "
              + createdAtMs
              + " and lastUpdatedAtMs "
              + lastUpdatedAtMs
              + context);
    }
    if (!exists && details.isPresent()) {
      throw new IllegalArgumentException(
          "Expected no details for a backup that does not exist" + context);
    }
    if (state == BackupState.COMPLETED && details.isEmpty()) {
      throw new IllegalArgumentException(
          "Expected details for a COMPLETED backup, but it has none" + context);
    }
  }

  /** The status of a backup that is not in the store. */
  public static BackupStatusEntry doesNotExist(int nodeId, int partitionId, long checkpointId) {
    return new BackupStatusEntry(
        nodeId,
        partitionId,
        checkpointId,
        BackupState.DOES_NOT_EXIST,
        "",
        NO_TIMESTAMP,
        NO_TIMESTAMP,
        Optional.empty());
  }
}
