package io.cairn.protocol;

/**
 * Intents of {@link ValueType#DEPOSIT}: money minted on the account's partition. The codes are part
 * of the binary format and never change.
 */
public enum DepositIntent implements Intent {
  /** Command: add an amount to an account's balance. */
  DEPOSIT(0, false),
  /** Event: the amount was added. */
  DEPOSITED(1, true);

  private final short code;
  private final boolean event;

  DepositIntent(int code, boolean event) {
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
    return ValueType.DEPOSIT;
  }
}
