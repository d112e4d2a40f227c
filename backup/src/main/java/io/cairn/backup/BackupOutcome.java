package io.cairn.backup;

import io.cairn.backupapi.BackupSaveResult;
import java.util.Objects;
import java.util.Optional;

/**
 * How one backup request of a {@link BackupManager} ended.
 *
 * @param checkpointId the backup (= checkpoint) id
 * @param kind what happened
 * @param reason why it failed or was refused; empty otherwise
 * @param saveResult what the store copied and reused, for {@link Kind#COMPLETED}
 */
public record BackupOutcome(
    long checkpointId, Kind kind, Optional<String> reason, Optional<BackupSaveResult> saveResult) {

  /** The ways a backup request ends. */
  public enum Kind {
    /** The backup was saved and its manifest is COMPLETED. */
    COMPLETED,
    /** A backup of this id of the partition is COMPLETED already (by any node): nothing done. */
    ALREADY_COMPLETED,
    /** A backup of this id of the partition exists FAILED or IN_PROGRESS: ids are never reused. */
    REFUSED,
    /** The backup failed; its manifest is FAILED with the reason (never left IN_PROGRESS). */
    FAILED,
    /**
     * The checkpoint, taken through a stamp, turned out to be a marker: nothing was written to the
     * store.
     */
    MARKER
  }

  public BackupOutcome {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(saveResult, "saveResult");
  }

  public static BackupOutcome completed(long checkpointId, BackupSaveResult result) {
    return new BackupOutcome(checkpointId, Kind.COMPLETED, Optional.empty(), Optional.of(result));
  }

  public static BackupOutcome alreadyCompleted(long checkpointId) {
    return new BackupOutcome(
        checkpointId, Kind.ALREADY_COMPLETED, Optional.empty(), Optional.empty());
  }

  public static BackupOutcome refused(long checkpointId, String reason) {
    return new BackupOutcome(checkpointId, Kind.REFUSED, Optional.of(reason), Optional.empty());
  }

  public static BackupOutcome marker(long checkpointId) {
    return new BackupOutcome(checkpointId, Kind.MARKER, Optional.empty(), Optional.empty());
  }

  public static BackupOutcome failed(long checkpointId, String reason) {
    return new BackupOutcome(checkpointId, Kind.FAILED, Optional.of(reason), Optional.empty());
  }
}
