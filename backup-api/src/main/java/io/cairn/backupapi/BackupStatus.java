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
          "Expected a failure reason iff the status is FAILED, but status was "
              + statusCode
              + " and reason "
              + failureReason
              + " ("
              + id
              + ")");
    }
    boolean exists = statusCode != BackupStatusCode.DOES_NOT_EXIST;
    if (createdAt.isPresent() != exists || lastUpdatedAt.isPresent() != exists) {
      throw new IllegalArgumentException(
          "Expected timestamps iff the backup exists, but status was "
              + statusCode
              + " with createdAt "
              + createdAt
              + " and lastUpdatedAt "
              + lastUpdatedAt
              + " ("
              + id
              + ")");
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

  /**
   * How the failure reason of {@link #unreadableManifest} starts; tells an unreadable manifest
   * apart from a backup whose save failed or that was marked failed.
   */
  public static final String UNREADABLE_MANIFEST_REASON = "Unreadable manifest: ";

  /**
   * The status a listing gives a backup whose manifest exists but cannot be trusted (unparseable,
   * of an unknown major version, inconsistent): FAILED, without descriptor, with a reason that
   * starts with {@link #UNREADABLE_MANIFEST_REASON} and names the manifest and what is wrong. Such
   * a backup can never be restored; delete it to clear it.
   *
   * @param error why the manifest cannot be trusted
   * @param lastModifiedAt when the manifest was last written, as the storage reports it (used for
   *     both timestamps: the manifest's own ones cannot be read)
   */
  public static BackupStatus unreadableManifest(
      BackupIdentifier id, ManifestException error, Instant lastModifiedAt) {
    String message = error.getMessage() == null ? error.toString() : error.getMessage();
    if (!message.contains(error.manifest())) {
      message = message + " (manifest " + error.manifest() + ")";
    }
    return new BackupStatus(
        id,
        BackupStatusCode.FAILED,
        Optional.empty(),
        Optional.of(
            UNREADABLE_MANIFEST_REASON
                + message
                + (message.endsWith(".") ? "" : ".")
                + " It can never be restored; delete this backup to clear it."),
        Optional.of(lastModifiedAt),
        Optional.of(lastModifiedAt));
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

  /**
   * Whether this is a listed backup whose manifest cannot be read ({@link #unreadableManifest}).
   */
  public boolean isManifestUnreadable() {
    return failureReason.map(r -> r.startsWith(UNREADABLE_MANIFEST_REASON)).orElse(false);
  }
}
