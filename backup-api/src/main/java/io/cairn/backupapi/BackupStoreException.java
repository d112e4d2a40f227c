package io.cairn.backupapi;

/**
 * A backup store operation failed. Subclasses name the expected conditions a caller handles; this
 * class itself is an I/O or infrastructure failure (the message names the backup and the object).
 */
public class BackupStoreException extends RuntimeException {

  public BackupStoreException(String message) {
    super(message);
  }

  public BackupStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
