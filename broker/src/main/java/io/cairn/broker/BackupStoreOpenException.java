package io.cairn.broker;

/**
 * The configured backup store cannot be opened: the message names the setting to fix and how (the
 * S3 store's start-up checks, a filesystem path). A broker's start reports it as one line; the
 * cause's stack trace is for DEBUG.
 */
public final class BackupStoreOpenException extends IllegalStateException {

  BackupStoreOpenException(String message, Throwable cause) {
    super(message, cause);
  }
}
