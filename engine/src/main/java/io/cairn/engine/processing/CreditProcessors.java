package io.cairn.engine.processing;

import static io.cairn.engine.processing.LedgerValidation.quote;

import io.cairn.engine.CheckpointIdSupplier;
import io.cairn.engine.LedgerKeys;
import io.cairn.engine.PendingCredit;
import io.cairn.engine.credit.CreditSender;
import io.cairn.engine.state.CreditMarker;
import io.cairn.engine.state.LedgerStore;
import io.cairn.protocol.CreditIntent;
import io.cairn.protocol.CreditValue;
import io.cairn.protocol.RejectionType;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import io.cairn.protocol.api.AccountPlacement;
import io.cairn.streamprocessor.ProcessingContext;
import io.cairn.streamprocessor.ProcessingResultBuilder;

/**
 * The cross-partition half of a transfer.
 *
 * <ul>
 *   <li>{@code CREDIT APPLY} on the target partition, decided once per transfer key and kept as a
 *       credit marker: {@code APPLIED} when the account exists (answered with {@code CREDIT ACK}),
 *       {@code REFUSED} when it does not (answered with {@code CREDIT REFUND}, nothing else
 *       changes). Every later {@code APPLY} of the key is {@code IGNORED} and answered like the
 *       first, so a credit refused once is never applied, even after the account was opened.
 *       Answers are side effects, after commit, stamped with this partition's latest checkpoint id.
 *       A credit that would overflow the balance is rejected without an answer: it stays pending at
 *       the source, which re-sends it with backoff.
 *   <li>{@code CREDIT ACK} on the source partition: {@code ACKNOWLEDGED} removes the pending
 *       credit.
 *   <li>{@code CREDIT REFUND} on the source partition: {@code TRANSFER REFUNDED} credits the source
 *       account back and removes the pending credit.
 *   <li>The pending credit is what makes {@code ACK} and {@code REFUND} take effect once: either
 *       one for a credit that is not pending (a duplicate) is rejected with {@code NOT_FOUND}.
 * </ul>
 */
public final class CreditProcessors {

  private static final String APPLY = "CREDIT APPLY";
  private static final String ACK = "CREDIT ACK";
  private static final String REFUND = "CREDIT REFUND";

  private final LedgerStore store;
  private final AccountPlacement placement;
  private final CreditSender creditSender;
  private final CheckpointIdSupplier checkpointIds;

  public CreditProcessors(
      LedgerStore store,
      AccountPlacement placement,
      CreditSender creditSender,
      CheckpointIdSupplier checkpointIds) {
    this.store = store;
    this.placement = placement;
    this.creditSender = creditSender;
    this.checkpointIds = checkpointIds;
  }

