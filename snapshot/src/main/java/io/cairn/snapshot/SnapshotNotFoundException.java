package io.cairn.snapshot;

/**
 * The snapshot does not exist (any more): never persisted, deleted by retention, being deleted, or
 * found corrupt. An expected condition: a caller reserving a snapshot handles it.
 */
public final class SnapshotNotFoundException extends SnapshotException {

  private final SnapshotId id;

  public SnapshotNotFoundException(SnapshotId id, String context) {
    super("Expected snapshot " + id + " to exist, but it does not (" + context + ")");
    this.id = id;
  }

  public SnapshotId id() {
    return id;
  }
}
