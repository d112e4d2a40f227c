package io.cairn.streamprocessor;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamily;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbCodecs;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.RejectionType;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A small ledger for the stream processor's tests (not the engine): accounts with balances,
 * deposits and same-partition transfers. Special account ids trigger failures:
 *
 * <ul>
 *   <li>a deposit to an account whose id starts with {@code explode} applies its event, then the
 *       processor throws (the rollback must undo the event);
 *   <li>a deposit to an account whose id starts with {@code poison} has an applier that throws (the
 *       partition must fail).
 * </ul>
 *
 * Every deposit adds a side effect that records {@code "deposited <id> <amount>"} into the given
 * list.
 */
final class TestLedger {

  /** The ledger's state. */
  enum Family implements ColumnFamilyDefinition {
    TEST_ACCOUNTS;

    @Override
    public boolean includedInDigest() {
      return true;
    }
  }

  static final List<Family> FAMILIES = List.of(Family.values());

  private final ColumnFamily<String, Long> accounts;

  private TestLedger(CairnDb db) {
    accounts = db.columnFamily(Family.TEST_ACCOUNTS, DbCodecs.STRING, DbCodecs.LONG);
  }

  /** Registers the ledger over {@code db}; side effects append to {@code sideEffects}. */
  static void register(CairnDb db, RecordProcessors.Builder builder, List<String> sideEffects) {
    TestLedger ledger = new TestLedger(db);
    builder
        .processor(AccountIntent.CREATE, ledger::createAccount)
        .applier(AccountIntent.CREATED, e -> ledger.accounts.insert(accountId(e.value()), 0L))
        .processor(
            DepositIntent.DEPOSIT,
            (context, result) -> ledger.deposit(context, result, sideEffects))
        .applier(DepositIntent.DEPOSITED, ledger::applyDeposited)
        .processor(TransferIntent.CREATE, ledger::transfer)
        .applier(
            TransferIntent.DEBITED,
            e ->
                ledger.add(
                    ((TransferValue) e.value()).fromAccountId(),
                    -((TransferValue) e.value()).amount()))
        .applier(
            TransferIntent.COMPLETED,
            e ->
                ledger.add(
                    ((TransferValue) e.value()).toAccountId(),
                    ((TransferValue) e.value()).amount()));
  }

  /** Every account and its balance, read from {@code db}. */
  static Map<String, Long> balances(CairnDb db) {
    Map<String, Long> balances = new TreeMap<>();
    new TestLedger(db).accounts.forEach(balances::put);
    return balances;
  }

  private void createAccount(ProcessingContext context, ProcessingResultBuilder result) {
    String id = accountId(context.value());
    if (accounts.exists(id)) {
      result.reject(
          RejectionType.ALREADY_EXISTS, "Expected a new account, but '" + id + "' exists");
      return;
    }
    result.appendEventAndRespond(
        context.position(), AccountIntent.CREATED, new AccountValue(id, 0));
  }

  private void deposit(
      ProcessingContext context, ProcessingResultBuilder result, List<String> sideEffects) {
    DepositValue deposit = (DepositValue) context.value();
    if (!accounts.exists(deposit.accountId())) {
      result.reject(
          RejectionType.NOT_FOUND,
          "Expected an account '" + deposit.accountId() + "', but none exists");
      return;
    }
    if (deposit.amount() <= 0) {
      result.reject(
          RejectionType.INVALID_ARGUMENT,
          "Expected a positive amount, but was " + deposit.amount());
      return;
    }
    result.appendEventAndRespond(context.position(), DepositIntent.DEPOSITED, deposit);
    if (deposit.accountId().startsWith("explode")) {
      throw new IllegalStateException("boom for " + deposit.accountId());
    }
    result.appendSideEffect(
        () -> sideEffects.add("deposited " + deposit.accountId() + " " + deposit.amount()));
  }

  private void applyDeposited(io.cairn.protocol.Record event) {
    DepositValue deposit = (DepositValue) event.value();
    if (deposit.accountId().startsWith("poison")) {
      throw new IllegalStateException("poisoned deposit to " + deposit.accountId());
    }
    add(deposit.accountId(), deposit.amount());
  }

  private void transfer(ProcessingContext context, ProcessingResultBuilder result) {
    TransferValue transfer = (TransferValue) context.value();
    Long balance = accounts.get(transfer.fromAccountId());
    if (balance == null || !accounts.exists(transfer.toAccountId())) {
      result.reject(RejectionType.NOT_FOUND, "Expected both accounts of the transfer to exist");
      return;
    }
    if (balance < transfer.amount()) {
      result.reject(
          RejectionType.INSUFFICIENT_FUNDS,
          "Expected a balance of at least " + transfer.amount() + ", but was " + balance);
      return;
    }
    long key = context.position();
    result.appendEvent(key, TransferIntent.DEBITED, transfer);
    // The debit is applied already: what the processor reads now shows it.
    if (accounts.get(transfer.fromAccountId()) != balance - transfer.amount()) {
      throw new IllegalStateException("Expected the debit to be applied at once");
    }
    result.appendEventAndRespond(key, TransferIntent.COMPLETED, transfer);
  }

  private void add(String accountId, long amount) {
    accounts.update(accountId, accounts.get(accountId) + amount);
  }

  private static String accountId(io.cairn.protocol.RecordValue value) {
    return ((AccountValue) value).accountId();
  }
}
