package io.cairn.protocol;

/**
 * Intents of {@link ValueType#TRANSFER}, processed on the source account's partition. The codes are
 * part of the binary format and never change; new intents get the next free code.
 */
public enum TransferIntent implements Intent {
  /** Command: move an amount from one account to another. */
  CREATE(0, false),
  /** Event: the source was debited; for a cross-partition transfer a credit is now pending. */
  DEBITED(1, true),
  /** Event: a same-partition transfer credited the target in the same command. */
  COMPLETED(2, true),
  /**
   * Event: the target partition refused the credit of a cross-partition transfer (its account does
   * not exist), and the source account was credited back; the transfer ended without moving money.
   * Written on the source partition with the transfer's key when it processes {@link
   * CreditIntent#REFUND}.
   */
  REFUNDED(3, true);

  private final short code;
  private final boolean event;

  TransferIntent(int code, boolean event) {
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
