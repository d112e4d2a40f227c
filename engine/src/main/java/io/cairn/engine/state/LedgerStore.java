package io.cairn.engine.state;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamily;
import io.cairn.db.DbCodecs;
import io.cairn.engine.LedgerColumnFamily;
import io.cairn.engine.PendingCredit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Typed access to the ledger's column families. Reads are for processors and queries; writes are
 * for event appliers only (DESIGN.md §5). Not thread-safe: the partition's thread uses it.
 *
 * <p>Writes check the model: crediting or debiting an account that does not exist, a balance
 * leaving [0, Long.MAX_VALUE], a second pending credit or a second credit marker (applied or
 * refused) for a key, or removing a pending credit that is not there throw — from an applier that
 * fails the partition, since the state no longer follows the log.
 */
public final class LedgerStore {

  private final ColumnFamily<String, Long> accounts;
  private final ColumnFamily<Long, PendingCredit> pendingCredits;
  private final ColumnFamily<Long, CreditMarker> creditMarkers;

  public LedgerStore(CairnDb db) {
    accounts = db.columnFamily(LedgerColumnFamily.LEDGER_ACCOUNTS, DbCodecs.STRING, DbCodecs.LONG);
    pendingCredits =
        db.columnFamily(
            LedgerColumnFamily.LEDGER_PENDING_CREDITS, DbCodecs.LONG, PendingCreditCodec.INSTANCE);
    creditMarkers =
        db.columnFamily(
            LedgerColumnFamily.LEDGER_APPLIED_CREDITS, DbCodecs.LONG, CreditMarkerCodec.INSTANCE);
  }

  // ---- reads ------------------------------------------------------------------------------------

  /** The balance of {@code accountId}, or null if the account does not exist. */
  public Long balance(String accountId) {
    return accounts.get(accountId);
  }

  public boolean accountExists(String accountId) {
    return accounts.exists(accountId);
  }

  public void forEachAccount(BiConsumer<String, Long> visitor) {
    accounts.forEach(visitor);
  }

  /** The pending credit of {@code transferKey}, or null. */
  public PendingCredit pendingCredit(long transferKey) {
    return pendingCredits.get(transferKey);
  }

  /** Visits the pending credits in transfer key order. */
  public void forEachPendingCredit(Consumer<PendingCredit> visitor) {
    pendingCredits.forEach((key, credit) -> visitor.accept(credit));
  }

  /** True if this partition applied the credit of {@code transferKey} (not if it refused it). */
  public boolean isCreditApplied(long transferKey) {
    CreditMarker marker = creditMarkers.get(transferKey);
    return marker != null && marker.isApplied();
  }

  /** What this partition decided for the credit of {@code transferKey}, or null if nothing yet. */
  public CreditMarker creditMarker(long transferKey) {
    return creditMarkers.get(transferKey);
  }

  /** Visits the applied credits (transfer key, amount) in key order. */
  public void forEachAppliedCredit(BiConsumer<Long, Long> visitor) {
    forEachCreditMarker(CreditMarker.Outcome.APPLIED, visitor);
  }

  /** Visits the refused credits (transfer key, amount) in key order. */
  public void forEachRefusedCredit(BiConsumer<Long, Long> visitor) {
    forEachCreditMarker(CreditMarker.Outcome.REFUSED, visitor);
  }

  private void forEachCreditMarker(CreditMarker.Outcome outcome, BiConsumer<Long, Long> visitor) {
    creditMarkers.forEach(
        (key, marker) -> {
          if (marker.outcome() == outcome) {
            visitor.accept(key, marker.amount());
          }
        });
  }

  // ---- writes (event appliers only) -------------------------------------------------------------

  public void createAccount(String accountId, long balance) {
    checkBalance(accountId, balance);
    accounts.insert(accountId, balance);
  }

  /** Adds {@code delta} (negative to debit) to an existing account's balance. */
  public void addToBalance(String accountId, long delta) {
    Long balance = accounts.get(accountId);
    if (balance == null) {
      throw new IllegalStateException(
          "Expected account '"
              + accountId
              + "' to exist, but it does not (balance change "
              + delta
              + ")");
    }
    long updated = Math.addExact(balance, delta);
    checkBalance(accountId, updated);
    accounts.update(accountId, updated);
  }

  public void addPendingCredit(PendingCredit credit) {
    pendingCredits.insert(credit.transferKey(), credit);
  }

  public void removePendingCredit(long transferKey) {
    pendingCredits.deleteExisting(transferKey);
  }

  public void markCreditApplied(long transferKey, long amount) {
    creditMarkers.insert(transferKey, new CreditMarker(CreditMarker.Outcome.APPLIED, amount));
  }

  public void markCreditRefused(long transferKey, long amount) {
    creditMarkers.insert(transferKey, new CreditMarker(CreditMarker.Outcome.REFUSED, amount));
  }

  private static void checkBalance(String accountId, long balance) {
    if (balance < 0) {
      throw new IllegalStateException(
          "Expected balance of account '" + accountId + "' >= 0, but it would be " + balance);
    }
  }
}
