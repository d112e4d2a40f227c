package io.cairn.engine;

import io.cairn.protocol.api.AccountPlacement;
import java.util.ArrayList;
import java.util.List;

/** Account ids placed on a chosen partition, found deterministically by trying numbered ids. */
public final class LedgerAccounts {

  private LedgerAccounts() {}

  /**
   * The first {@code count} ids {@code prefix-0, prefix-1, ...} that belong to {@code partitionId}.
   */
  public static List<String> on(
      AccountPlacement placement, int partitionId, String prefix, int count) {
    List<String> ids = new ArrayList<>(count);
    for (int i = 0; ids.size() < count; i++) {
      if (i > 1_000_000) {
        throw new IllegalStateException(
            "Expected ids on partition " + partitionId + ", found none");
      }
      String id = prefix + "-" + i;
      if (placement.partitionOf(id) == partitionId) {
        ids.add(id);
      }
    }
    return ids;
  }

  /** The first id {@code prefix-n} that belongs to {@code partitionId}. */
  public static String on(AccountPlacement placement, int partitionId, String prefix) {
    return on(placement, partitionId, prefix, 1).get(0);
  }
}
