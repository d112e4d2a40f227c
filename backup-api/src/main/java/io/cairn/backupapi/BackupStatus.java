package io.cairn.backupapi;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One partition backup's state in a store.
 *
 * @param id the backup
 * @param statusCode its state
 * @param descriptor present once a save started (absent for a backup that was only marked failed,
 *     and for {@link BackupStatusCode#DOES_NOT_EXIST})
 * @param failureReason present iff {@link BackupStatusCode#FAILED}
 * @param createdAt when the manifest was first written; absent iff it does not exist
 * @param lastUpdatedAt when the manifest last changed; absent iff it does not exist
 */
public record BackupStatus(
    BackupIdentifier id,
    BackupStatusCode statusCode,
    Optional<BackupDescriptor> descriptor,
    Optional<String> failureReason,
    Optional<Instant> createdAt,
    Optional<Instant> lastUpdatedAt) {

  public BackupStatus {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(statusCode, "statusCode");
    Objects.requireNonNull(descriptor, "descriptor");
    Objects.requireNonNull(failureReason, "failureReason");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(lastUpdatedAt, "lastUpdatedAt");
    if (failureReason.isPresent() != (statusCode == BackupStatusCode.FAILED)) {
      throw new IllegalArgumentException(
          "Expected a failure reason iff the status is FAILED, but status was " + statusCode
              + " and reason " + failureReason + " (" + id + ")");
    }
    boolean exists = statusCode != BackupStatusCode.DOES_NOT_EXIST;
    if (createdAt.isPresent() != exists || lastUpdatedAt.isPresent() != exists) {
      throw new IllegalArgumentException(
          "Expected timestamps iff the backup exists, but status was " + statusCode
              + " with createdAt " + createdAt + " and lastUpdatedAt " + lastUpdatedAt
              + " (" + id + ")");
    }
    if (!exists && descriptor.isPresent()) {
      throw new IllegalArgumentException(
          "Expected no descriptor for a backup that does not exist (" + id + ")");
    }
    if (statusCode == BackupStatusCode.COMPLETED && descriptor.isEmpty()) {
      throw new IllegalArgumentException(
          "Expected a descriptor for a COMPLETED backup, but it has none (" + id + ")");
    }
    descriptor.ifPresent(
        d -> {
          if (!d.identifier().equals(id)) {
            throw new IllegalArgumentException(
                "Expected the descriptor of " + id + ", but it describes " + d.identifier());
          }
        });
  }

  /** The status of a backup that is not in the store. */
  public static BackupStatus doesNotExist(BackupIdentifier id) {
    return new BackupStatus(
        id,
        BackupStatusCode.DOES_NOT_EXIST,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty());
  }

  public boolean exists() {
    return statusCode != BackupStatusCode.DOES_NOT_EXIST;
  }
}
