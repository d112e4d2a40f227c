package io.cairn.backups3;

import io.cairn.backupapi.BackupStoreException;
import io.cairn.backups3.client.S3RequestException;

/**
 * The store could not start: the bucket is missing, the credentials are refused, the endpoint does
 * not answer, the server fails its requests, or it lacks a feature the configuration requires. The
 * message and {@link #configKey()} name the configuration key to fix, where a setting is at fault.
 */
public final class S3BackupStoreStartException extends BackupStoreException {

  private final String configKey;
  private final boolean transientFailure;

  public S3BackupStoreStartException(String configKey, String message, Throwable cause) {
    super(message, cause);
    this.configKey = configKey;
    this.transientFailure = cause instanceof S3RequestException request && request.isTransient();
  }

  /**
   * True if the server did not answer, timed out or answered a server error (5xx, throttling) even
   * after the request's retries: the same start may succeed later. False for an answer about the
   * settings (403, no such bucket, a missing feature, bytes read back wrong).
   */
  public boolean isTransient() {
    return transientFailure;
  }

  /**
   * The configuration key the operator most likely has to fix, or null when no setting is at fault:
   * the server answered but failed the request (a server error, throttling), which is also {@link
   * #isTransient()}.
   */
  public String configKey() {
    return configKey;
  }
}
