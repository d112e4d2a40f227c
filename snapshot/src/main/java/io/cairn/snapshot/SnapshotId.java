package io.cairn.snapshot;

import java.util.Comparator;
import java.util.Optional;

/**
 * Identifies a snapshot and orders snapshots: by raft {@code index}, then {@code term}, then {@code
 * processedPosition}, then {@code lastWrittenPosition}. The newest snapshot is the greatest.
 *
 * <p>Its text form {@code <index>-<term>-<processedPosition>-<lastWrittenPosition>} (decimal, no
 * sign, no leading zeros) is the name of the snapshot's directory. {@link #parse(String)} accepts
 * exactly the strings {@link #toString()} produces, so a name parses iff it round-trips.
 *
 * @param index the raft index of the last log entry the snapshot covers, at least 1
 * @param term the raft term of that entry, at least 1
 * @param processedPosition the position of the last processed command, at least 0 (0: none)
 * @param lastWrittenPosition the highest position written as a follow-up of the processed commands,
 *     at least 0 (0: none)
 */
public record SnapshotId(long index, long term, long processedPosition, long lastWrittenPosition)
    implements Comparable<SnapshotId> {

  private static final Comparator<SnapshotId> ORDER =
      Comparator.comparingLong(SnapshotId::index)
          .thenComparingLong(SnapshotId::term)
          .thenComparingLong(SnapshotId::processedPosition)
          .thenComparingLong(SnapshotId::lastWrittenPosition);

  public SnapshotId {
    if (index < 1 || term < 1 || processedPosition < 0 || lastWrittenPosition < 0) {
      throw new IllegalArgumentException(
          "Expected index >= 1, term >= 1 and positions >= 0, but was index="
              + index
              + " term="
              + term
              + " processedPosition="
              + processedPosition
              + " lastWrittenPosition="
              + lastWrittenPosition
              + " (snapshot id)");
    }
  }

  /**
   * Parses a snapshot directory name.
   *
   * @throws IllegalArgumentException if {@code name} is not the text form of a snapshot id
   */
  public static SnapshotId parse(String name) {
    return tryParse(name)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "Expected a snapshot id <index>-<term>-<processedPosition>-"
                        + "<lastWrittenPosition> (decimal, index and term >= 1, no leading zeros),"
                        + " but was '"
                        + name
                        + "'"));
  }

  /** {@link #parse(String)}, or empty if {@code name} is not a snapshot id. */
  public static Optional<SnapshotId> tryParse(String name) {
    if (name == null) {
      return Optional.empty();
    }
    String[] parts = name.split("-", -1);
    if (parts.length != 4) {
      return Optional.empty();
    }
    long[] values = new long[4];
    for (int i = 0; i < 4; i++) {
      String part = parts[i];
      if (!isCanonicalDecimal(part)) {
        return Optional.empty();
      }
      try {
        values[i] = Long.parseLong(part);
      } catch (NumberFormatException e) {
        return Optional.empty(); // too large for a long
      }
    }
    if (values[0] < 1 || values[1] < 1) {
      return Optional.empty();
    }
    return Optional.of(new SnapshotId(values[0], values[1], values[2], values[3]));
  }

  private static boolean isCanonicalDecimal(String part) {
    if (part.isEmpty() || part.length() > 19) {
      return false;
    }
    for (int i = 0; i < part.length(); i++) {
      char c = part.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return part.length() == 1 || part.charAt(0) != '0';
  }

  @Override
  public int compareTo(SnapshotId other) {
    return ORDER.compare(this, other);
  }

  /**
   * True if a snapshot with this id can stand in for {@code newer} for every command after {@code
   * newer}'s processed position: this one's processed and last written positions are both at or
   * below it. A command between {@code newer}'s processed and last written positions (one appended
   * before the follow-ups of {@code newer}'s last processed command) lies inside {@code newer}, so
   * only such an older snapshot lies wholly before it.
   */
  public boolean isBaseFor(SnapshotId newer) {
    long newerProcessed = newer.processedPosition;
    return processedPosition <= newerProcessed && lastWrittenPosition <= newerProcessed;
  }

  /** True if this id orders after {@code other}. */
  public boolean isNewerThan(SnapshotId other) {
    return compareTo(other) > 0;
  }

  /** The text form, which is the snapshot's directory name. */
  @Override
  public String toString() {
    return index + "-" + term + "-" + processedPosition + "-" + lastWrittenPosition;
  }
}
