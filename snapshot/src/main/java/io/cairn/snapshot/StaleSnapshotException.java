package io.cairn.snapshot;

/**
 * A snapshot is not newer than the latest persisted one, so it would be deleted by retention at
 * once. An expected condition: the taker skips this snapshot.
 */
public final class StaleSnapshotException extends SnapshotException {

  public StaleSnapshotException(SnapshotId id, SnapshotId latest) {
    super(
        "Expected a snapshot newer than the latest "
            + latest
            + ", but was "
            + id
            + " (snapshot skipped)");
  }
}
