package io.cairn.snapshot;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a snapshot records about the state it holds; stored in the snapshot's metadata file (see the
 * module README for the format) and covered by its checksum file.
 *
 * @param index the raft index of the last log entry the state covers, at least 1
 * @param term the raft term of that entry, at least 1
 * @param processedPosition the position of the last processed command, at least 0 (0: none)
 * @param exportedPosition the lowest position every exporter has seen, at least 0 (0: none)
 * @param lastWrittenPosition the highest position written as a follow-up of the processed commands,
 *     at least 0 (0: none); a backup may use the snapshot only if both this and {@code
 *     processedPosition} are below its checkpoint position
 * @param brokerVersion the version of the broker that took the snapshot, not blank, at most 64
 *     characters of {@code [A-Za-z0-9._+-]}
 * @param createdAtMillis when the snapshot was taken, from the taker's {@code Clock}, at least 0
 * @param stateDigestHex the state digest's total ({@code StateDigest.toHex()}), 32 lowercase hex
 *     digits
 */
public record SnapshotMetadata(
    long index,
    long term,
    long processedPosition,
    long exportedPosition,
    long lastWrittenPosition,
    String brokerVersion,
    long createdAtMillis,
    String stateDigestHex) {

  private static final Pattern VERSION = Pattern.compile("[A-Za-z0-9._+-]{1,64}");
  private static final Pattern DIGEST = Pattern.compile("[0-9a-f]{32}");

  public SnapshotMetadata {
    Objects.requireNonNull(brokerVersion, "brokerVersion");
    Objects.requireNonNull(stateDigestHex, "stateDigestHex");
    StringBuilder violations = new StringBuilder();
    if (index < 1) {
      violations.append("; index >= 1, but was ").append(index);
    }
    if (term < 1) {
      violations.append("; term >= 1, but was ").append(term);
    }
    if (processedPosition < 0) {
      violations.append("; processedPosition >= 0, but was ").append(processedPosition);
    }
    if (exportedPosition < 0) {
      violations.append("; exportedPosition >= 0, but was ").append(exportedPosition);
    }
    if (lastWrittenPosition < 0) {
      violations.append("; lastWrittenPosition >= 0, but was ").append(lastWrittenPosition);
    }
    if (!VERSION.matcher(brokerVersion).matches()) {
      violations
          .append("; brokerVersion of 1-64 [A-Za-z0-9._+-], but was '")
          .append(brokerVersion)
          .append('\'');
    }
    if (createdAtMillis < 0) {
      violations.append("; createdAtMillis >= 0, but was ").append(createdAtMillis);
    }
    if (!DIGEST.matcher(stateDigestHex).matches()) {
      violations
          .append("; stateDigestHex of 32 lowercase hex digits, but was '")
          .append(stateDigestHex)
          .append('\'');
    }
    if (violations.length() > 0) {
      throw new IllegalArgumentException(
          "Expected " + violations.substring(2) + " (snapshot metadata)");
    }
  }

  /** The id of the snapshot holding this metadata. */
  public SnapshotId id() {
    return new SnapshotId(index, term, processedPosition, lastWrittenPosition);
  }
}
