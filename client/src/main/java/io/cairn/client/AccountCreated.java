package io.cairn.client;

/**
 * An account was opened with a zero balance.
 *
 * @param accountId the account
 * @param partitionId the partition that owns it
 * @param position the position of the CREATE command in that partition's log (committed; the
 *     CREATED event follows it)
 */
public record AccountCreated(String accountId, int partitionId, long position) {}
