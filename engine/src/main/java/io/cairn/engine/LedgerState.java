package io.cairn.engine;

import io.cairn.engine.state.CreditMarker;
import io.cairn.engine.state.LedgerStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Read-only view of one partition's ledger state: the query path (the gateway's "get account") and
 * what tests and tools check.
 *
 * <p>Threading: the partition's database has one user, the partition's thread. Call these methods
 * there, for example through {@code streamProcessor.call(() -> state.balance(id))}. The view shows
 * the committed state plus, on a leader, commands processed but not committed in the log yet.
 */
public final class LedgerState {

  private final LedgerStore store;

  public LedgerState(LedgerStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  /** The balance of {@code accountId}, empty if this partition has no such account. */
  public OptionalLong balance(String accountId) {
    Long balance = store.balance(accountId);
    return balance == null ? OptionalLong.empty() : OptionalLong.of(balance);
  }

  /** Every account of this partition and its balance, by account id. */
  public Map<String, Long> balances() {
    Map<String, Long> balances = new TreeMap<>();
    store.forEachAccount(balances::put);
    return balances;
  }

  /** Visits every account and its balance, in account id order (UTF-8 byte order). */
  public void forEachAccount(BiConsumer<String, Long> visitor) {
    store.forEachAccount(visitor);
  }

  /** The credits this partition debited and has not seen acknowledged or refunded, by key. */
  public List<PendingCredit> pendingCredits() {
    List<PendingCredit> credits = new ArrayList<>();
    store.forEachPendingCredit(credits::add);
    return credits;
  }

  /** Visits the pending credits in transfer key order. */
  public void forEachPendingCredit(Consumer<PendingCredit> visitor) {
    store.forEachPendingCredit(visitor);
  }

  /** True if this partition applied the credit of {@code transferKey} (as its target). */
  public boolean isCreditApplied(long transferKey) {
    return store.isCreditApplied(transferKey);
  }

  /** The credits this partition applied as a target: transfer key → amount. */
  public Map<Long, Long> appliedCredits() {
    Map<Long, Long> applied = new TreeMap<>();
    store.forEachAppliedCredit(applied::put);
    return applied;
  }

  /**
   * True if this partition refused the credit of {@code transferKey} (as its target, because the
   * account did not exist); such a credit is never applied, the source is refunded instead.
   */
  public boolean isCreditRefused(long transferKey) {
    CreditMarker marker = store.creditMarker(transferKey);
    return marker != null && !marker.isApplied();
  }

  /** The credits this partition refused as a target: transfer key → amount. */
  public Map<Long, Long> refusedCredits() {
    Map<Long, Long> refused = new TreeMap<>();
    store.forEachRefusedCredit(refused::put);
    return refused;
  }

  /** The sum of every balance of this partition (exact; throws on overflow). */
  public long totalBalance() {
    long[] sum = {0};
    store.forEachAccount((id, balance) -> sum[0] = Math.addExact(sum[0], balance));
    return sum[0];
  }
}
