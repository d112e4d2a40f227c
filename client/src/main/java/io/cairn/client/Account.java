package io.cairn.client;

/**
 * An account as its partition leader sees it.
 *
 * @param accountId the account
 * @param balance its balance (credits of transfers still in flight not included)
 * @param partitionId the partition that owns it
 */
public record Account(String accountId, long balance, int partitionId) {}
