package io.cairn.engine;

import io.cairn.db.ColumnFamilyDefinition;
import java.util.List;

/**
 * The ledger's column families; all are part of the state digest. Open the partition's database
 * with {@link #all()} among its families.
 *
 * <ul>
 *   <li>{@link #LEDGER_ACCOUNTS}: account id (UTF-8) → balance (int64).
 *   <li>{@link #LEDGER_PENDING_CREDITS}: transfer key (int64) → the pending credit (see {@code
 *       PendingCreditCodec}) — credits this partition debited and has not seen acknowledged.
 *   <li>{@link #LEDGER_APPLIED_CREDITS}: transfer key (int64) → amount (int64) — credits this
 *       partition applied as a target, for idempotency.
 * </ul>
 */
public enum LedgerColumnFamily implements ColumnFamilyDefinition {
  LEDGER_ACCOUNTS,
  LEDGER_PENDING_CREDITS,
  LEDGER_APPLIED_CREDITS;

  private static final List<LedgerColumnFamily> ALL = List.of(values());

  @Override
  public boolean includedInDigest() {
    return true;
  }

  /** Every ledger family. */
  public static List<LedgerColumnFamily> all() {
    return ALL;
  }
}
