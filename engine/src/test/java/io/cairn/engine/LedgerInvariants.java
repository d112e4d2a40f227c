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
  public static Totals totals(List<LedgerState> states, List<List<Record>> logs) {
    Set<Long> applied = new HashSet<>();
    long balances = 0;
    for (LedgerState state : states) {
      applied.addAll(state.appliedCredits().keySet());
      balances = Math.addExact(balances, state.totalBalance());
    }
    long pending = 0;
    long pendingCount = 0;
    for (LedgerState state : states) {
      for (PendingCredit credit : state.pendingCredits()) {
        pendingCount++;
        if (!applied.contains(credit.transferKey())) {
          pending = Math.addExact(pending, credit.amount());
        }
      }
    }
    long deposited = 0;
    for (List<Record> log : logs) {
      for (Record record : log) {
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
      List<LedgerState> states, List<List<Record>> logs, String context) {
    Totals totals = totals(states, logs);
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
  public static Map<Long, Integer> appliedCounts(List<List<Record>> logs) {
    return eventCounts(logs, CreditIntent.APPLIED);
  }

  /** How often each transfer key was acknowledged over all logs. */
  public static Map<Long, Integer> acknowledgedCounts(List<List<Record>> logs) {
    return eventCounts(logs, CreditIntent.ACKNOWLEDGED);
  }

  /** How often each transfer key was refused ({@code CREDIT REFUSED}) over all logs. */
  public static Map<Long, Integer> refusedCounts(List<List<Record>> logs) {
    return eventCounts(logs, CreditIntent.REFUSED);
  }

  /** How often each transfer key was refunded ({@code TRANSFER REFUNDED}) over all logs. */
  public static Map<Long, Integer> refundedCounts(List<List<Record>> logs) {
    return eventCounts(logs, TransferIntent.REFUNDED);
  }

  /**
   * Conserved, and nothing pending: Σ balances = Σ deposits.
   *
   * @throws AssertionError naming the totals otherwise
   */
  public static Totals assertSettled(
      List<LedgerState> states, List<List<Record>> logs, String context) {
    Totals totals = assertConserved(states, logs, context);
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
  public static void assertSettledAtMostOnce(List<List<Record>> logs, String context) {
    Map<Long, Integer> applied = new HashMap<>();
    Map<Long, Integer> refused = new HashMap<>();
    Map<Long, Integer> acknowledged = new HashMap<>();
    Map<Long, Integer> refunded = new HashMap<>();
    for (List<Record> log : logs) {
      for (Record record : log) {
        if (record.metadata().recordType() != RecordType.EVENT) {
          continue;
        }
        Intent intent = record.metadata().intent();
        Map<Long, Integer> counts =
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
      Map<Long, Integer> first,
      Map<Long, Integer> second,
      String firstName,
      String secondName,
      String context) {
    Map<Long, Integer> both = new TreeMap<>(first);
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
  public static Map<Long, Long> crossPartitionDebits(List<List<Record>> logs) {
    Map<Long, Long> debits = new TreeMap<>();
    for (List<Record> log : logs) {
      long checkpointId = RecordMetadata.NO_CHECKPOINT_ID;
      for (Record record : log) {
        if (record.metadata().recordType() != RecordType.EVENT) {
          continue;
        }
        if (record.metadata().intent() == CheckpointIntent.CREATED) {
          checkpointId = ((CheckpointValue) record.value()).checkpointId();
        } else if (record.metadata().intent() == TransferIntent.DEBITED) {
          TransferValue transfer = (TransferValue) record.value();
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
  public static void assertAppliedAtMostOnce(List<List<Record>> logs, String context) {
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

  private static Map<Long, Integer> eventCounts(List<List<Record>> logs, Intent intent) {
    Map<Long, Integer> counts = new HashMap<>();
    for (List<Record> log : logs) {
      for (Record record : log) {
        if (record.metadata().recordType() == RecordType.EVENT
            && record.metadata().intent() == intent) {
          counts.merge(record.metadata().key(), 1, Integer::sum);
        }
      }
    }
    return counts;
  }
}
