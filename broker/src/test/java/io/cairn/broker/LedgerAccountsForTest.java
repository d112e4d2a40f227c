package io.cairn.broker;

import io.cairn.protocol.api.AccountPlacement;
import java.util.ArrayList;
import java.util.List;

/** Account ids placed on chosen partitions (found by trying names in order: deterministic). */
final class LedgerAccountsForTest {

  private LedgerAccountsForTest() {}

  /** {@code count} account ids with prefix {@code prefix} that live on {@code partitionId}. */
  static List<String> on(int partitionId, int partitionCount, String prefix, int count) {
    AccountPlacement placement = new AccountPlacement(partitionCount);
    List<String> ids = new ArrayList<>();
    for (int i = 0; ids.size() < count; i++) {
      String id = prefix + "-" + i;
      if (placement.partitionOf(id) == partitionId) {
        ids.add(id);
      }
    }
    return ids;
  }
}
