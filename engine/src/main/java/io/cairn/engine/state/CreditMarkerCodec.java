package io.cairn.engine.state;

import io.cairn.db.DbCodec;
import io.cairn.db.DbCodecs;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The stored form of a {@link CreditMarker} in {@code LEDGER_APPLIED_CREDITS}. The length tells the
 * outcome, so the bytes of applied markers are those written before refused ones existed (and
 * states without refusals keep their digest).
 *
 * <pre>
 * applied (8 bytes) : amount ({@link DbCodecs#LONG}: big-endian, sign bit flipped)
 * refused (9 bytes) : tag (uint8) = 1 | amount ({@link DbCodecs#LONG})
 * </pre>
 */
public final class CreditMarkerCodec implements DbCodec<CreditMarker> {

  /** The codec instance. */
  public static final CreditMarkerCodec INSTANCE = new CreditMarkerCodec();

  static final int APPLIED_LENGTH = Long.BYTES;
  static final int REFUSED_LENGTH = 1 + Long.BYTES;
  static final int REFUSED_TAG = 1;

  private CreditMarkerCodec() {}

  @Override
  public int encode(CreditMarker value, MutableDirectBuffer buffer, int offset) {
    if (value.isApplied()) {
      return DbCodecs.LONG.encode(value.amount(), buffer, offset);
    }
    buffer.putByte(offset, (byte) REFUSED_TAG);
    return 1 + DbCodecs.LONG.encode(value.amount(), buffer, offset + 1);
  }

  @Override
  public CreditMarker decode(DirectBuffer buffer, int offset, int length) {
    if (length == APPLIED_LENGTH) {
      return new CreditMarker(
          CreditMarker.Outcome.APPLIED, DbCodecs.LONG.decode(buffer, offset, APPLIED_LENGTH));
    }
    if (length == REFUSED_LENGTH && (buffer.getByte(offset) & 0xFF) == REFUSED_TAG) {
      return new CreditMarker(
          CreditMarker.Outcome.REFUSED, DbCodecs.LONG.decode(buffer, offset + 1, Long.BYTES));
    }
    throw new IllegalArgumentException(
        "Expected a credit marker of "
            + APPLIED_LENGTH
            + " bytes (applied) or "
            + REFUSED_LENGTH
            + " bytes starting with "
            + REFUSED_TAG
            + " (refused), but got "
            + length
            + " bytes"
            + (length > 0 ? " starting with " + (buffer.getByte(offset) & 0xFF) : ""));
  }
}