  /** Applies a credit once per transfer key. */
  public void apply(ProcessingContext context, ProcessingResultBuilder result) {
    CreditValue credit = (CreditValue) context.value();
    int here = context.partitionId();
    long key = credit.transferKey();
    String what = APPLY + " of transfer key " + key;
    Violations violations =
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

    long checkpointId = checkpointIds.latestCheckpointId();
    CreditMarker marker = store.creditMarker(key);
    if (marker != null) {
      String outcome = marker.isApplied() ? "applied" : "refused";
      if (marker.amount() != credit.amount()) {
        result.reject(
            RejectionType.INVALID_ARGUMENT,
            "Expected a duplicate of the "
                + outcome
                + " credit to carry its amount "
                + marker.amount()
                + ", but it carries "
                + credit.amount()
                + " ("
                + what
                + ")");
        return;
      }
      result.appendEvent(key, CreditIntent.IGNORED, credit);
      if (marker.isApplied()) {
        result.appendSideEffect(() -> creditSender.sendAck(credit, checkpointId));
      } else {
        result.appendSideEffect(() -> creditSender.sendRefund(credit, checkpointId));
      }
      return;
    }
    Long balance = store.balance(credit.toAccountId());
    if (balance == null) {
      result.appendEvent(key, CreditIntent.REFUSED, credit);
      result.appendSideEffect(() -> creditSender.sendRefund(credit, checkpointId));
      return;
    }
    String overflow =
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
  public void acknowledge(ProcessingContext context, ProcessingResultBuilder result) {
    CreditValue ack = (CreditValue) context.value();
    PendingCredit pending = settledCredit(context, result, ack, ACK, "acknowledged already");
    if (pending != null) {
      result.appendEvent(ack.transferKey(), CreditIntent.ACKNOWLEDGED, ack);
    }
  }

  /** Credits the source account back for a credit the target refused; ends the pending credit. */
  public void refund(ProcessingContext context, ProcessingResultBuilder result) {
    CreditValue refund = (CreditValue) context.value();
    PendingCredit pending = settledCredit(context, result, refund, REFUND, "refunded already");
    if (pending == null) {
      return;
    }
    String what = REFUND + " of transfer key " + refund.transferKey();
    if (!pending.isRefundable()) {
      result.reject(
          RejectionType.INVALID_STATE,
          "Expected the pending credit to name its fromAccountId, but it was stored before"
              + " refunds existed (pending credit format version 1) ("
              + what
              + "; the credit stays pending)");
      return;
    }
    String from = pending.fromAccountId();
    Long balance = store.balance(from);
    if (balance == null) {
      // accounts are never removed: the debited account is gone only if the state is broken
      result.failPartition(
          "Expected fromAccountId "
              + quote(from)
              + " of a pending credit to exist, but partition "
              + context.partitionId()
              + " has no such account ("
              + what
              + ")");
      return;
    }
    String overflow =
        LedgerValidation.creditFits("fromAccountId", from, balance, pending.amount(), what);
    if (overflow != null) {
      result.reject(RejectionType.INVALID_STATE, overflow);
      return;
    }
    result.appendEvent(
        refund.transferKey(),
        TransferIntent.REFUNDED,
        new TransferValue(
            from,
            pending.toAccountId(),
            pending.amount(),
            pending.sourcePartitionId(),
            pending.targetPartitionId()));
  }

  /**
   * The pending credit an {@code ACK} or {@code REFUND} settles, or null after rejecting the
   * command: addressed to another partition, no such pending credit (a duplicate), or one that does
   * not match it.
   */
  private PendingCredit settledCredit(
      ProcessingContext context,
      ProcessingResultBuilder result,
      CreditValue answer,
      String command,
      String duplicate) {
    int here = context.partitionId();
    long key = answer.transferKey();
    String what = command + " of transfer key " + key;
    Violations violations = new Violations().add(transferKey(answer, command));
    if (answer.sourcePartitionId() != here) {
      violations.add(
          "Expected sourcePartitionId "
              + here
              + ", but was "
              + answer.sourcePartitionId()
              + " ("
              + what
              + ")");
    }
    if (violations.any()) {
      result.reject(RejectionType.INVALID_ARGUMENT, violations.reason());
      return null;
    }
    PendingCredit pending = store.pendingCredit(key);
    if (pending == null) {
      result.reject(
          RejectionType.NOT_FOUND,
          "Expected a pending credit with transferKey "
              + key
              + ", but partition "
              + here
              + " has none ("
              + what
              + "; "
              + duplicate
              + ")");
      return null;
    }
    if (pending.amount() != answer.amount()
        || !pending.toAccountId().equals(answer.toAccountId())
        || pending.targetPartitionId() != answer.targetPartitionId()) {
      result.reject(
          RejectionType.INVALID_ARGUMENT,
          "Expected the "
              + command.substring("CREDIT ".length())
              + " to match the pending credit (toAccountId "
              + quote(pending.toAccountId())
              + ", amount "
              + pending.amount()
              + ", targetPartitionId "
              + pending.targetPartitionId()
              + "), but it has toAccountId "
              + quote(answer.toAccountId())
              + ", amount "
              + answer.amount()
              + ", targetPartitionId "
              + answer.targetPartitionId()
              + " ("
              + what
              + ")");
      return null;
    }
    return pending;
  }

  /** Null if the transfer key is a ledger key made by the credit's source partition. */
  private static String transferKey(CreditValue credit, String command) {
    long key = credit.transferKey();
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
