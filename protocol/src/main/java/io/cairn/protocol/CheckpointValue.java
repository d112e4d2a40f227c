package io.cairn.protocol;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A checkpoint: the consistent cut a backup is taken at.
 *
 * @param checkpointId the checkpoint id (= backup id); in {@code IGNORED}, the partition's current
 *     id
 * @param checkpointPosition the position of the {@code CREATE} command the checkpoint was taken at,
 *     or {@link RecordMetadata#NO_POSITION} in a command
 * @param timestamp when the checkpoint was taken, in epoch milliseconds (from the record, never the
 *     wall clock), or {@link RecordMetadata#NO_TIMESTAMP}
 * @param stateDigest the digest of the partition's state at the checkpoint: empty (none, as in a
 *     {@code CREATE} command) or one of {@link ValueDescriptor#STATE_DIGEST_LENGTHS} bytes (checked
 *     by the codec). The array is copied in and out; this record is immutable.
 */
public record CheckpointValue(
    long checkpointId, long checkpointPosition, long timestamp, byte[] stateDigest)
    implements RecordValue {
  private static final byte[] NO_DIGEST = new byte[0];

  public CheckpointValue {
    Objects.requireNonNull(stateDigest, "stateDigest");
    stateDigest = stateDigest.length == 0 ? NO_DIGEST : stateDigest.clone();
  }

  /** A value without a state digest, as carried by commands. */
  public CheckpointValue(long checkpointId, long checkpointPosition, long timestamp) {
    this(checkpointId, checkpointPosition, timestamp, NO_DIGEST);
  }

  /** A copy of the state digest; empty if there is none. */
  @Override
  public byte[] stateDigest() {
    return stateDigest.length == 0 ? NO_DIGEST : stateDigest.clone();
  }

  /** The length of the state digest in bytes, 0 if there is none; does not copy. */
  public int stateDigestLength() {
    return stateDigest.length;
  }

  /** Whether this value carries a state digest. */
  public boolean hasStateDigest() {
    return stateDigest.length > 0;
  }

  @Override
  public ValueType valueType() {
    return ValueType.CHECKPOINT;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CheckpointValue that
        && checkpointId == that.checkpointId
        && checkpointPosition == that.checkpointPosition
        && timestamp == that.timestamp
        && Arrays.equals(stateDigest, that.stateDigest);
  }

  @Override
  public int hashCode() {
    int result = Long.hashCode(checkpointId);
    result = 31 * result + Long.hashCode(checkpointPosition);
    result = 31 * result + Long.hashCode(timestamp);
    return 31 * result + Arrays.hashCode(stateDigest);
  }

  @Override
  public String toString() {
    return "CheckpointValue[checkpointId="
        + checkpointId
        + ", checkpointPosition="
        + checkpointPosition
        + ", timestamp="
        + timestamp
        + ", stateDigest="
        + HexFormat.of().formatHex(stateDigest)
        + "]";
  }
}
