package io.cairn.backupapi;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One file to save: the store reads exactly the first {@code lengthBytes} bytes of {@code path},
 * never more, even when the file has grown since (the active journal segment keeps growing during a
 * backup). A file shorter than {@code lengthBytes} fails the save.
 *
 * @param name its name inside the backup, following {@link ObjectNames}
 * @param path where to read it
 * @param lengthBytes the fixed length to read, {@code >= 0}
 */
public record BackupFile(String name, Path path, long lengthBytes) {

  public BackupFile {
    ObjectNames.requireValid(name, "backup file " + path);
    Objects.requireNonNull(path, "path");
    if (lengthBytes < 0) {
      throw new IllegalArgumentException(
          "Expected lengthBytes >= 0, but was " + lengthBytes + " (backup file '" + name + "')");
    }
  }
}
