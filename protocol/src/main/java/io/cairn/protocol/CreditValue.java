package io.cairn.protocol;

import java.util.Objects;

/**
 * The cross-partition credit of a transfer: applied once per {@code transferKey} on the target
 * partition, then acknowledged to the source partition.
 *
 * @param transferKey the key of the {@code TRANSFER} record on the source partition; the target
 *     applies a credit once per transfer key
 * @param toAccountId the target account; 1 to {@link ValueDescriptor#ACCOUNT_ID_MAX_BYTES} bytes of
 *     UTF-8 (checked by the codec)
 * @param amount the amount in the smallest unit of money
 * @param sourcePartitionId the partition that debited the source account
 * @param targetPartitionId the partition of the target account
 */
public record CreditValue(
    long transferKey, String toAccountId, long amount, int sourcePartitionId, int targetPartitionId)
    implements RecordValue {
  public CreditValue {
    Objects.requireNonNull(toAccountId, "toAccountId");
  }

  @Override
  public ValueType valueType() {
    return ValueType.CREDIT;
  }
}
