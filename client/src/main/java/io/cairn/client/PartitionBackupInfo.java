package io.cairn.client;

import java.time.Instant;

/**
 * One partition's backup of an id.
 *
 * @param partitionId the partition
 * @param state its state
 * @param failureReason why it failed; empty unless FAILED
 * @param checkpointPosition the checkpoint's log position (0 when unknown)
 * @param snapshotId the snapshot it contains; empty for a log-only backup
 * @param nodeId the broker that took it
 * @param brokerVersion that broker's version; empty when unknown
 * @param createdAt when it was started; {@code null} when unknown
 * @param lastUpdatedAt when its state last changed; {@code null} when unknown
 * @param sizeBytes the bytes it holds
 * @param fileCount the files it holds
 * @param stateDigest lowercase hex digest of the partition state at the checkpoint; empty when
 *     unknown
 */
public record PartitionBackupInfo(
    int partitionId,
    BackupState state,
    String failureReason,
    long checkpointPosition,
    String snapshotId,
    int nodeId,
    String brokerVersion,
    Instant createdAt,
    Instant lastUpdatedAt,
    long sizeBytes,
    int fileCount,
    String stateDigest) {}
