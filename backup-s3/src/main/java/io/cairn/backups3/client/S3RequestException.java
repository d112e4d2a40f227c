package io.cairn.backups3.client;

import io.cairn.backupapi.BackupStoreException;
import io.cairn.scheduler.Futures;

/**
 * An S3 call that failed for good: a final error, or a transient one that outlasted every attempt.
 * The message names the call, the object and what the server (or the network) said.
 */
public final class S3RequestException extends BackupStoreException {

  private final String operation;
  private final String target;
  private final int statusCode;
  private final String errorCode;
  private final boolean isTransient;
  private final int attempts;

  S3RequestException(String operation, String target, Throwable cause, int attempts) {
    super(
        "Expected "
            + operation
            + " of "
            + target
            + " to succeed, but "
            + S3Errors.describe(cause)
            + (attempts > 1 ? " (after " + attempts + " attempts)" : ""),
        Futures.unwrap(cause));
    this.operation = operation;
    this.target = target;
    this.statusCode = S3Errors.status(cause);
    this.errorCode = S3Errors.code(cause);
    this.isTransient = S3Errors.isTransient(cause);
    this.attempts = attempts;
  }

  public String operation() {
    return operation;
  }

  /** The object or bucket, as {@code s3://bucket/key}. */
  public String target() {
    return target;
  }

  /** HTTP status, or -1 when the server gave no answer. */
  public int statusCode() {
    return statusCode;
  }

  public String errorCode() {
    return errorCode;
  }

  /** True when the last attempt failed transiently (the retries ran out). */
  public boolean isTransient() {
    return isTransient;
  }

  public int attempts() {
    return attempts;
  }

  public boolean isNotFound() {
    return S3Errors.isNotFound(this);
  }

  public boolean isPreconditionFailed() {
    return S3Errors.isPreconditionFailed(this);
  }
}
