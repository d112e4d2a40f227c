package io.cairn.backupstore;

import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Counts what one save copied and reused, for its result and its log line. Not thread-safe. */
public final class SaveTally {

  private static final Logger LOG = LoggerFactory.getLogger(SaveTally.class);

  private int copiedFiles;
  private long copiedBytes;
  private int reusedFiles;
  private long reusedBytes;
  private long storedBytes;

  /** One stored file; {@code reused} when the previous backup's object was linked or copied. */
  public void add(ManifestFile entry, boolean reused) {
    storedBytes += entry.storedSizeBytes();
    if (reused) {
      reusedFiles++;
      reusedBytes += entry.sizeBytes();
    } else {
      copiedFiles++;
      copiedBytes += entry.sizeBytes();
    }
  }

  /** The result of the save that wrote {@code completed}. */
  public BackupSaveResult result(Manifest completed) {
    return new BackupSaveResult(
        completed.toStatus(), copiedFiles, copiedBytes, reusedFiles, reusedBytes, storedBytes);
  }

  /** Logs the completed save once. */
  public void logCompleted(BackupIdentifier id) {
    LOG.info(
        "Completed backup {}: {} files copied ({} bytes), {} reused ({} bytes), {} bytes stored",
        id,
        copiedFiles,
        copiedBytes,
        reusedFiles,
        reusedBytes,
        storedBytes);
  }
}
