package io.cairn.backup;

/**
 * The latest backup the partition's leader confirmed as completed ({@code CHECKPOINT
 * CONFIRMED_BACKUP}).
 *
 * @param checkpointId the backup (= checkpoint) id
 * @param checkpointPosition the position of the checkpoint the backup was taken at
 */
public record ConfirmedBackup(long checkpointId, long checkpointPosition) {}
