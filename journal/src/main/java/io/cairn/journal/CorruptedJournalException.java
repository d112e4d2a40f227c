package io.cairn.journal;

import java.nio.file.Path;
import java.util.OptionalInt;

/**
 * The journal's files hold bytes that no crash can explain: a checksum mismatch in a closed segment
 * or before valid records, a record out of index order, segments whose indexes do not continue. The
 * journal must not be used; the operator restores the partition from a replica or a backup.
 */
public final class CorruptedJournalException extends JournalException {

  private static final String ACTION =
      " The journal is corrupted; restore this partition from another replica or a backup.";

  private final Path file;
  private final long offsetBytes;
  private final long index;
  private final OptionalInt expectedChecksum;
  private final OptionalInt actualChecksum;

  /** A record whose stored checksum does not match its bytes. */
  public CorruptedJournalException(
      Path file, long offsetBytes, long index, int expectedChecksum, int actualChecksum) {
    super(
        String.format(
            "Expected checksum 0x%08X, but was 0x%08X (file %s, offset %d, index %d).%s",
            expectedChecksum, actualChecksum, file, offsetBytes, index, ACTION));
    this.file = file;
    this.offsetBytes = offsetBytes;
    this.index = index;
    this.expectedChecksum = OptionalInt.of(expectedChecksum);
    this.actualChecksum = OptionalInt.of(actualChecksum);
  }

  /**
   * Any other corruption.
   *
   * @param problem "Expected ..., but ..." without the location, which is appended
   * @param index the index expected at the offset, or -1 when there is none (a descriptor)
   */
  public CorruptedJournalException(String problem, Path file, long offsetBytes, long index) {
    super(
        String.format(
            "%s (file %s, offset %d%s).%s",
            problem, file, offsetBytes, index < 0 ? "" : ", index " + index, ACTION));
    this.file = file;
    this.offsetBytes = offsetBytes;
    this.index = index;
    this.expectedChecksum = OptionalInt.empty();
    this.actualChecksum = OptionalInt.empty();
  }

  /** The corrupted segment file. */
  public Path file() {
    return file;
  }

  /** The offset in {@link #file()} of the corrupted frame or descriptor. */
  public long offsetBytes() {
    return offsetBytes;
  }

  /** The index the journal expected at {@link #offsetBytes()}, or -1 for a descriptor. */
  public long index() {
    return index;
  }

  /** The checksum stored in the file, when the corruption is a checksum mismatch. */
  public OptionalInt expectedChecksum() {
    return expectedChecksum;
  }

  /** The checksum computed from the bytes, when the corruption is a checksum mismatch. */
  public OptionalInt actualChecksum() {
    return actualChecksum;
  }
}
