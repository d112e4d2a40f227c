package io.cairn.backup;

import io.cairn.db.Digest128;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A checkpoint taken on a partition: the consistent cut a backup with the same id is taken at
 * (DESIGN.md §7). What the {@code CHECKPOINT CREATED} event carries and the checkpoint state keeps.
 *
 * @param id the checkpoint id (= backup id), at least 1
 * @param position the position of the {@code CHECKPOINT CREATE} command it was taken at, at least 1
 * @param timestamp the command's timestamp, epoch milliseconds (from the record, never a clock)
 * @param stateDigest the total {@linkplain io.cairn.db.StateDigest state digest} of the partition
 *     when the command was processed; the checkpoint bookkeeping itself is not in it
 * @param familyDigests the digest by column family behind {@code stateDigest}, known only where the
 *     checkpoint was created (the leader tells its backup manager); empty when read back from a
 *     {@code CREATED} event or the checkpoint state, which keep only the total
 */
public record Checkpoint(
    long id,
    long position,
    long timestamp,
    Digest128 stateDigest,
    SortedMap<String, Digest128> familyDigests) {

  public Checkpoint {
    Objects.requireNonNull(stateDigest, "stateDigest");
    familyDigests = Collections.unmodifiableSortedMap(new TreeMap<>(familyDigests));
    if (id < 1 || position < 1) {
      throw new IllegalArgumentException(
          "Expected a checkpoint id >= 1 and position >= 1, but was id "
              + id
              + " and position "
              + position);
    }
  }

  /** A checkpoint whose per-family digests are unknown. */
  public Checkpoint(long id, long position, long timestamp, Digest128 stateDigest) {
    this(id, position, timestamp, stateDigest, new TreeMap<>());
  }

  /**
   * {@link #familyDigests()} as 32 lowercase hex digits each, as a backup descriptor records them.
   */
  public SortedMap<String, String> familyDigestsHex() {
    TreeMap<String, String> hex = new TreeMap<>();
    for (Map.Entry<String, Digest128> family : familyDigests.entrySet()) {
      hex.put(family.getKey(), family.getValue().toHex());
    }
    return hex;
  }

  /** The digest as 32 lowercase hex digits, as a backup descriptor records it. */
  public String stateDigestHex() {
    return stateDigest.toHex();
  }
}
