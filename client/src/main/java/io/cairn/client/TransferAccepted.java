package io.cairn.client;

/**
 * A transfer was accepted by the source account's partition: the source is debited. The target is
 * credited at once when both accounts share a partition ({@code completed}), otherwise shortly
 * after, exactly once.
 *
 * @param transferKey the key the source partition assigned
 * @param sourcePartitionId the partition of the source account
 * @param targetPartitionId the partition of the target account
 * @param completed whether the target is credited already
 * @param position the position of the transfer command in the source partition's log (committed;
 *     the DEBITED or COMPLETED event follows it)
 */
public record TransferAccepted(
    long transferKey,
    int sourcePartitionId,
    int targetPartitionId,
    boolean completed,
    long position) {}
