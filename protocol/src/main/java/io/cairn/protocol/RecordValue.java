package io.cairn.protocol;

/**
 * The value a record carries; one implementation per {@link ValueType}. Values are immutable. The
 * codecs check the encoded bounds of every field (see {@link ValueDescriptor}); business rules
 * (positive amounts, existing accounts) are the processors' job and end in rejections.
 */
public sealed interface RecordValue
    permits AccountValue, DepositValue, TransferValue, CreditValue, CheckpointValue {

  /** The value type of this value. */
  ValueType valueType();
}
