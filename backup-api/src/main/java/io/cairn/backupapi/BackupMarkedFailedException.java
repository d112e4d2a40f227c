package io.cairn.backupapi;

/**
 * A save whose backup was marked FAILED (or deleted) while its contents were being stored. The
 * backup stays FAILED; it never becomes COMPLETED.
 */
public final class BackupMarkedFailedException extends BackupStoreException {

  private final BackupIdentifier id;

  public BackupMarkedFailedException(BackupIdentifier id, String reason) {
    super(
        "Expected backup "
            + id
            + " to still be IN_PROGRESS when its contents were stored, but "
            + reason
            + "; it was not completed");
    this.id = id;
  }

  public BackupIdentifier id() {
    return id;
  }
}
