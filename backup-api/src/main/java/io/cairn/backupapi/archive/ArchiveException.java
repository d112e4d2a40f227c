package io.cairn.backupapi.archive;

import io.cairn.backupapi.BackupStoreException;

/**
 * The log archive cannot be trusted or used as asked: a link or chunk that does not decode or does
 * not match its checksum, a chain with a gap or a fork. The message names the partition, the object
 * and the indexes concerned.
 */
public final class ArchiveException extends BackupStoreException {

  public ArchiveException(String message) {
    super(message);
  }

  public ArchiveException(String message, Throwable cause) {
    super(message, cause);
  }
}
