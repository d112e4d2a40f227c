package io.cairn.backup.upload;

/**
 * The backup has no snapshot it can start from: none was usable and the log no longer holds
 * everything from index 1, or the log no longer holds what follows the one reserved. It fails with
 * {@code SNAPSHOT_UNAVAILABLE}, not as an upload that failed.
 */
public final class SnapshotUnavailableException extends IllegalStateException {

  public SnapshotUnavailableException(String message) {
    super(message);
  }
}
