package io.cairn.gateway.admin;

/**
 * What one partition answered to {@code CHECKPOINT CREATE(id)}.
 *
 * @param partitionId the partition
 * @param created whether this request created the checkpoint
 * @param checkpointId the partition's checkpoint id after the request
 * @param checkpointPosition the checkpoint's position when created, else 0
 */
public record PartitionCheckpointResult(
    int partitionId, boolean created, long checkpointId, long checkpointPosition) {}
