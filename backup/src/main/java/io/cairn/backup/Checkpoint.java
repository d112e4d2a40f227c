package io.cairn.backup;

import io.cairn.db.Digest128;
import java.util.Objects;

/**
 * A checkpoint taken on a partition: the consistent cut a backup with the same id is taken at
 * (DESIGN.md §7). What the {@code CHECKPOINT CREATED} event carries and the checkpoint state keeps.
 *
 * @param id the checkpoint id (= backup id), at least 1
 * @param position the position of the {@code CHECKPOINT CREATE} command it was taken at, at least 1
 * @param timestamp the command's timestamp, epoch milliseconds (from the record, never a clock)
 * @param stateDigest the total {@linkplain io.cairn.db.StateDigest state digest} of the partition
 *     when the command was processed; the checkpoint bookkeeping itself is not in it
 */
public record Checkpoint(long id, long position, long timestamp, Digest128 stateDigest) {

  public Checkpoint {
    Objects.requireNonNull(stateDigest, "stateDigest");
    if (id < 1 || position < 1) {
      throw new IllegalArgumentException(
          "Expected a checkpoint id >= 1 and position >= 1, but was id "
              + id
              + " and position "
              + position);
    }
  }

  /** The digest as 32 lowercase hex digits, as a backup descriptor records it. */
  public String stateDigestHex() {
    return stateDigest.toHex();
  }
}
