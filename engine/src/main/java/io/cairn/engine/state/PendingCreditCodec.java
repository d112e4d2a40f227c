package io.cairn.engine.state;

import io.cairn.db.DbCodec;
import io.cairn.engine.PendingCredit;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The stored form of a {@link PendingCredit}, big-endian. The bytes are covered by the state
 * digest, so the layout of a version never changes. Writes version {@value #VERSION}; reads
 * versions 1 and 2.
 *
 * <pre>
 *  0  +------------------------------+
 *     | version (uint8) = 2          |      version 1: the same up to offset 33, then
 *  1  +------------------------------+      33: to account id (UTF-8, the rest of the value);
 *     | transfer key (int64)         |      it has no from account id, so such a credit
 *  9  +------------------------------+      decodes with an empty one and cannot be refunded
 *     | amount (int64)               |
 * 17  +------------------------------+
 *     | checkpoint id (int64)        |
 * 25  +------------------------------+
 *     | source partition (int32)     |
 * 29  +------------------------------+
 *     | target partition (int32)     |
 * 33  +------------------------------+
 *     | to account id length (int32) |      n, 1 to 128
 * 37  +------------------------------+
 *     | to account id (UTF-8, n)     |
 * 37+n+------------------------------+
 *     | from account id (UTF-8)     ...     (the rest of the value)
 *     +------------------------------+
 * </pre>
 */
public final class PendingCreditCodec implements DbCodec<PendingCredit> {

  /** The codec instance. */
  public static final PendingCreditCodec INSTANCE = new PendingCreditCodec();

  /** The version written. */
  static final int VERSION = 2;

  /** The first version: no from account id. */
  static final int VERSION_1 = 1;

  private static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;
  private static final int TRANSFER_KEY_OFFSET = 1;
  private static final int AMOUNT_OFFSET = 9;
  private static final int CHECKPOINT_ID_OFFSET = 17;
  private static final int SOURCE_PARTITION_OFFSET = 25;
  private static final int TARGET_PARTITION_OFFSET = 29;
  private static final int V1_ACCOUNT_ID_OFFSET = 33;
  private static final int TO_ACCOUNT_ID_LENGTH_OFFSET = 33;
  private static final int TO_ACCOUNT_ID_OFFSET = 37;

  private PendingCreditCodec() {}

  @Override
  public int encode(PendingCredit value, MutableDirectBuffer buffer, int offset) {
    byte[] to = value.toAccountId().getBytes(StandardCharsets.UTF_8);
    byte[] from = value.fromAccountId().getBytes(StandardCharsets.UTF_8);
    buffer.putByte(offset, (byte) VERSION);
    buffer.putLong(offset + TRANSFER_KEY_OFFSET, value.transferKey(), ORDER);
    buffer.putLong(offset + AMOUNT_OFFSET, value.amount(), ORDER);
    buffer.putLong(offset + CHECKPOINT_ID_OFFSET, value.checkpointId(), ORDER);
    buffer.putInt(offset + SOURCE_PARTITION_OFFSET, value.sourcePartitionId(), ORDER);
    buffer.putInt(offset + TARGET_PARTITION_OFFSET, value.targetPartitionId(), ORDER);
    buffer.putInt(offset + TO_ACCOUNT_ID_LENGTH_OFFSET, to.length, ORDER);
    buffer.putBytes(offset + TO_ACCOUNT_ID_OFFSET, to);
    buffer.putBytes(offset + TO_ACCOUNT_ID_OFFSET + to.length, from);
    return TO_ACCOUNT_ID_OFFSET + to.length + from.length;
  }

  @Override
  public PendingCredit decode(DirectBuffer buffer, int offset, int length) {
    if (length < V1_ACCOUNT_ID_OFFSET) {
      throw new IllegalArgumentException(
          "Expected at least "
              + V1_ACCOUNT_ID_OFFSET
              + " bytes of a pending credit, but got "
              + length);
    }
    int version = buffer.getByte(offset) & 0xFF;
    String to;
    String from;
    if (version == VERSION_1) {
      to =
          buffer.getStringWithoutLengthUtf8(
              offset + V1_ACCOUNT_ID_OFFSET, length - V1_ACCOUNT_ID_OFFSET);
      from = PendingCredit.UNKNOWN_FROM_ACCOUNT_ID;
    } else if (version == VERSION) {
      if (length < TO_ACCOUNT_ID_OFFSET) {
        throw new IllegalArgumentException(
            "Expected at least "
                + TO_ACCOUNT_ID_OFFSET
                + " bytes of a pending credit of version "
                + VERSION
                + ", but got "
                + length);
      }
      int toLength = buffer.getInt(offset + TO_ACCOUNT_ID_LENGTH_OFFSET, ORDER);
      if (toLength < 0 || toLength > length - TO_ACCOUNT_ID_OFFSET) {
        throw new IllegalArgumentException(
            "Expected a to account id length in [0, "
                + (length - TO_ACCOUNT_ID_OFFSET)
                + "], but was "
                + toLength
                + " (pending credit of version "
                + VERSION
                + ")");
      }
      to = buffer.getStringWithoutLengthUtf8(offset + TO_ACCOUNT_ID_OFFSET, toLength);
      int fromOffset = TO_ACCOUNT_ID_OFFSET + toLength;
      from = buffer.getStringWithoutLengthUtf8(offset + fromOffset, length - fromOffset);
    } else {
      throw new IllegalArgumentException(
          "Expected pending credit version "
              + VERSION_1
              + " or "
              + VERSION
              + ", but was "
              + version);
    }
    return new PendingCredit(
        buffer.getLong(offset + TRANSFER_KEY_OFFSET, ORDER),
        to,
        buffer.getLong(offset + AMOUNT_OFFSET, ORDER),
        buffer.getInt(offset + SOURCE_PARTITION_OFFSET, ORDER),
        buffer.getInt(offset + TARGET_PARTITION_OFFSET, ORDER),
        buffer.getLong(offset + CHECKPOINT_ID_OFFSET, ORDER),
        from);
  }
}
