package io.cairn.snapshot;

/**
 * Where a partition's state stands, as the {@link SnapshotDirector} records it in a snapshot.
 *
 * @param index the raft index of the entry that holds the last processed command (or the last
 *     replayed event), at least 1
 * @param term the raft term of that entry, at least 1
 * @param processedPosition the position of the last processed command, at least 0
 * @param exportedPosition the lowest position every exporter has seen, at least 0
 * @param lastWrittenPosition the highest position written as a follow-up of the processed commands,
 *     at least 0
 */
public record SnapshotPositions(
    long index,
    long term,
    long processedPosition,
    long exportedPosition,
    long lastWrittenPosition) {

  public SnapshotPositions {
    // Validated with the same rules as the id; fails early, where the positions are produced.
    new SnapshotId(index, term, processedPosition, lastWrittenPosition);
    if (exportedPosition < 0) {
      throw new IllegalArgumentException(
          "Expected exportedPosition >= 0, but was " + exportedPosition + " (snapshot positions)");
    }
  }

  /** The position up to which the log must be committed before a snapshot of this is persisted. */
  public long requiredCommitPosition() {
    return Math.max(processedPosition, lastWrittenPosition);
  }
}
