package io.cairn.qa.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.client.CairnClient;
import io.cairn.qa.EmbeddedCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the ledger must hold after a load: money is conserved (once every credit arrived, the
 * balances add up to the deposits) and no acknowledged transfer is lost (each balance lies between
 * the bounds its acknowledged and uncertain transfers allow).
 */
public final class LedgerOracle {

  private final Map<String, Long> funded;

  private LedgerOracle(Map<String, Long> funded) {
    this.funded = Map.copyOf(funded);
  }

  /**
   * {@code perPartition} accounts on every partition, named {@code <prefix>-<n>}, in partition
   * order then name order.
   */
  public static List<String> accounts(EmbeddedCluster cluster, String prefix, int perPartition) {
    Map<Integer, List<String>> byPartition = new TreeMap<>();
    int partitions = cluster.config().partitions();
    for (int n = 0;
        byPartition.values().stream().mapToInt(List::size).sum() < partitions * perPartition;
        n++) {
      String id = prefix + "-" + n;
      List<String> ids =
          byPartition.computeIfAbsent(cluster.partitionOf(id), p -> new ArrayList<>());
      if (ids.size() < perPartition) {
        ids.add(id);
      }
    }
    List<String> all = new ArrayList<>();
    byPartition.values().forEach(all::addAll);
    return all;
  }

  /** Creates {@code accounts} and deposits {@code amount} into each; every call must succeed. */
  public static LedgerOracle fund(CairnClient client, List<String> accounts, long amount) {
    Map<String, Long> funded = new LinkedHashMap<>();
    for (String account : accounts) {
      client.createAccount(account);
      client.deposit(account, amount);
      funded.put(account, amount);
    }
    return new LedgerOracle(funded);
  }

  /**
   * An oracle whose starting balances are {@code settled}: the balances read once a load ended and
   * its pending credits were applied, for the next load's bounds.
   */
  public static LedgerOracle settledAt(Map<String, Long> settled) {
    return new LedgerOracle(new LinkedHashMap<>(settled));
  }

  /** This oracle after {@code amount} more was deposited into {@code account}. */
  public LedgerOracle plus(String account, long amount) {
    Map<String, Long> funded = new LinkedHashMap<>(this.funded);
    funded.merge(account, amount, Long::sum);
    return new LedgerOracle(funded);
  }

  /** The money deposited. */
  public long total() {
    return funded.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Every account's balance, read from its partition leader. */
  public Map<String, Long> balances(CairnClient client) {
    Map<String, Long> balances = new TreeMap<>();
    for (String account : funded.keySet()) {
      balances.put(account, client.getAccount(account).balance());
    }
    return balances;
  }

  /**
   * Waits until the balances add up to the deposits (every pending credit applied), then checks
   * every balance against the transfers' outcomes.
   */
  public void awaitConserved(CairnClient client, TransferLoad load, Duration timeout) {
    Map<String, Long> last = new TreeMap<>();
    await("the balances to add up to the deposits, " + total() + " (" + load + ")")
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              last.clear();
              last.putAll(balances(client));
              assertThat(last.values().stream().mapToLong(Long::longValue).sum())
                  .as("sum of balances %s (%s)", last, load)
                  .isEqualTo(total());
            });
    Map<String, long[]> bounds = new TreeMap<>();
    funded.forEach((account, amount) -> bounds.put(account, new long[] {amount, amount}));
    for (TransferLoad.Outcome outcome : load.outcomes()) {
      long[] from = bounds.get(outcome.from());
      long[] to = bounds.get(outcome.to());
      switch (outcome.kind()) {
        case ACKNOWLEDGED -> {
          from[0] -= outcome.amount();
          from[1] -= outcome.amount();
          to[0] += outcome.amount();
          to[1] += outcome.amount();
        }
        case UNCERTAIN -> {
          from[0] -= outcome.amount();
          to[1] += outcome.amount();
        }
        case REJECTED -> {
          // nothing was written
        }
      }
    }
    last.forEach(
        (account, balance) ->
            assertThat(balance)
                .as(
                    "balance of %s between what its acknowledged and uncertain transfers allow"
                        + " (%s)",
                    account, load)
                .isBetween(bounds.get(account)[0], bounds.get(account)[1])
                .isNotNegative());
  }

  /** Waits up to {@code timeout} until {@code accounts} hold exactly {@code expected}. */
  public static void awaitBalances(
      CairnClient client, Map<String, Long> expected, String what, java.time.Duration timeout) {
    org.awaitility.Awaitility.await("the balances of " + what)
        .atMost(timeout)
        .pollInterval(java.time.Duration.ofMillis(200))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              Map<String, Long> balances = new java.util.TreeMap<>();
              for (String account : expected.keySet()) {
                balances.put(account, client.getAccount(account).balance());
              }
              org.assertj.core.api.Assertions.assertThat(balances)
                  .as("balances restored to %s", what)
                  .isEqualTo(new java.util.TreeMap<>(expected));
            });
  }

  /**
   * Waits up to {@code timeout} until the balances of {@code accounts} add up to {@code total}: a
   * restored cluster re-sends the credits pending at its cut before they do.
   */
  public static void awaitTotal(
      CairnClient client, List<String> accounts, long total, String what, Duration timeout) {
    await(what + " to add up to " + total)
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              long sum = 0;
              for (String account : accounts) {
                long balance = client.getAccount(account).balance();
                assertThat(balance).as("balance of %s in %s", account, what).isNotNegative();
                sum += balance;
              }
              assertThat(sum)
                  .as("sum of the %d balances of %s", accounts.size(), what)
                  .isEqualTo(total);
            });
  }
}
