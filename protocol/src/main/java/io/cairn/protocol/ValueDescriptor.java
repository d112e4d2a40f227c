package io.cairn.protocol;

import java.util.List;

/**
 * The binary layouts of the values, version {@value RecordDescriptor#PROTOCOL_VERSION}.
 * Little-endian; offsets from the start of the value; fixed-size fields first. A string is an
 * {@code int32} byte length followed by that many bytes of strict UTF-8; an account id has 1 to
 * {@value #ACCOUNT_ID_MAX_BYTES} bytes.
 *
 * <pre>
 * ACCOUNT                              DEPOSIT
 *  0  +---------------------------+     0  +---------------------------+
 *     | balance (int64)           |        | amount (int64)            |
 *  8  +---------------------------+     8  +---------------------------+
 *     | account id length (int32) |        | account id length (int32) |
 * 12  +---------------------------+    12  +---------------------------+
 *     | account id (UTF-8)       ...       | account id (UTF-8)       ...
 *     +---------------------------+        +---------------------------+
 *
 * TRANSFER                             CREDIT
 *  0  +---------------------------+     0  +---------------------------+
 *     | amount (int64)            |        | transfer key (int64)      |
 *  8  +---------------------------+     8  +---------------------------+
 *     | source partition (int32)  |        | amount (int64)            |
 * 12  +---------------------------+    16  +---------------------------+
 *     | target partition (int32)  |        | source partition (int32)  |
 * 16  +---------------------------+    20  +---------------------------+
 *     | from id length (int32)    |        | target partition (int32)  |
 * 20  +---------------------------+    24  +---------------------------+
 *     | from account id (UTF-8)  ...       | to id length (int32)      |
 *     +---------------------------+    28  +---------------------------+
 *     | to id length (int32)      |        | to account id (UTF-8)    ...
 *     +---------------------------+        +---------------------------+
 *     | to account id (UTF-8)    ...
 *     +---------------------------+
 *
 * CHECKPOINT
 *  0  +-------------------------------+
 *     | checkpoint id (int64)         |
 *  8  +-------------------------------+
 *     | checkpoint position (int64)   |
 * 16  +-------------------------------+
 *     | timestamp (int64)             |
 * 24  +-------------------------------+
 *     | state digest length (uint8)   |   0 (none), 16 or 32
 * 25  +-------------------------------+
 *     | state digest                 ...
 *     +-------------------------------+
 * </pre>
 *
 * <p>A value fills exactly the value length of its record; decoding rejects trailing bytes.
 */
public final class ValueDescriptor {
  /** The shortest account id, in bytes of UTF-8. */
  public static final int ACCOUNT_ID_MIN_BYTES = 1;

  /** The longest account id, in bytes of UTF-8. */
  public static final int ACCOUNT_ID_MAX_BYTES = 128;

  /** The lengths a non-empty state digest may have, in bytes (128- and 256-bit digests). */
  public static final List<Integer> STATE_DIGEST_LENGTHS = List.of(16, 32);

  /** A partition id not known yet. Partition ids are {@code 1..P}. */
  public static final int NO_PARTITION_ID = -1;

  /** Fixed part of ACCOUNT and DEPOSIT: the int64, then the account id length. */
  static final int ACCOUNT_FIXED_LENGTH = Long.BYTES + Integer.BYTES;

  static final int DEPOSIT_FIXED_LENGTH = Long.BYTES + Integer.BYTES;

  /** Fixed part of TRANSFER, including both string lengths. */
  static final int TRANSFER_FIXED_LENGTH = Long.BYTES + 4 * Integer.BYTES;

  /** Fixed part of CREDIT, including the string length. */
  static final int CREDIT_FIXED_LENGTH = 2 * Long.BYTES + 3 * Integer.BYTES;

  /** Fixed part of CHECKPOINT, including the digest length. */
  static final int CHECKPOINT_FIXED_LENGTH = 3 * Long.BYTES + Byte.BYTES;

  private ValueDescriptor() {}

  /** Whether {@code length} is 0 (no digest) or one of {@link #STATE_DIGEST_LENGTHS}. */
  public static boolean isValidStateDigestLength(int length) {
    return length == 0 || STATE_DIGEST_LENGTHS.contains(length);
  }
}
