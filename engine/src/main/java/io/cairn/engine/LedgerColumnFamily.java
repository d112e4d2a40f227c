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
 *       PendingCreditCodec}) — credits this partition debited and has not seen acknowledged or
 *       refunded.
 *   <li>{@link #LEDGER_APPLIED_CREDITS}: transfer key (int64) → the credit marker (see {@code
 *       CreditMarkerCodec}: the amount for an applied credit, a tag and the amount for a refused
 *       one) — what this partition decided as a target, so each credit takes effect once.
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
