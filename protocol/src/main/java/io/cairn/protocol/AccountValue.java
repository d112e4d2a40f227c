package io.cairn.protocol;

import java.util.Objects;

/**
 * An account of the ledger.
 *
 * @param accountId 1 to {@link ValueDescriptor#ACCOUNT_ID_MAX_BYTES} bytes of UTF-8 (checked by the
 *     codec)
 * @param balance the balance in the smallest unit of money; 0 in {@code CREATE}
 */
public record AccountValue(String accountId, long balance) implements RecordValue {
  public AccountValue {
    Objects.requireNonNull(accountId, "accountId");
  }

  @Override
  public ValueType valueType() {
    return ValueType.ACCOUNT;
  }
}
