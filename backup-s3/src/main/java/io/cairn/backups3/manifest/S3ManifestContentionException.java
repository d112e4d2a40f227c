package io.cairn.backups3.manifest;

import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupStoreException;

/** A manifest kept changing under a transition; it gave up instead of looping forever. */
public final class S3ManifestContentionException extends BackupStoreException {

  S3ManifestContentionException(BackupIdentifier id, String manifest, int attempts) {
    super(
        "Expected to change the manifest of backup "
            + id
            + " ("
            + manifest
            + "), but it "
            + "changed under each of "
            + attempts
            + " attempts. Another process writes it at the "
            + "same time; make sure only one broker writes a backup id.");
  }
}
