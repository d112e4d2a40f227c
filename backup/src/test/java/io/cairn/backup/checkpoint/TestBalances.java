package io.cairn.backup.checkpoint;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamily;
import io.cairn.db.ColumnFamilyDefinition;
import io.cairn.db.DbCodecs;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.streamprocessor.RecordProcessors;
import java.util.List;

/**
 * A tiny digested state for the checkpoint tests: {@code DEPOSIT → DEPOSITED} adds the amount to
 * the account's balance. {@code skew} is added by the applier on top: a replica registered with a
 * skew applies the same events differently (a diverged replica).
 */
final class TestBalances {

  static final ColumnFamilyDefinition FAMILY = ColumnFamilyDefinition.digested("TEST_BALANCES");
  static final List<ColumnFamilyDefinition> FAMILIES = List.of(FAMILY);

  private TestBalances() {}

  static void register(CairnDb db, RecordProcessors.Builder builder, long skew) {
    ColumnFamily<String, Long> balances = db.columnFamily(FAMILY, DbCodecs.STRING, DbCodecs.LONG);
    builder
        .processor(
            DepositIntent.DEPOSIT,
            (context, result) ->
                result.appendEventAndRespond(
                    context.key(), DepositIntent.DEPOSITED, context.value()))
        .applier(
            DepositIntent.DEPOSITED,
            event -> {
              DepositValue deposit = (DepositValue) event.value();
              Long balance = balances.get(deposit.accountId());
              balances.put(
                  deposit.accountId(), (balance == null ? 0 : balance) + deposit.amount() + skew);
            });
  }

  static long balance(CairnDb db, String accountId) {
    Long balance = db.columnFamily(FAMILY, DbCodecs.STRING, DbCodecs.LONG).get(accountId);
    return balance == null ? 0 : balance;
  }
}
