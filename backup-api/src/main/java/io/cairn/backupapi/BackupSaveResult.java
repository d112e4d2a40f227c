package io.cairn.backupapi;

import java.util.Objects;

/**
 * What a completed save did.
 *
 * @param status the backup's COMPLETED status
 * @param copiedFileCount files read from the source and written to the store
 * @param copiedBytes their (uncompressed) bytes
 * @param reusedFileCount files taken from the previous backup without copying (fs: hard link;
 *     object stores: server-side copy)
 * @param reusedBytes their (uncompressed) bytes
 * @param storedBytes bytes the new backup's contents occupy in the store (compressed where they
 *     are), including reused ones
 */
public record BackupSaveResult(
    BackupStatus status,
    int copiedFileCount,
    long copiedBytes,
    int reusedFileCount,
    long reusedBytes,
    long storedBytes) {

  public BackupSaveResult {
    Objects.requireNonNull(status, "status");
  }
}
