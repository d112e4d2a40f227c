package io.cairn.backupapi;

/** The two file sets of a partition backup. */
public enum FileSetKind {
  /** The reserved snapshot's files (empty for a log-only backup). */
  SNAPSHOT("snapshot"),
  /** The journal segment files from the snapshot's index up to the checkpoint position. */
  SEGMENTS("segments");

  private final String directoryName;

  FileSetKind(String directoryName) {
    this.directoryName = directoryName;
  }

  /** The name used in manifests, object names and restore target directories. */
  public String directoryName() {
    return directoryName;
  }
}
