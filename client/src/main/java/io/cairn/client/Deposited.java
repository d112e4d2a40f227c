package io.cairn.client;

/**
 * Money was added to an account.
 *
 * @param accountId the account
 * @param amount the amount deposited (&gt; 0)
 * @param partitionId the partition that owns the account
 * @param position the position of the DEPOSIT command in the partition's log (committed; the
 *     DEPOSITED event follows it)
 */
public record Deposited(String accountId, long amount, int partitionId, long position) {}
