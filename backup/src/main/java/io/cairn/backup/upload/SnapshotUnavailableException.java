package io.cairn.backup.upload;

/**
 * The backup has no snapshot to start from and the log no longer holds everything from index 1: it
 * fails with {@code SNAPSHOT_UNAVAILABLE}, not as an upload that failed.
 */
public final class SnapshotUnavailableException extends IllegalStateException {

  public SnapshotUnavailableException(String message) {
    super(message);
  }
}
