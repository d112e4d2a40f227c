package io.cairn.engine.processing;

import static io.cairn.engine.processing.LedgerValidation.quote;

import io.cairn.engine.LedgerKeys;
import io.cairn.engine.PendingCredit;
import io.cairn.engine.credit.CreditSender;
import io.cairn.engine.credit.CreditTracker;
import io.cairn.engine.state.LedgerStore;
import io.cairn.protocol.RejectionType;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import io.cairn.protocol.ValueDescriptor;
import io.cairn.protocol.api.AccountPlacement;
import io.cairn.scheduler.Clock;
import io.cairn.streamprocessor.ProcessingContext;
import io.cairn.streamprocessor.ProcessingResultBuilder;

/**
 * {@code TRANSFER CREATE} on the source account's partition. The transfer key is {@link
 * LedgerKeys#of} the command's position, so it is unique across partitions and the same whenever
 * the command is processed again.
 *
 * <ul>
 *   <li>Same partition: {@code DEBITED} and {@code COMPLETED} in one batch; the response is {@code
 *       COMPLETED}.
 *   <li>Cross-partition: {@code DEBITED}, whose applier stores a pending credit; the response is
 *       {@code DEBITED}; once the batch is committed a side effect sends {@code CREDIT APPLY} to
 *       the target's partition.
 * </ul>
 */
public final class TransferProcessor {

  private static final String CREATE = "TRANSFER CREATE";

  private final LedgerStore store;
  private final AccountPlacement placement;
  private final CreditSender creditSender;
  private final CreditTracker tracker;
  private final Clock clock;

  public TransferProcessor(
      LedgerStore store,
      AccountPlacement placement,
      CreditSender creditSender,
      CreditTracker tracker,
      Clock clock) {
    this.store = store;
    this.placement = placement;
    this.creditSender = creditSender;
    this.tracker = tracker;
    this.clock = clock;
  }

  public void create(ProcessingContext context, ProcessingResultBuilder result) {
    TransferValue command = (TransferValue) context.value();
    String from = command.fromAccountId();
    String to = command.toAccountId();
    long amount = command.amount();
    int here = context.partitionId();

    Violations violations =
        new Violations()
            .add(LedgerValidation.accountId("fromAccountId", from, CREATE))
            .add(LedgerValidation.accountId("toAccountId", to, CREATE))
            .add(
                LedgerValidation.positiveAmount(
                    amount, CREATE + " from " + quote(from) + " to " + quote(to)));
    if (from.equals(to)) {
      violations.add(
          "Expected fromAccountId and toAccountId to differ, but both are "
              + quote(from)
              + " ("
              + CREATE
              + ")");
    }
    if (violations.any()) {
      result.reject(RejectionType.INVALID_ARGUMENT, violations.reason());
      return;
    }
    int source = placement.partitionOf(from);
    int target = placement.partitionOf(to);
    violations
        .add(LedgerValidation.placedHere(placement, "fromAccountId", from, here, CREATE))
        .add(partitionField("sourcePartitionId", command.sourcePartitionId(), source))
        .add(partitionField("targetPartitionId", command.targetPartitionId(), target));
    if (violations.any()) {
      result.reject(RejectionType.INVALID_ARGUMENT, violations.reason());
      return;
    }

    Long fromBalance = store.balance(from);
    if (fromBalance == null) {
      result.reject(
          RejectionType.NOT_FOUND,
          AccountProcessors.notFound("fromAccountId", from, context, CREATE));
      return;
    }
    boolean samePartition = target == here;
    Long toBalance = null;
    if (samePartition) {
      toBalance = store.balance(to);
      if (toBalance == null) {
        result.reject(
            RejectionType.NOT_FOUND,
            AccountProcessors.notFound("toAccountId", to, context, CREATE));
        return;
      }
    }
    if (fromBalance < amount) {
      result.reject(
          RejectionType.INSUFFICIENT_FUNDS,
          "Expected balance of fromAccountId "
              + quote(from)
              + " >= amount "
              + amount
              + ", but the balance is "
              + fromBalance
              + " ("
              + CREATE
              + ")");
      return;
    }
    if (samePartition) {
      String overflow = LedgerValidation.creditFits("toAccountId", to, toBalance, amount, CREATE);
      if (overflow != null) {
        result.reject(RejectionType.INVALID_STATE, overflow);
        return;
      }
    }

    long transferKey = LedgerKeys.of(here, context.position());
    TransferValue transfer = new TransferValue(from, to, amount, source, target);
    result.appendEvent(transferKey, TransferIntent.DEBITED, transfer);
    if (samePartition) {
      result.appendEventAndRespond(transferKey, TransferIntent.COMPLETED, transfer);
      return;
    }
    result.respondWithEvent(transferKey, TransferIntent.DEBITED, transfer);
    PendingCredit credit = store.pendingCredit(transferKey);
    if (credit == null) {
      throw new IllegalStateException(
          "Expected a pending credit for transfer key "
              + transferKey
              + " after DEBITED, but there is none (partition "
              + here
              + ")");
    }
    result.appendSideEffect(
        () -> {
          tracker.sent(credit.transferKey(), clock.millis());
          creditSender.sendApply(credit, false);
        });
  }

  private static String partitionField(String field, int given, int expected) {
    if (given == ValueDescriptor.NO_PARTITION_ID || given == expected) {
      return null;
    }
    return "Expected "
        + field
        + " "
        + ValueDescriptor.NO_PARTITION_ID
        + " (set by the engine) or "
        + expected
        + ", but was "
        + given
        + " ("
        + CREATE
        + ")";
  }
}
