package io.cairn.engine;

import java.util.Objects;

/**
 * A credit the source partition debited and has not seen acknowledged yet: it counts in the
 * conservation invariant until the target applied it.
 *
 * @param transferKey the transfer's key ({@link LedgerKeys}); the target applies it once
 * @param toAccountId the target account
 * @param amount the amount, positive
 * @param sourcePartitionId this partition
 * @param targetPartitionId the target account's partition
 * @param checkpointId the checkpoint id stamped on every {@code CREDIT APPLY} of this credit: the
 *     source's latest checkpoint id when it debited (retries reuse it)
 */
public record PendingCredit(
    long transferKey,
    String toAccountId,
    long amount,
    int sourcePartitionId,
    int targetPartitionId,
    long checkpointId) {
  public PendingCredit {
    Objects.requireNonNull(toAccountId, "toAccountId");
  }
}
