package io.cairn.snapshot;

/**
 * A snapshot's file does not match its checksum file (or the checksum file is damaged). The
 * snapshot is never opened; the store marks it corrupt and stops offering it.
 */
public final class CorruptedSnapshotException extends SnapshotException {

  private final String snapshot;
  private final String file;
  private final String expected;
  private final String actual;

  /**
   * @param snapshot the snapshot's id or directory name
   * @param file the file that does not match
   * @param expected what the checksum file says (a CRC32C, a size, a file list)
   * @param actual what was found
   */
  public CorruptedSnapshotException(String snapshot, String file, String expected, String actual) {
    super(
        "Expected file '"
            + file
            + "' of snapshot "
            + snapshot
            + " to have "
            + expected
            + ", but it has "
            + actual
            + ". The snapshot is not used; the partition falls back to an older snapshot or"
            + " replays the log.");
    this.snapshot = snapshot;
    this.file = file;
    this.expected = expected;
    this.actual = actual;
  }

  public String snapshot() {
    return snapshot;
  }

  public String file() {
    return file;
  }

  public String expected() {
    return expected;
  }

  public String actual() {
    return actual;
  }
}
