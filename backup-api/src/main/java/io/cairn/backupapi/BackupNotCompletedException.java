package io.cairn.backupapi;

/** A restore or verify of a backup that exists but is not COMPLETED. */
public final class BackupNotCompletedException extends BackupStoreException {

  private final BackupIdentifier id;
  private final BackupStatusCode status;

  public BackupNotCompletedException(BackupIdentifier id, BackupStatusCode status, String detail) {
    super("Expected backup " + id + " to be COMPLETED, but it is " + status + detail);
    this.id = id;
    this.status = status;
  }

  public BackupIdentifier id() {
    return id;
  }

  public BackupStatusCode status() {
    return status;
  }
}
