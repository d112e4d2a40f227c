package io.cairn.engine.processing;

import static io.cairn.engine.processing.LedgerValidation.quote;

import io.cairn.protocol.api.AccountPlacement;
import io.cairn.engine.CheckpointIdSupplier;
import io.cairn.engine.LedgerKeys;
import io.cairn.engine.PendingCredit;
import io.cairn.engine.credit.CreditSender;
import io.cairn.engine.state.LedgerStore;
import io.cairn.protocol.CreditIntent;
import io.cairn.protocol.CreditValue;
import io.cairn.protocol.RejectionType;
import io.cairn.streamprocessor.ProcessingContext;
import io.cairn.streamprocessor.ProcessingResultBuilder;

/**
 * The cross-partition half of a transfer.
 *
 * <ul>
 *   <li>{@code CREDIT APPLY} on the target partition: {@code APPLIED} the first time for a
 *       transfer key, {@code IGNORED} for every duplicate; both answer with {@code CREDIT ACK} to
 *       the source (a side effect, after commit). A credit that cannot be applied (the account does
 *       not exist, the balance would overflow) is rejected without an ACK: it stays pending at the
 *       source, which re-sends it with backoff, so it is applied once the account exists.
 *   <li>{@code CREDIT ACK} on the source partition: {@code ACKNOWLEDGED} removes the pending
 *       credit; an ACK for a credit that is not pending (a duplicate) is rejected with {@code
 *       NOT_FOUND}.
 * </ul>
 */
public final class CreditProcessors {

  private static final String APPLY = "CREDIT APPLY";
  private static final String ACK = "CREDIT ACK";

  private final LedgerStore store;
  private final AccountPlacement placement;
  private final CreditSender creditSender;
  private final CheckpointIdSupplier checkpointIds;

  public CreditProcessors(
      final LedgerStore store,
      final AccountPlacement placement,
      final CreditSender creditSender,
      final CheckpointIdSupplier checkpointIds) {
    this.store = store;
    this.placement = placement;
    this.creditSender = creditSender;
    this.checkpointIds = checkpointIds;
  }

  /** Applies a credit once per transfer key. */
  public void apply(final ProcessingContext context, final ProcessingResultBuilder result) {
    final CreditValue credit = (CreditValue) context.value();
    final int here = context.partitionId();
    final long key = credit.transferKey();
    final String what = APPLY + " of transfer key " + key;
    final Violations violations =
        new Violations()
            .add(transferKey(credit, APPLY))
            .add(LedgerValidation.accountId("toAccountId", credit.toAccountId(), what))
            .add(LedgerValidation.positiveAmount(credit.amount(), what));
    if (credit.targetPartitionId() != here) {
      violations.add(
          "Expected targetPartitionId "
              + here
              + ", but was "
              + credit.targetPartitionId()
              + " ("
              + what
              + ")");
    }
    if (credit.sourcePartitionId() == here
        || credit.sourcePartitionId() < 1
        || credit.sourcePartitionId() > placement.partitionCount()) {
      violations.add(
          "Expected sourcePartitionId in [1, "
              + placement.partitionCount()
              + "] other than "
              + here
              + ", but was "
              + credit.sourcePartitionId()
              + " ("
              + what
              + ")");
    }
    if (!violations.any()) {
      violations.add(
          LedgerValidation.placedHere(placement, "toAccountId", credit.toAccountId(), here, what));
    }
    if (violations.any()) {
      result.reject(RejectionType.INVALID_ARGUMENT, violations.reason());
      return;
    }

    final long checkpointId = checkpointIds.latestCheckpointId();
    final Long appliedAmount = store.appliedCreditAmount(key);
    if (appliedAmount != null) {
      if (appliedAmount != credit.amount()) {
        result.reject(
            RejectionType.INVALID_ARGUMENT,
            "Expected a duplicate of the applied credit to carry its amount "
                + appliedAmount
                + ", but it carries "
                + credit.amount()
                + " ("
                + what
                + ")");
        return;
      }
      result.appendEvent(key, CreditIntent.IGNORED, credit);
      result.appendSideEffect(() -> creditSender.sendAck(credit, checkpointId));
      return;
    }
    final Long balance = store.balance(credit.toAccountId());
    if (balance == null) {
      result.reject(
          RejectionType.NOT_FOUND,
          AccountProcessors.notFound(
              "toAccountId",
              credit.toAccountId(),
              context,
              what + "; the source keeps the credit pending and sends it again"));
      return;
    }
    final String overflow =
        LedgerValidation.creditFits(
            "toAccountId", credit.toAccountId(), balance, credit.amount(), what);
    if (overflow != null) {
      result.reject(RejectionType.INVALID_STATE, overflow);
      return;
    }
    result.appendEvent(key, CreditIntent.APPLIED, credit);
    result.appendSideEffect(() -> creditSender.sendAck(credit, checkpointId));
  }

  /** Removes the pending credit the target acknowledged. */
  public void acknowledge(final ProcessingContext context, final ProcessingResultBuilder result) {
    final CreditValue ack = (CreditValue) context.value();
    final int here = context.partitionId();
    final long key = ack.transferKey();
    final String what = ACK + " of transfer key " + key;
    final Violations violations = new Violations().add(transferKey(ack, ACK));
    if (ack.sourcePartitionId() != here) {
      violations.add(
          "Expected sourcePartitionId "
              + here
              + ", but was "
              + ack.sourcePartitionId()
              + " ("
              + what
              + ")");
    }
    if (violations.any()) {
      result.reject(RejectionType.INVALID_ARGUMENT, violations.reason());
      return;
    }
    final PendingCredit pending = store.pendingCredit(key);
    if (pending == null) {
      result.reject(
          RejectionType.NOT_FOUND,
          "Expected a pending credit with transferKey "
              + key
              + ", but partition "
              + here
              + " has none ("
              + what
              + "; acknowledged already)");
      return;
    }
    if (pending.amount() != ack.amount()
        || !pending.toAccountId().equals(ack.toAccountId())
        || pending.targetPartitionId() != ack.targetPartitionId()) {
      result.reject(
          RejectionType.INVALID_ARGUMENT,
          "Expected the ACK to match the pending credit (toAccountId "
              + quote(pending.toAccountId())
              + ", amount "
              + pending.amount()
              + ", targetPartitionId "
              + pending.targetPartitionId()
              + "), but it has toAccountId "
              + quote(ack.toAccountId())
              + ", amount "
              + ack.amount()
              + ", targetPartitionId "
              + ack.targetPartitionId()
              + " ("
              + what
              + ")");
      return;
    }
    result.appendEvent(key, CreditIntent.ACKNOWLEDGED, ack);
  }

  /** Null if the transfer key is a ledger key made by the credit's source partition. */
  private static String transferKey(final CreditValue credit, final String command) {
    final long key = credit.transferKey();
    if (LedgerKeys.isValid(key) && LedgerKeys.partitionId(key) == credit.sourcePartitionId()) {
      return null;
    }
    return "Expected transferKey made by sourcePartitionId "
        + credit.sourcePartitionId()
        + " (partition in bits 48-62, position below), but was "
        + key
        + " ("
        + command
        + ")";
  }
}
