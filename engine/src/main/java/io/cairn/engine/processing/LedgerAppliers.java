package io.cairn.engine.processing;

import io.cairn.engine.CheckpointIdSupplier;
import io.cairn.engine.PendingCredit;
import io.cairn.engine.state.LedgerStore;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.CreditValue;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.TransferValue;

/**
 * The ledger's event appliers: the only code that writes its state, on leaders (as processors
 * append events) and followers (replay) alike. Each is a function of the state and the event.
 *
 * <table>
 *   <caption>Appliers</caption>
 *   <tr><th>event</th><th>state change</th></tr>
 *   <tr><td>ACCOUNT CREATED</td><td>account inserted with the event's balance (0)</td></tr>
 *   <tr><td>DEPOSIT DEPOSITED</td><td>balance += amount</td></tr>
 *   <tr><td>TRANSFER DEBITED</td><td>source balance -= amount; cross-partition: pending credit
 *       inserted with the partition's latest checkpoint id and the source account</td></tr>
 *   <tr><td>TRANSFER COMPLETED</td><td>target balance += amount (same partition)</td></tr>
 *   <tr><td>CREDIT APPLIED</td><td>target balance += amount; transfer key marked applied</td></tr>
 *   <tr><td>CREDIT IGNORED</td><td>none</td></tr>
 *   <tr><td>CREDIT ACKNOWLEDGED</td><td>pending credit removed</td></tr>
 *   <tr><td>CREDIT REFUSED</td><td>transfer key marked refused (target)</td></tr>
 *   <tr><td>TRANSFER REFUNDED</td><td>source balance += amount; pending credit removed
 *       (source)</td></tr>
 * </table>
 */
public final class LedgerAppliers {

  private final LedgerStore store;
  private final CheckpointIdSupplier checkpointIds;

  public LedgerAppliers(LedgerStore store, CheckpointIdSupplier checkpointIds) {
    this.store = store;
    this.checkpointIds = checkpointIds;
  }

  public void accountCreated(Record event) {
    AccountValue account = (AccountValue) event.value();
    store.createAccount(account.accountId(), account.balance());
  }

  public void deposited(Record event) {
    DepositValue deposit = (DepositValue) event.value();
    store.addToBalance(deposit.accountId(), deposit.amount());
  }

  public void debited(Record event) {
    TransferValue transfer = (TransferValue) event.value();
    store.addToBalance(transfer.fromAccountId(), -transfer.amount());
    if (transfer.targetPartitionId() != transfer.sourcePartitionId()) {
      store.addPendingCredit(
          new PendingCredit(
              event.metadata().key(),
              transfer.toAccountId(),
              transfer.amount(),
              transfer.sourcePartitionId(),
              transfer.targetPartitionId(),
              checkpointIds.latestCheckpointId(),
              transfer.fromAccountId()));
    }
  }

  public void completed(Record event) {
    TransferValue transfer = (TransferValue) event.value();
    store.addToBalance(transfer.toAccountId(), transfer.amount());
  }

  public void creditApplied(Record event) {
    CreditValue credit = (CreditValue) event.value();
    store.addToBalance(credit.toAccountId(), credit.amount());
    store.markCreditApplied(credit.transferKey(), credit.amount());
  }

  public void creditAcknowledged(Record event) {
    CreditValue credit = (CreditValue) event.value();
    store.removePendingCredit(credit.transferKey());
  }

  public void creditRefused(Record event) {
    CreditValue credit = (CreditValue) event.value();
    store.markCreditRefused(credit.transferKey(), credit.amount());
  }

  public void refunded(Record event) {
    TransferValue transfer = (TransferValue) event.value();
    store.addToBalance(transfer.fromAccountId(), transfer.amount());
    store.removePendingCredit(event.metadata().key());
  }
}
