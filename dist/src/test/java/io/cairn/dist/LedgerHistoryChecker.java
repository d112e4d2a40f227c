package io.cairn.dist;

import io.cairn.dist.LedgerHistory.Kind;
import io.cairn.dist.LedgerHistory.Operation;
import io.cairn.dist.LedgerHistory.Outcome;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides whether the final balances of a ledger can be what a recorded history of deposits and
 * transfers left behind, every account starting empty:
 *
 * <ul>
 *   <li>every acknowledged operation took effect exactly once (none lost, none applied twice);
 *   <li>no refused operation took effect;
 *   <li>each operation with an unknown outcome took effect once or not at all, and a transfer on
 *       both its accounts or on neither (money moves, it is not made or lost);
 *   <li>no balance is negative, and the money in all accounts is what the deposits that took effect
 *       brought in.
 * </ul>
 *
 * <p>It looks for one choice of the unknown operations (each applied or not) that explains every
 * balance exactly. Per account it lists the subsets of its unknown operations whose effects add up
 * to what the known ones leave unexplained; then it searches for one subset per account that agrees
 * on every transfer shared by two accounts. Amounts drawn from a wide range make a wrong balance
 * almost never explainable by chance. An account with more than {@link #MAX_UNKNOWN_PER_ACCOUNT}
 * unknown operations is checked against the bounds they allow instead (reported in the verdict).
 */
final class LedgerHistoryChecker {

  /** More unknown operations on one account than this are checked by bounds only. */
  static final int MAX_UNKNOWN_PER_ACCOUNT = 20;

  private static final int MAX_CANDIDATES_PER_ACCOUNT = 4_096;
  private static final long MAX_SEARCH_STEPS = 1_000_000;

  /**
   * The checker's decision.
   *
   * @param problems what the balances contradict, each with the operations involved; empty when the
   *     history explains the balances
   * @param unknown the operations whose outcome was unknown
   * @param unknownApplied how many of them the explanation found took effect (-1 when none found)
   * @param boundsOnly the accounts checked by bounds only
   */
  record Verdict(List<String> problems, int unknown, int unknownApplied, List<String> boundsOnly) {
    boolean valid() {
      return problems.isEmpty();
    }
  }

  private LedgerHistoryChecker() {}

  static Verdict check(List<Operation> operations, Map<String, Long> balances) {
    List<String> problems = new ArrayList<>();
    Set<String> accounts = new TreeSet<>(balances.keySet());
    for (Operation operation : operations) {
      for (String account : new String[] {operation.from(), operation.to()}) {
        if (account != null && !balances.containsKey(account)) {
          problems.add("No final balance of " + account + ", which " + operation + " touches");
        }
      }
    }
    balances.forEach(
        (account, balance) -> {
          if (balance < 0) {
            problems.add("Balance of " + account + " is negative: " + balance);
          }
        });
    checkConservation(operations, balances, problems);

    List<Operation> unknown =
        operations.stream().filter(operation -> operation.outcome() == Outcome.INFO).toList();
    List<AccountCandidates> constrained = new ArrayList<>();
    List<String> boundsOnly = new ArrayList<>();
    for (String account : accounts) {
      List<Operation> unknownHere =
          unknown.stream().filter(operation -> operation.touches(account)).toList();
      long known = knownEffect(operations, account);
      long unexplained = balances.get(account) - known;
      if (unknownHere.size() > MAX_UNKNOWN_PER_ACCOUNT) {
        boundsOnly.add(account);
        checkBounds(account, unknownHere, unexplained, problems);
        continue;
      }
      long[] sums = subsetSums(account, unknownHere);
      List<Long> subsets = matching(sums, unexplained);
      if (subsets.isEmpty()) {
        problems.add(
            unexplainable(account, operations, unknownHere, sums, known, balances.get(account)));
      } else {
        constrained.add(new AccountCandidates(account, unknownHere, subsets));
      }
    }
    int applied = -1;
    if (problems.isEmpty()) {
      Map<Integer, Boolean> choice = new HashMap<>();
      Search search = new Search();
      constrained.sort(Comparator.comparingInt(candidates -> candidates.subsets().size()));
      if (search.solve(constrained, 0, choice)) {
        applied = (int) choice.values().stream().filter(Boolean::booleanValue).count();
      } else if (search.steps > MAX_SEARCH_STEPS) {
        problems.add(
            "Undecided: no explanation found within "
                + MAX_SEARCH_STEPS
                + " steps over the unknown operations "
                + unknown);
      } else {
        problems.add(
            "Each balance alone is explained, but not all together: no choice of the unknown"
                + " operations applies every transfer on both its accounts or on neither. Unknown: "
                + unknown);
      }
    }
    return new Verdict(List.copyOf(problems), unknown.size(), applied, List.copyOf(boundsOnly));
  }

  /** What the acknowledged operations add to {@code account}. */
  private static long knownEffect(List<Operation> operations, String account) {
    return operations.stream()
        .filter(operation -> operation.outcome() == Outcome.OK)
        .mapToLong(operation -> operation.effectOn(account))
        .sum();
  }

  private static void checkConservation(
      List<Operation> operations, Map<String, Long> balances, List<String> problems) {
    long total = balances.values().stream().mapToLong(Long::longValue).sum();
    long acknowledged = depositTotal(operations, Outcome.OK);
    long uncertain = depositTotal(operations, Outcome.INFO);
    if (total < acknowledged || total > acknowledged + uncertain) {
      problems.add(
          "Money not conserved: the accounts hold "
              + total
              + ", the acknowledged deposits "
              + acknowledged
              + " and those with unknown outcome at most "
              + uncertain
              + " more");
    }
  }

  private static long depositTotal(List<Operation> operations, Outcome outcome) {
    return operations.stream()
        .filter(operation -> operation.kind() == Kind.DEPOSIT && operation.outcome() == outcome)
        .mapToLong(Operation::amount)
        .sum();
  }

  private static void checkBounds(
      String account, List<Operation> unknownHere, long unexplained, List<String> problems) {
    long low = 0;
    long high = 0;
    for (Operation operation : unknownHere) {
      long effect = operation.effectOn(account);
      if (effect < 0) {
        low += effect;
      } else {
        high += effect;
      }
    }
    if (unexplained < low || unexplained > high) {
      problems.add(
          account
              + ": the acknowledged operations leave "
              + unexplained
              + " unexplained, outside ["
              + low
              + ", "
              + high
              + "] that its "
              + unknownHere.size()
              + " unknown operations allow");
    }
  }

  /** What each subset of the unknown operations adds (index bit i: unknownHere.get(i) applied). */
  private static long[] subsetSums(String account, List<Operation> unknownHere) {
    long[] sums = new long[1 << unknownHere.size()];
    for (int mask = 1; mask < sums.length; mask++) {
      int lowest = Integer.numberOfTrailingZeros(mask);
      sums[mask] = sums[mask & (mask - 1)] + unknownHere.get(lowest).effectOn(account);
    }
    return sums;
  }

  /** The subsets whose effects add up to {@code unexplained}. */
  private static List<Long> matching(long[] sums, long unexplained) {
    List<Long> matching = new ArrayList<>();
    for (int mask = 0; mask < sums.length && matching.size() < MAX_CANDIDATES_PER_ACCOUNT; mask++) {
      if (sums[mask] == unexplained) {
        matching.add((long) mask);
      }
    }
    return matching;
  }

  /** Why no subset explains the account, with the single operation that would, if there is one. */
  private static String unexplainable(
      String account,
      List<Operation> operations,
      List<Operation> unknownHere,
      long[] sums,
      long known,
      long balance) {
    long unexplained = balance - known;
    Set<Long> reachable = new LinkedHashSet<>();
    for (long sum : sums) {
      reachable.add(sum);
    }
    List<String> explanations = new ArrayList<>();
    for (Operation operation : operations) {
      long effect = operation.effectOn(account);
      if (effect == 0 || operation.outcome() == Outcome.INFO) {
        continue;
      }
      for (long sum : reachable) {
        long rest = unexplained - sum;
        if (operation.outcome() == Outcome.OK && rest == -effect) {
          explanations.add(operation + " was acknowledged but is missing");
        } else if (operation.outcome() == Outcome.OK && rest == effect) {
          explanations.add(operation + " was applied twice");
        } else if (operation.outcome() == Outcome.FAIL && rest == effect) {
          explanations.add(operation + " was refused but applied");
        }
      }
    }
    return account
        + ": final balance "
        + balance
        + ", the acknowledged operations give "
        + known
        + ", and its "
        + unknownHere.size()
        + " operations with unknown outcome "
        + unknownHere
        + " cannot add the "
        + unexplained
        + " missing"
        + (explanations.isEmpty()
            ? " (no single operation explains it)"
            : "; it would fit if " + String.join(", or ", explanations));
  }

  /** The subsets of one account's unknown operations that explain its balance. */
  private record AccountCandidates(String account, List<Operation> unknown, List<Long> subsets) {}

  /** A depth-first search for one subset per account that agrees on shared operations. */
  private static final class Search {
    private long steps;

    boolean solve(List<AccountCandidates> accounts, int next, Map<Integer, Boolean> choice) {
      if (next == accounts.size()) {
        return true;
      }
      AccountCandidates candidates = accounts.get(next);
      for (long subset : candidates.subsets()) {
        if (++steps > MAX_SEARCH_STEPS) {
          return false;
        }
        List<Integer> assigned = new ArrayList<>();
        boolean agrees = true;
        for (int i = 0; i < candidates.unknown().size() && agrees; i++) {
          int id = candidates.unknown().get(i).id();
          boolean applied = (subset & 1L << i) != 0;
          Boolean earlier = choice.get(id);
          if (earlier == null) {
            choice.put(id, applied);
            assigned.add(id);
          } else {
            agrees = earlier == applied;
          }
        }
        if (agrees && solve(accounts, next + 1, choice)) {
          return true;
        }
        assigned.forEach(choice::remove);
      }
      return false;
    }
  }
}
