package io.cairn.benchmarks.hotpath;

import io.cairn.client.CairnClient;
import io.cairn.protocol.api.AccountPlacement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The Cairn workloads through the gateway: deposits of 1 into every account in turn (so every
 * partition), and transfers of 1 from every account in turn to an account on another partition.
 * Accounts are placed as the gateway and the engine place them ({@link AccountPlacement}: CRC-32C
 * of the id mod P + 1, DESIGN.md §6).
 */
final class CairnWorkloads {

  private final CairnClient client;
  private final List<String> accounts;
  private final String[] partners;
  private final int[] partitionCounts;

  /**
   * @param accounts funded accounts, enough for every transfer of the run
   * @throws IllegalArgumentException if the accounts sit on fewer than two partitions
   */
  CairnWorkloads(CairnClient client, List<String> accounts, int partitionCount) {
    this.client = client;
    this.accounts = List.copyOf(accounts);
    AccountPlacement placement = new AccountPlacement(partitionCount);
    List<List<Integer>> byPartition = new ArrayList<>();
    for (int p = 0; p <= partitionCount; p++) {
      byPartition.add(new ArrayList<>());
    }
    int[] partitionOf = new int[accounts.size()];
    for (int i = 0; i < accounts.size(); i++) {
      partitionOf[i] = placement.partitionOf(accounts.get(i));
      byPartition.get(partitionOf[i]).add(i);
    }
    partitionCounts = new int[partitionCount + 1];
    int used = 0;
    for (int p = 1; p <= partitionCount; p++) {
      partitionCounts[p] = byPartition.get(p).size();
      used += partitionCounts[p] > 0 ? 1 : 0;
    }
    if (used < 2) {
      throw new IllegalArgumentException(
          "Expected accounts on at least 2 partitions for cross-partition transfers, but all "
              + accounts.size()
              + " are on one; use more --accounts");
    }
    // account i sends to the next account (in its partition's turn) of the next partition that
    // has accounts: every transfer crosses partitions, targets spread evenly
    partners = new String[accounts.size()];
    int[] nextIndex = new int[partitionCount + 1];
    for (int i = 0; i < accounts.size(); i++) {
      int target = partitionOf[i];
      do {
        target = target % partitionCount + 1;
      } while (byPartition.get(target).isEmpty());
      List<Integer> candidates = byPartition.get(target);
      partners[i] = accounts.get(candidates.get(nextIndex[target]++ % candidates.size()));
    }
  }

  /** Accounts per partition, index = partition id (index 0 unused). */
  int[] partitionCounts() {
    return partitionCounts.clone();
  }

  Workload deposits() {
    return new Workload() {
      @Override
      public String side() {
        return "cairn";
      }

      @Override
      public String name() {
        return "deposit";
      }

      @Override
      public CompletableFuture<?> send(long sequence) {
        return client.depositAsync(accounts.get((int) (sequence % accounts.size())), 1);
      }
    };
  }

  Workload crossPartitionTransfers() {
    return new Workload() {
      @Override
      public String side() {
        return "cairn";
      }

      @Override
      public String name() {
        return "transfer";
      }

      @Override
      public CompletableFuture<?> send(long sequence) {
        int from = (int) (sequence % accounts.size());
        return client.transferAsync(accounts.get(from), partners[from], 1);
      }
    };
  }
}
