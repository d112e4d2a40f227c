package io.cairn.dist;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.dist.LedgerHistory.Draw;
import io.cairn.dist.LedgerHistory.Kind;
import io.cairn.dist.LedgerHistory.Operation;
import io.cairn.dist.LedgerHistory.Outcome;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The history checker on histories whose truth is known: a ledger model applies seeded operations
 * (refused ones not, unknown ones at random) and the checker must accept the balances it ends with;
 * then one fault of each kind the checker exists to catch is put into the balances, and it must
 * refuse them. Each run names its seed; {@code -Dcairn.seed=N} repeats one.
 */
final class LedgerHistoryCheckerTest {
  private static final int SEEDS = 200;
  private static final List<String> ACCOUNTS = List.of("a", "b", "c", "d", "e");

  @Test
  void shouldAcceptWhatTheHistoryLeftBehind() {
    for (long seed : seeds()) {
      Run run = Run.generate(seed);
      LedgerHistoryChecker.Verdict verdict =
          LedgerHistoryChecker.check(run.operations, run.balances);
      assertThat(verdict.problems()).as("seed %d: %s", seed, run).isEmpty();
      assertThat(verdict.unknownApplied()).as("seed %d", seed).isBetween(0, verdict.unknown());
    }
  }

  @Test
  void shouldFindAnAcknowledgedOperationLost() {
    assertEveryRunCaught(
        operation -> operation.outcome() == Outcome.OK,
        (run, operation) -> run.apply(operation, -1));
  }

  @Test
  void shouldFindAnAcknowledgedOperationAppliedTwice() {
    assertEveryRunCaught(
        operation -> operation.outcome() == Outcome.OK,
        (run, operation) -> run.apply(operation, 1));
  }

  @Test
  void shouldFindARefusedOperationThatTookEffect() {
    assertEveryRunCaught(
        operation -> operation.outcome() == Outcome.FAIL,
        (run, operation) -> run.apply(operation, 1));
  }

  @Test
  void shouldFindATransferAppliedOnOneSideOnly() {
    // an unknown transfer whose credit arrived but whose debit did not: money was made
    assertEveryRunCaught(
        operation -> operation.outcome() == Outcome.INFO && operation.kind() == Kind.TRANSFER,
        (run, operation) -> {
          long sign = run.applied.contains(operation.id()) ? -1 : 1;
          run.balances.merge(operation.to(), sign * operation.amount(), Long::sum);
        });
  }

  @Test
  void shouldNameTheSingleOperationThatExplainsAWrongBalance() {
    List<Operation> operations =
        List.of(
            new Operation(0, 0, Kind.DEPOSIT, null, "a", 1_000, Outcome.OK),
            new Operation(1, 0, Kind.TRANSFER, "a", "b", 300, Outcome.OK),
            new Operation(2, 1, Kind.DEPOSIT, null, "b", 77, Outcome.INFO));
    // the transfer's credit is lost: b holds only the unknown deposit
    LedgerHistoryChecker.Verdict verdict =
        LedgerHistoryChecker.check(operations, Map.of("a", 700L, "b", 77L));
    assertThat(verdict.valid()).isFalse();
    assertThat(verdict.problems())
        .anySatisfy(
            problem ->
                assertThat(problem)
                    .startsWith("b: final balance 77, the acknowledged operations give 300")
                    .contains(
                        "#1 (client-0) transfer 300 a -> b: OK was acknowledged but is missing"));
    assertThat(verdict.problems()).anySatisfy(problem -> assertThat(problem).startsWith("Money"));
  }

  @Test
  void shouldRefuseANegativeBalanceAndAnAccountWithoutOne() {
    List<Operation> operations =
        List.of(new Operation(0, 0, Kind.TRANSFER, "a", "b", 5, Outcome.INFO));
    assertThat(LedgerHistoryChecker.check(operations, Map.of("a", -5L, "b", 5L)).problems())
        .contains("Balance of a is negative: -5");
    assertThat(LedgerHistoryChecker.check(operations, Map.of("a", 0L)).problems())
        .anySatisfy(problem -> assertThat(problem).startsWith("No final balance of b"));
  }

  private interface Fault {
    void inject(Run run, Operation operation);
  }

  private static void assertEveryRunCaught(Predicate<Operation> eligible, Fault fault) {
    int caught = 0;
    for (long seed : seeds()) {
      Run run = Run.generate(seed);
      List<Operation> candidates = run.operations.stream().filter(eligible).toList();
      if (candidates.isEmpty()) {
        continue;
      }
      Operation victim = candidates.get(new SplittableRandom(seed).nextInt(candidates.size()));
      fault.inject(run, victim);
      LedgerHistoryChecker.Verdict verdict =
          LedgerHistoryChecker.check(run.operations, run.balances);
      assertThat(verdict.valid()).as("seed %d, fault on %s: %s", seed, victim, run).isFalse();
      caught++;
    }
    assertThat(caught).as("runs with an operation to break").isGreaterThan(SEEDS / 2);
  }

  private static long[] seeds() {
    String fixed = System.getProperty("cairn.seed");
    if (fixed != null) {
      return new long[] {Long.parseLong(fixed)};
    }
    long[] seeds = new long[SEEDS];
    for (int i = 0; i < SEEDS; i++) {
      seeds[i] = 1_000 + i;
    }
    return seeds;
  }

  /** A generated history and the balances a correct ledger ends with. */
  private static final class Run {
    final List<Operation> operations = new ArrayList<>();
    final Map<String, Long> balances = new TreeMap<>();
    final Set<Integer> applied = new HashSet<>();

    static Run generate(long seed) {
      SplittableRandom random = new SplittableRandom(seed);
      Run run = new Run();
      ACCOUNTS.forEach(account -> run.balances.put(account, 0L));
      int count = 20 + random.nextInt(200);
      for (int id = 0; id < count; id++) {
        Draw draw = Draw.next(random, ACCOUNTS, id < ACCOUNTS.size() || random.nextInt(5) == 0);
        String from = draw.from();
        long amount = draw.amount();
        Outcome outcome;
        boolean takesEffect;
        int dice = random.nextInt(20);
        if (from != null && run.balances.get(from) < amount) {
          outcome = dice == 0 ? Outcome.INFO : Outcome.FAIL; // insufficient funds
          takesEffect = false;
        } else if (dice < 2) {
          outcome = Outcome.INFO;
          takesEffect = random.nextBoolean();
        } else if (dice < 3) {
          outcome = Outcome.FAIL; // refused before it was written: backpressure
          takesEffect = false;
        } else {
          outcome = Outcome.OK;
          takesEffect = true;
        }
        Operation operation =
            new Operation(id, random.nextInt(3), draw.kind(), from, draw.to(), amount, outcome);
        run.operations.add(operation);
        if (takesEffect) {
          run.apply(operation, 1);
          run.applied.add(id);
        }
      }
      return run;
    }

    void apply(Operation operation, long times) {
      for (String account : ACCOUNTS) {
        long effect = operation.effectOn(account);
        if (effect != 0) {
          balances.merge(account, times * effect, Long::sum);
        }
      }
    }

    @Override
    public String toString() {
      return operations.size() + " operations, balances " + balances;
    }
  }
}
