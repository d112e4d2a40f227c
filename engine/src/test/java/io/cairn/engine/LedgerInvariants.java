package io.cairn.engine;

import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.CreditIntent;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Intent;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The ledger's invariants over a set of partitions, each given as its ledger state and its log (the
 * records whose effects the state holds, in position order).
 *
 * <p>Conservation (DESIGN.md §6): Σ balances + Σ pending credits whose target has not applied them
 * = Σ deposited amounts (the {@code DEPOSITED} events of the logs). A credit the target refused is
 * not applied: it counts as pending until the source is refunded. Once nothing is pending the
 * ledger is settled: Σ balances = Σ deposits.
 *
 * <p>Exactly once: per transfer key, at most one {@code CREDIT APPLIED} or {@code CREDIT REFUSED}
 * (never both) over the target's log, and at most one {@code CREDIT ACKNOWLEDGED} or {@code
 * TRANSFER REFUNDED} (never both) over the source's.
 */
public final class LedgerInvariants {

  /** What the invariant compares. */
  public record Totals(long balances, long unappliedPending, long pendingCount, long deposited) {
    public boolean conserved() {
      return balances + unappliedPending == deposited;
    }
  }

  private LedgerInvariants() {}

  /** Measures the totals; {@code states} and {@code logs} are indexed by partition id - 1. */
  public static Totals totals(final List<LedgerState> states, final List<List<Record>> logs) {
    final Set<Long> applied = new HashSet<>();
    long balances = 0;
    for (final LedgerState state : states) {
      applied.addAll(state.appliedCredits().keySet());
      balances = Math.addExact(balances, state.totalBalance());
    }
    long pending = 0;
    long pendingCount = 0;
    for (final LedgerState state : states) {
      for (final PendingCredit credit : state.pendingCredits()) {
        pendingCount++;
        if (!applied.contains(credit.transferKey())) {
          pending = Math.addExact(pending, credit.amount());
        }
      }
    }
    long deposited = 0;
    for (final List<Record> log : logs) {
      for (final Record record : log) {
        if (record.metadata().recordType() == RecordType.EVENT
            && record.metadata().intent() == DepositIntent.DEPOSITED) {
          deposited = Math.addExact(deposited, ((DepositValue) record.value()).amount());
        }
      }
    }
    return new Totals(balances, pending, pendingCount, deposited);
  }

  /**
   * @throws AssertionError naming the totals if money was created or destroyed
   */
  public static Totals assertConserved(
      final List<LedgerState> states, final List<List<Record>> logs, final String context) {
    final Totals totals = totals(states, logs);
    if (!totals.conserved()) {
      throw new AssertionError(
          "Expected Σ balances + Σ unapplied pending credits = Σ deposits, but "
              + totals.balances()
              + " + "
              + totals.unappliedPending()
              + " != "
              + totals.deposited()
              + " ("
              + context
              + ")");
    }
    return totals;
  }

  /** How often each transfer key was applied ({@code CREDIT APPLIED}) over all logs. */
  public static Map<Long, Integer> appliedCounts(final List<List<Record>> logs) {
    return eventCounts(logs, CreditIntent.APPLIED);
  }

  /** How often each transfer key was acknowledged over all logs. */
  public static Map<Long, Integer> acknowledgedCounts(final List<List<Record>> logs) {
    return eventCounts(logs, CreditIntent.ACKNOWLEDGED);
  }

  /** How often each transfer key was refused ({@code CREDIT REFUSED}) over all logs. */
  public static Map<Long, Integer> refusedCounts(final List<List<Record>> logs) {
    return eventCounts(logs, CreditIntent.REFUSED);
  }

  /** How often each transfer key was refunded ({@code TRANSFER REFUNDED}) over all logs. */
  public static Map<Long, Integer> refundedCounts(final List<List<Record>> logs) {
    return eventCounts(logs, TransferIntent.REFUNDED);
  }

  /**
   * Conserved, and nothing pending: Σ balances = Σ deposits.
   *
   * @throws AssertionError naming the totals otherwise
   */
  public static Totals assertSettled(
      final List<LedgerState> states, final List<List<Record>> logs, final String context) {
    final Totals totals = assertConserved(states, logs, context);
    if (totals.pendingCount() != 0 || totals.balances() != totals.deposited()) {
      throw new AssertionError(
          "Expected no pending credit and Σ balances = Σ deposits, but "
              + totals.pendingCount()
              + " credits are pending and "
              + totals.balances()
              + " != "
              + totals.deposited()
              + " ("
              + context
              + ")");
    }
    return totals;
  }

