package io.cairn.backups3;

import io.cairn.backupapi.BackupStoreException;

/**
 * The store could not start: the bucket is missing, the credentials are refused, the endpoint does
 * not answer, or the server lacks a feature the configuration requires. The message and {@link
 * #configKey()} name the configuration key to fix.
 */
public final class S3BackupStoreStartException extends BackupStoreException {

  private final String configKey;

  public S3BackupStoreStartException(String configKey, String message, Throwable cause) {
    super(message, cause);
    this.configKey = configKey;
  }

  /** The configuration key the operator most likely has to fix. */
  public String configKey() {
    return configKey;
  }
}
