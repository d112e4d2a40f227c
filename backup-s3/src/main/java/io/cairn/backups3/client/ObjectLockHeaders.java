package io.cairn.backups3.client;

import io.cairn.backups3.ObjectLock;
import io.cairn.scheduler.Clock;
import java.time.Instant;
import java.util.Objects;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.ObjectLockMode;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * The object lock headers ({@code x-amz-object-lock-mode}, {@code
 * x-amz-object-lock-retain-until-date}) of every request that creates an object: the retention ends
 * {@code lock.period()} after the request is built.
 */
public record ObjectLockHeaders(ObjectLock lock, Clock clock) {

  public ObjectLockHeaders {
    Objects.requireNonNull(lock, "lock");
    Objects.requireNonNull(clock, "clock");
  }

  /** When an object written now stops being locked. */
  public Instant retainUntil() {
    return clock.instant().plus(lock.period());
  }

  private ObjectLockMode mode() {
    return lock.mode() == ObjectLock.Mode.COMPLIANCE
        ? ObjectLockMode.COMPLIANCE
        : ObjectLockMode.GOVERNANCE;
  }

  public PutObjectRequest.Builder apply(PutObjectRequest.Builder b) {
    return b.objectLockMode(mode()).objectLockRetainUntilDate(retainUntil());
  }

  public CreateMultipartUploadRequest.Builder apply(CreateMultipartUploadRequest.Builder b) {
    return b.objectLockMode(mode()).objectLockRetainUntilDate(retainUntil());
  }

  public CopyObjectRequest.Builder apply(CopyObjectRequest.Builder b) {
    return b.objectLockMode(mode()).objectLockRetainUntilDate(retainUntil());
  }
}
