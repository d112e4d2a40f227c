package io.cairn.backupapi;

/**
 * A save of a backup id that is in the store already, in any state. Backups are never overwritten.
 */
public final class BackupAlreadyExistsException extends BackupStoreException {

  private final BackupIdentifier id;
  private final BackupStatusCode existingStatus;

  public BackupAlreadyExistsException(BackupIdentifier id, BackupStatusCode existingStatus) {
    super(
        "Expected no backup "
            + id
            + " in the store, but one exists with status "
            + existingStatus
            + ". Backups are never overwritten; take a backup with a new id.");
    this.id = id;
    this.existingStatus = existingStatus;
  }

  public BackupIdentifier id() {
    return id;
  }

  public BackupStatusCode existingStatus() {
    return existingStatus;
  }
}
