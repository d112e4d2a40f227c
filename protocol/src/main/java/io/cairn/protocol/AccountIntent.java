package io.cairn.protocol;

/**
 * Intents of {@link ValueType#ACCOUNT}. The codes are part of the binary format and never change.
 */
public enum AccountIntent implements Intent {
  /**
   * Command: open an account with a zero balance (rejected with {@code ALREADY_EXISTS} if it
   * exists).
   */
  CREATE(0, false),
  /** Event: the account exists. */
  CREATED(1, true);

  private final short code;
  private final boolean event;

  AccountIntent(int code, boolean event) {
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
    return ValueType.ACCOUNT;
  }
}
