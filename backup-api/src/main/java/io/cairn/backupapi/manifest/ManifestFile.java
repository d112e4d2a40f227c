package io.cairn.backupapi.manifest;

import io.cairn.backupapi.Compression;
import io.cairn.backupapi.ObjectNames;
import io.cairn.backupapi.content.Crc32c;
import io.cairn.backupapi.content.SegmentedCipher;
import java.util.Objects;

/**
 * One stored file as a manifest records it.
 *
 * @param name its name in its file set, following {@link ObjectNames}
 * @param sizeBytes its content's size (uncompressed)
 * @param crc32c CRC32C of its uncompressed content, unsigned ({@code 0..2^32-1})
 * @param storedSizeBytes the stored object's size; without compression, {@code sizeBytes} or, when
 *     the backup is encrypted, its encrypted size (the manifest checks which)
 * @param compression how the content is stored
 */
public record ManifestFile(
    String name, long sizeBytes, long crc32c, long storedSizeBytes, Compression compression) {

  public ManifestFile {
    ObjectNames.requireValid(name, "manifest file");
    Objects.requireNonNull(compression, "compression");
    if (sizeBytes < 0 || storedSizeBytes < 0) {
      throw new IllegalArgumentException(
          "Expected sizes >= 0, but file '"
              + name
              + "' has sizeBytes "
              + sizeBytes
              + " and storedSizeBytes "
              + storedSizeBytes);
    }
    Crc32c.toHex(crc32c); // range check
    if (compression == Compression.NONE
        && storedSizeBytes != sizeBytes
        && storedSizeBytes != SegmentedCipher.encryptedSize(sizeBytes)) {
      throw new IllegalArgumentException(
          "Expected storedSizeBytes == sizeBytes (or its encrypted size) for an uncompressed"
              + " file, but file '"
              + name
              + "' has "
              + storedSizeBytes
              + " != "
              + sizeBytes);
    }
  }

  public String crc32cHex() {
    return Crc32c.toHex(crc32c);
  }
}
