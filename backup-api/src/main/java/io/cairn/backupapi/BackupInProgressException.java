package io.cairn.backupapi;

/** A delete of a backup that is still being saved. Mark it failed first, or wait for it to end. */
public final class BackupInProgressException extends BackupStoreException {

  private final BackupIdentifier id;

  public BackupInProgressException(BackupIdentifier id, String detail) {
    super(
        "Expected backup "
            + id
            + " not to be in progress, but "
            + detail
            + ". Mark it failed or wait until its save ends, then delete it.");
    this.id = id;
  }

  public BackupIdentifier id() {
    return id;
  }
}
