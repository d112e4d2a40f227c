package io.cairn.protocol;

/**
 * Intents of {@link ValueType#CREDIT}: the cross-partition half of a transfer. The codes are part
 * of the binary format and never change; new intents get the next free code.
 *
 * <pre>
 *  source S                                   target T
 *  pending credit ── APPLY ──────────────────▶ APPLIED (account exists) | REFUSED (no such account)
 *                                              IGNORED (a duplicate of either)
 *  ACKNOWLEDGED ◀──── ACK ───── answers APPLIED or a duplicate of it
 *  TRANSFER REFUNDED ◀── REFUND ── answers REFUSED or a duplicate of it
 * </pre>
 *
 * Every command of this value type is sent only between partitions, never by clients.
 */
public enum CreditIntent implements Intent {
  /**
   * Command (inter-partition, to the target partition): credit the target account once per transfer
   * key.
   */
  APPLY(0, false),
  /** Event: the target account was credited. */
  APPLIED(1, true),
  /**
   * Event: a duplicate {@code APPLY} for a transfer key that was applied or refused already; it is
   * answered like the first one ({@code ACK} or {@code REFUND}).
   */
  IGNORED(2, true),
  /** Command (inter-partition, back to the source partition): the credit was applied. */
  ACK(3, false),
  /** Event: the source removed the pending credit. */
  ACKNOWLEDGED(4, true),
  /**
   * Event (on the target partition): the credit cannot be applied because the target account does
   * not exist; the transfer key is marked refused, so the credit is never applied later, and the
   * source is sent {@link #REFUND}.
   */
  REFUSED(5, true),
  /**
   * Command (inter-partition, back to the source partition): the target refused the credit; the
   * source credits the source account back and ends the pending credit ({@link
   * TransferIntent#REFUNDED}).
   */
  REFUND(6, false);

  private final short code;
  private final boolean event;

  CreditIntent(int code, boolean event) {
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
