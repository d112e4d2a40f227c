package io.cairn.engine;

import java.util.Objects;

/**
 * A credit the source partition debited and has not seen settled yet — neither acknowledged
 * (applied by the target) nor refunded (refused by the target): it counts in the conservation
 * invariant until the target applied it or the source refunded it.
 *
 * @param transferKey the transfer's key ({@link LedgerKeys}); the target applies it once
 * @param toAccountId the target account
 * @param amount the amount, positive
 * @param sourcePartitionId this partition
 * @param targetPartitionId the target account's partition
 * @param checkpointId the checkpoint id stamped on every {@code CREDIT APPLY} of this credit: the
 *     source's latest checkpoint id when it debited (retries reuse it)
 * @param fromAccountId the source account, credited back if the target refuses the credit; empty
 *     ({@link #UNKNOWN_FROM_ACCOUNT_ID}) for a credit stored in format version 1, before refunds
 *     existed — such a credit cannot be refunded
 */
public record PendingCredit(
    long transferKey,
    String toAccountId,
    long amount,
    int sourcePartitionId,
    int targetPartitionId,
    long checkpointId,
    String fromAccountId) {

  /** The {@link #fromAccountId()} of a credit stored before refunds existed (never a valid id). */
  public static final String UNKNOWN_FROM_ACCOUNT_ID = "";

  public PendingCredit {
    Objects.requireNonNull(toAccountId, "toAccountId");
    Objects.requireNonNull(fromAccountId, "fromAccountId");
  }

  /** True if the credit names its source account, so a refund can credit it back. */
  public boolean isRefundable() {
    return !fromAccountId.isEmpty();
  }
}
