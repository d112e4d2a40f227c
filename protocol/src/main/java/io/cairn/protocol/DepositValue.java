package io.cairn.protocol;

import java.util.Objects;

/**
 * Money minted on an account.
 *
 * @param accountId 1 to {@link ValueDescriptor#ACCOUNT_ID_MAX_BYTES} bytes of UTF-8 (checked by the
 *     codec)
 * @param amount the amount in the smallest unit of money (the processor rejects non-positive ones)
 */
public record DepositValue(String accountId, long amount) implements RecordValue {
  public DepositValue {
    Objects.requireNonNull(accountId, "accountId");
  }

  @Override
  public ValueType valueType() {
    return ValueType.DEPOSIT;
  }
}
