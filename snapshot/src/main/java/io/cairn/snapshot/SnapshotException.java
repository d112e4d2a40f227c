package io.cairn.snapshot;

/** A snapshot could not be written, read or verified; the message names the snapshot and file. */
public class SnapshotException extends RuntimeException {

  public SnapshotException(String message) {
    super(message);
  }

  public SnapshotException(String message, Throwable cause) {
    super(message, cause);
  }
}
