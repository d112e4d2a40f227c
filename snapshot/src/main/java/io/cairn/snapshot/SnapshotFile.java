package io.cairn.snapshot;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One file of a persisted snapshot, as its checksum file records it.
 *
 * @param name the file's name in the snapshot directory (no directories: a snapshot is flat)
 * @param path where it is now; read it only while holding a {@link SnapshotReservation}
 * @param sizeBytes its size
 * @param crc32c CRC32C of its content, unsigned ({@code 0..2^32-1})
 */
public record SnapshotFile(String name, Path path, long sizeBytes, long crc32c) {

  public SnapshotFile {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(path, "path");
    if (sizeBytes < 0 || crc32c < 0 || crc32c > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException(
          "Expected sizeBytes >= 0 and crc32c in [0, 2^32), but file '"
              + name
              + "' has sizeBytes "
              + sizeBytes
              + " and crc32c "
              + crc32c);
    }
  }

  /** The CRC32C as 8 lowercase hex digits. */
  public String crc32cHex() {
    return String.format("%08x", crc32c);
  }
}
