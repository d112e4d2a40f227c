package io.cairn.backupapi;

/** A restore or verify of a backup that is not in the store. */
public final class BackupNotFoundException extends BackupStoreException {

  private final BackupIdentifier id;

  public BackupNotFoundException(BackupIdentifier id) {
    super("Expected backup " + id + " in the store, but it does not exist");
    this.id = id;
  }

  public BackupIdentifier id() {
    return id;
  }
}
