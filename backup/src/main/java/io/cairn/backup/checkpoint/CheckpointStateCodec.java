package io.cairn.backup.checkpoint;

import io.cairn.backup.Checkpoint;
import io.cairn.backup.ConfirmedBackup;
import io.cairn.db.Digest128;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The values of the {@code BACKUP_CHECKPOINTS} family, version {@value #VERSION}, big-endian.
 *
 * <pre>
 * latest checkpoint (key 1), 41 bytes       latest confirmed backup (key 2), 17 bytes
 *  0  +-------------------------+            0  +-------------------------+
 *     | version (uint8) = 1     |               | version (uint8) = 1     |
 *  1  +-------------------------+            1  +-------------------------+
 *     | checkpoint id (int64)   |               | checkpoint id (int64)   |
 *  9  +-------------------------+            9  +-------------------------+
 *     | position (int64)        |               | position (int64)        |
 * 17  +-------------------------+           17  +-------------------------+
 *     | timestamp (int64)       |
 * 25  +-------------------------+
 *     | digest high (int64)     |
 * 33  +-------------------------+
 *     | digest low (int64)      |
 * 41  +-------------------------+
 * </pre>
 */
public final class CheckpointStateCodec {

  /** The only layout version so far. */
  public static final byte VERSION = 1;

  /** Key of the latest checkpoint. */
  public static final long LATEST_CHECKPOINT_KEY = 1L;

  /** Key of the latest confirmed backup. */
  public static final long LATEST_CONFIRMED_BACKUP_KEY = 2L;

  static final int CHECKPOINT_LENGTH_BYTES = 1 + 5 * Long.BYTES;
  static final int CONFIRMED_LENGTH_BYTES = 1 + 2 * Long.BYTES;

  private CheckpointStateCodec() {}

  public static byte[] encode(Checkpoint checkpoint) {
    return ByteBuffer.allocate(CHECKPOINT_LENGTH_BYTES)
        .order(ByteOrder.BIG_ENDIAN)
        .put(VERSION)
        .putLong(checkpoint.id())
        .putLong(checkpoint.position())
        .putLong(checkpoint.timestamp())
        .putLong(checkpoint.stateDigest().high())
        .putLong(checkpoint.stateDigest().low())
        .array();
  }

  /**
   * @throws IllegalStateException if the bytes are not a version-1 checkpoint (the state is broken)
   */
  public static Checkpoint decodeCheckpoint(byte[] bytes) {
    ByteBuffer buffer = check(bytes, CHECKPOINT_LENGTH_BYTES, "latest checkpoint");
    try {
      return new Checkpoint(
          buffer.getLong(),
          buffer.getLong(),
          buffer.getLong(),
          new Digest128(buffer.getLong(), buffer.getLong()));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          "Expected a valid latest checkpoint (family BACKUP_CHECKPOINTS), but " + e.getMessage(),
          e);
    }
  }

  public static byte[] encode(ConfirmedBackup backup) {
    return ByteBuffer.allocate(CONFIRMED_LENGTH_BYTES)
        .order(ByteOrder.BIG_ENDIAN)
        .put(VERSION)
        .putLong(backup.checkpointId())
        .putLong(backup.checkpointPosition())
        .array();
  }

  /**
   * @throws IllegalStateException if the bytes are not a version-1 confirmed backup
   */
  public static ConfirmedBackup decodeConfirmedBackup(byte[] bytes) {
    ByteBuffer buffer = check(bytes, CONFIRMED_LENGTH_BYTES, "latest confirmed backup");
    return new ConfirmedBackup(buffer.getLong(), buffer.getLong());
  }

  private static ByteBuffer check(byte[] bytes, int length, String what) {
    if (bytes.length != length || bytes[0] != VERSION) {
      throw new IllegalStateException(
          "Expected the "
              + what
              + " as "
              + length
              + " bytes of version "
              + VERSION
              + ", but found "
              + bytes.length
              + " bytes"
              + (bytes.length > 0 ? " of version " + bytes[0] : "")
              + " (family BACKUP_CHECKPOINTS)");
    }
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.BIG_ENDIAN);
    buffer.get();
    return buffer;
  }
}
