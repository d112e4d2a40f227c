package io.cairn.protocol;

/**
 * Intents of {@link ValueType#CREDIT}: the cross-partition half of a transfer. The codes are part
 * of the binary format and never change.
 */
public enum CreditIntent implements Intent {
  /**
   * Command (inter-partition, to the target partition): credit the target account once per transfer
   * key.
   */
  APPLY(0, false),
  /** Event: the target account was credited. */
  APPLIED(1, true),
  /** Event: a duplicate {@code APPLY} for a transfer key that was applied already. */
  IGNORED(2, true),
  /** Command (inter-partition, back to the source partition): the credit was applied. */
  ACK(3, false),
  /** Event: the source removed the pending credit. */
  ACKNOWLEDGED(4, true);

  private final short code;
  private final boolean event;

  CreditIntent(final int code, final boolean event) {
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
    return ValueType.CREDIT;
  }
}
