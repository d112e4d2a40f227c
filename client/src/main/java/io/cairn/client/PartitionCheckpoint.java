package io.cairn.client;

/**
 * One partition's answer to taking a backup.
 *
 * @param partitionId the partition
 * @param created whether this request created the checkpoint (false: the partition had it)
 * @param checkpointId the partition's checkpoint id after the request
 * @param checkpointPosition the checkpoint's log position (0 when the partition had it already)
 */
public record PartitionCheckpoint(
    int partitionId, boolean created, long checkpointId, long checkpointPosition) {}
