package io.cairn.backupapi;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One stored file that does not match its manifest entry.
 *
 * @param fileSet its set
 * @param name its name
 * @param kind what is wrong
 * @param expectedSizeBytes the manifest's (uncompressed) size
 * @param expectedStoredSizeBytes the manifest's stored size
 * @param expectedCrc32c the manifest's CRC32C, 8 lowercase hex digits
 * @param actualStoredSizeBytes the stored object's size, if it exists
 * @param actualSizeBytes the decoded size, if the object could be decoded
 * @param actualCrc32c the decoded content's CRC32C, if it could be decoded
 * @param detail a sentence for the operator
 */
public record FileProblem(
    FileSetKind fileSet,
    String name,
    FileProblemKind kind,
    long expectedSizeBytes,
    long expectedStoredSizeBytes,
    String expectedCrc32c,
    OptionalLong actualStoredSizeBytes,
    OptionalLong actualSizeBytes,
    Optional<String> actualCrc32c,
    String detail) {

  public FileProblem {
    Objects.requireNonNull(fileSet, "fileSet");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(actualStoredSizeBytes, "actualStoredSizeBytes");
    Objects.requireNonNull(actualSizeBytes, "actualSizeBytes");
    Objects.requireNonNull(actualCrc32c, "actualCrc32c");
  }

  /** One line naming the file, the problem, what was expected and what was found. */
  public String describe() {
    return fileSet.directoryName()
        + "/"
        + name
        + ": "
        + kind
        + " (expected "
        + expectedSizeBytes
        + " bytes, stored "
        + expectedStoredSizeBytes
        + " bytes, crc32c "
        + expectedCrc32c
        + "; found "
        + (actualStoredSizeBytes.isPresent()
            ? "stored " + actualStoredSizeBytes.getAsLong() + " bytes"
            : "no object")
        + (actualSizeBytes.isPresent() ? ", " + actualSizeBytes.getAsLong() + " bytes" : "")
        + actualCrc32c.map(c -> ", crc32c " + c).orElse("")
        + "): "
        + detail;
  }
}
