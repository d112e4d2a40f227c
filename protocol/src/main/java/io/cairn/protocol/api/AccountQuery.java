package io.cairn.protocol.api;

import io.cairn.protocol.ValueDescriptor;
import java.util.Objects;

/**
 * Asks a partition's leader for an account's balance ({@link ApiDescriptor#TYPE_QUERY_ACCOUNT}).
 *
 * @param partitionId in [1, {@link ApiDescriptor#PARTITION_ID_MAX}]
 * @param accountId 1 to {@link ValueDescriptor#ACCOUNT_ID_MAX_BYTES} bytes of UTF-8 (checked by the
 *     codec)
 */
public record AccountQuery(int partitionId, String accountId) {
  public AccountQuery {
    Objects.requireNonNull(accountId, "accountId");
    if (partitionId < 1 || partitionId > ApiDescriptor.PARTITION_ID_MAX) {
      throw new IllegalArgumentException(
          "Expected partitionId in [1, "
              + ApiDescriptor.PARTITION_ID_MAX
              + "], but was "
              + partitionId
              + " (account query)");
    }
  }
}
