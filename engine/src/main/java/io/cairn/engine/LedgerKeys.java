package io.cairn.engine;

/**
 * Keys of ledger records, unique across partitions: the partition id in the high bits, the position
 * of the command that created the entity in the low bits.
 *
 * <pre>
 *  63  62            48 47                                             0
 * +---+----------------+------------------------------------------------+
 * | 0 | partition (15) | position of the creating command (48)          |
 * +---+----------------+------------------------------------------------+
 * </pre>
 *
 * <p>Why the command's position: it is unique within a partition and known to the processor, so the
 * key is a pure function of the log — a follower's replay, a restart and a restore that
 * re-processes the command all get the same key, which is what makes the cross-partition credit
 * idempotent (the target applies a credit once per transfer key). Keys are positive.
 */
public final class LedgerKeys {

  /** Bits of the position part. */
  public static final int POSITION_BITS = 48;

  /** The highest position a key can hold: 2^48 - 1. */
  public static final long MAX_POSITION = (1L << POSITION_BITS) - 1;

  /** The highest partition id a key can hold: 2^15 - 1. */
  public static final int MAX_PARTITION_ID = (1 << 15) - 1;

  private LedgerKeys() {}

  /**
   * The key of the entity created by the command at {@code position} on {@code partitionId}.
   *
   * @throws IllegalArgumentException if the partition id is not in [1, {@value #MAX_PARTITION_ID}]
   *     or the position not in [1, {@link #MAX_POSITION}]
   */
  public static long of(int partitionId, long position) {
    if (partitionId < 1 || partitionId > MAX_PARTITION_ID) {
      throw new IllegalArgumentException(
          "Expected partitionId in [1, " + MAX_PARTITION_ID + "], but was " + partitionId);
    }
    if (position < 1 || position > MAX_POSITION) {
      throw new IllegalArgumentException(
          "Expected position in [1, "
              + MAX_POSITION
              + "], but was "
              + position
              + " (partition "
              + partitionId
              + ")");
    }
    return ((long) partitionId << POSITION_BITS) | position;
  }

  /** The partition that created the entity with this key. */
  public static int partitionId(long key) {
    return (int) (key >>> POSITION_BITS);
  }

  /** The position of the command that created the entity with this key. */
  public static long position(long key) {
    return key & MAX_POSITION;
  }

  /** True if {@code key} could have been made by {@link #of} (positive, both parts in range). */
  public static boolean isValid(long key) {
    return key > 0 && partitionId(key) >= 1 && position(key) >= 1;
  }
}
