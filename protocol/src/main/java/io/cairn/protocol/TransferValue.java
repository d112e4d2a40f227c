package io.cairn.protocol;

import java.util.Objects;

/**
 * A transfer of money between two accounts. The transfer key is the record's {@link
 * RecordMetadata#key()}, assigned by the source partition when it processes {@code CREATE}.
 *
 * @param fromAccountId the source account; 1 to {@link ValueDescriptor#ACCOUNT_ID_MAX_BYTES} bytes
 *     of UTF-8 (checked by the codec)
 * @param toAccountId the target account; same bounds
 * @param amount the amount in the smallest unit of money (the processor rejects non-positive ones)
 * @param sourcePartitionId the partition of the source account, or {@link
 *     ValueDescriptor#NO_PARTITION_ID} before the processor set it
 * @param targetPartitionId the partition of the target account, or {@link
 *     ValueDescriptor#NO_PARTITION_ID} before the processor set it
 */
public record TransferValue(
    String fromAccountId,
    String toAccountId,
    long amount,
    int sourcePartitionId,
    int targetPartitionId)
    implements RecordValue {
  public TransferValue {
    Objects.requireNonNull(fromAccountId, "fromAccountId");
    Objects.requireNonNull(toAccountId, "toAccountId");
  }

  @Override
  public ValueType valueType() {
    return ValueType.TRANSFER;
  }
}
