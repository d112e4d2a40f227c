package io.cairn.engine.state;

import io.cairn.db.DbCodec;
import io.cairn.engine.PendingCredit;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The stored form of a {@link PendingCredit}, version {@value #VERSION}, big-endian. The bytes are
 * covered by the state digest, so the layout never changes within a version.
 *
 * <pre>
 *  0  +------------------------------+
 *     | version (uint8) = 1          |
 *  1  +------------------------------+
 *     | transfer key (int64)         |
 *  9  +------------------------------+
 *     | amount (int64)               |
 * 17  +------------------------------+
 *     | checkpoint id (int64)        |
 * 25  +------------------------------+
 *     | source partition (int32)     |
 * 29  +------------------------------+
 *     | target partition (int32)     |
 * 33  +------------------------------+
 *     | to account id (UTF-8)       ...   (the rest of the value)
 *     +------------------------------+
 * </pre>
 */
public final class PendingCreditCodec implements DbCodec<PendingCredit> {

  /** The codec instance. */
  public static final PendingCreditCodec INSTANCE = new PendingCreditCodec();

  static final int VERSION = 1;
  private static final ByteOrder ORDER = ByteOrder.BIG_ENDIAN;
  private static final int TRANSFER_KEY_OFFSET = 1;
  private static final int AMOUNT_OFFSET = 9;
  private static final int CHECKPOINT_ID_OFFSET = 17;
  private static final int SOURCE_PARTITION_OFFSET = 25;
  private static final int TARGET_PARTITION_OFFSET = 29;
  private static final int ACCOUNT_ID_OFFSET = 33;

  private PendingCreditCodec() {}

  @Override
  public int encode(final PendingCredit value, final MutableDirectBuffer buffer, final int offset) {
    final byte[] accountId = value.toAccountId().getBytes(StandardCharsets.UTF_8);
    buffer.putByte(offset, (byte) VERSION);
    buffer.putLong(offset + TRANSFER_KEY_OFFSET, value.transferKey(), ORDER);
    buffer.putLong(offset + AMOUNT_OFFSET, value.amount(), ORDER);
    buffer.putLong(offset + CHECKPOINT_ID_OFFSET, value.checkpointId(), ORDER);
    buffer.putInt(offset + SOURCE_PARTITION_OFFSET, value.sourcePartitionId(), ORDER);
    buffer.putInt(offset + TARGET_PARTITION_OFFSET, value.targetPartitionId(), ORDER);
    buffer.putBytes(offset + ACCOUNT_ID_OFFSET, accountId);
    return ACCOUNT_ID_OFFSET + accountId.length;
  }

  @Override
  public PendingCredit decode(final DirectBuffer buffer, final int offset, final int length) {
    if (length < ACCOUNT_ID_OFFSET) {
      throw new IllegalArgumentException(
          "Expected at least " + ACCOUNT_ID_OFFSET + " bytes of a pending credit, but got " + length);
    }
    final int version = buffer.getByte(offset) & 0xFF;
    if (version != VERSION) {
      throw new IllegalArgumentException(
          "Expected pending credit version " + VERSION + ", but was " + version);
    }
    return new PendingCredit(
        buffer.getLong(offset + TRANSFER_KEY_OFFSET, ORDER),
        buffer.getStringWithoutLengthUtf8(offset + ACCOUNT_ID_OFFSET, length - ACCOUNT_ID_OFFSET),
        buffer.getLong(offset + AMOUNT_OFFSET, ORDER),
        buffer.getInt(offset + SOURCE_PARTITION_OFFSET, ORDER),
        buffer.getInt(offset + TARGET_PARTITION_OFFSET, ORDER),
        buffer.getLong(offset + CHECKPOINT_ID_OFFSET, ORDER));
  }
}