  /**
   * @throws AssertionError if a transfer key was applied or refused more than once or both, or
   *     acknowledged or refunded more than once or both
   */
  public static void assertSettledAtMostOnce(final List<List<Record>> logs, final String context) {
    final Map<Long, Integer> applied = new HashMap<>();
    final Map<Long, Integer> refused = new HashMap<>();
    final Map<Long, Integer> acknowledged = new HashMap<>();
    final Map<Long, Integer> refunded = new HashMap<>();
    for (final List<Record> log : logs) {
      for (final Record record : log) {
        if (record.metadata().recordType() != RecordType.EVENT) {
          continue;
        }
        final Intent intent = record.metadata().intent();
        final Map<Long, Integer> counts =
            intent == CreditIntent.APPLIED
                ? applied
                : intent == CreditIntent.REFUSED
                    ? refused
                    : intent == CreditIntent.ACKNOWLEDGED
                        ? acknowledged
                        : intent == TransferIntent.REFUNDED ? refunded : null;
        if (counts != null) {
          counts.merge(record.metadata().key(), 1, Integer::sum);
        }
      }
    }
    atMostOnce(applied, refused, "applied", "refused", context);
    atMostOnce(acknowledged, refunded, "acknowledged", "refunded", context);
  }

  private static void atMostOnce(
      final Map<Long, Integer> first,
      final Map<Long, Integer> second,
      final String firstName,
      final String secondName,
      final String context) {
    final Map<Long, Integer> both = new TreeMap<>(first);
    second.forEach((key, count) -> both.merge(key, count, Integer::sum));
    both.forEach(
        (key, count) -> {
          if (count > 1) {
            throw new AssertionError(
                "Expected the credit of transfer key "
                    + key
                    + " to be "
                    + firstName
                    + " or "
                    + secondName
                    + " at most once, but it was "
                    + firstName
                    + " "
                    + first.getOrDefault(key, 0)
                    + " and "
                    + secondName
                    + " "
                    + second.getOrDefault(key, 0)
                    + " times ("
                    + context
                    + ")");
          }
        });
  }

  /**
   * The keys of every cross-partition {@code DEBITED} and the checkpoint id its credit must carry:
   * the id of the last {@code CHECKPOINT CREATED} before it in its partition's log.
   */
  public static Map<Long, Long> crossPartitionDebits(final List<List<Record>> logs) {
    final Map<Long, Long> debits = new TreeMap<>();
    for (final List<Record> log : logs) {
      long checkpointId = RecordMetadata.NO_CHECKPOINT_ID;
      for (final Record record : log) {
        if (record.metadata().recordType() != RecordType.EVENT) {
          continue;
        }
        if (record.metadata().intent() == CheckpointIntent.CREATED) {
          checkpointId = ((CheckpointValue) record.value()).checkpointId();
        } else if (record.metadata().intent() == TransferIntent.DEBITED) {
          final TransferValue transfer = (TransferValue) record.value();
          if (transfer.sourcePartitionId() != transfer.targetPartitionId()) {
            debits.put(record.metadata().key(), checkpointId);
          }
        }
      }
    }
    return debits;
  }

  /**
   * @throws AssertionError if any transfer key was applied more than once
   */
  public static void assertAppliedAtMostOnce(final List<List<Record>> logs, final String context) {
    appliedCounts(logs)
        .forEach(
            (key, count) -> {
              if (count > 1) {
                throw new AssertionError(
                    "Expected the credit of transfer key "
                        + key
                        + " to be applied at most once, but it was applied "
                        + count
                        + " times ("
                        + context
                        + ")");
              }
            });
  }

  private static Map<Long, Integer> eventCounts(
      final List<List<Record>> logs, final Intent intent) {
    final Map<Long, Integer> counts = new HashMap<>();
    for (final List<Record> log : logs) {
      for (final Record record : log) {
        if (record.metadata().recordType() == RecordType.EVENT
            && record.metadata().intent() == intent) {
          counts.merge(record.metadata().key(), 1, Integer::sum);
        }
      }
    }
    return counts;
  }
}
