package io.cairn.protocol;

/**
 * Intents of {@link ValueType#TRANSFER}, processed on the source account's partition. The codes are
 * part of the binary format and never change.
 */
public enum TransferIntent implements Intent {
  /** Command: move an amount from one account to another. */
  CREATE(0, false),
  /** Event: the source was debited; for a cross-partition transfer a credit is now pending. */
  DEBITED(1, true),
  /** Event: a same-partition transfer credited the target in the same command. */
  COMPLETED(2, true);

  private final short code;
  private final boolean event;

  TransferIntent(final int code, final boolean event) {
    this.code = (short) code;
    this.event = event;
  }

  @Override
  public short code() {
    return code;
  }

  @Override
  public boolean isEvent() {
    return event;
  }

  @Override
  public ValueType valueType() {
    return ValueType.TRANSFER;
  }
}
