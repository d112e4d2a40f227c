package io.cairn.restore;

import java.time.Instant;
import java.util.Objects;

/**
 * Which backup to restore or verify: an exact backup id, or {@link Latest} — the backup with the
 * highest id that is COMPLETED on every partition of the cluster; or, for a restore, a restore
 * point of the log archive ({@link ToCheckpoint}, {@link ToTime}): the newest backup before it plus
 * the archived log up to it.
 */
public sealed interface BackupSelector {

  /** A backup id (= checkpoint id), at least 1. */
  record Exact(long backupId) implements BackupSelector {
    public Exact {
      if (backupId < 1) {
        throw new IllegalArgumentException(
            "Expected a backup id >= 1, but was " + backupId + " (backup selector)");
      }
    }

    @Override
    public String toString() {
      return Long.toString(backupId);
    }
  }

  /** Restore point {@code checkpointId}: the archive must hold it on every partition. */
  record ToCheckpoint(long checkpointId) implements BackupSelector {
    public ToCheckpoint {
      if (checkpointId < 1) {
        throw new IllegalArgumentException(
            "Expected a checkpoint id >= 1, but was " + checkpointId + " (restore point)");
      }
    }

    @Override
    public String toString() {
      return "restore point " + checkpointId;
    }
  }

  /** The newest restore point at or before {@code time} on every partition. */
  record ToTime(Instant time) implements BackupSelector {
    public ToTime {
      Objects.requireNonNull(time, "time");
    }

    @Override
    public String toString() {
      return "the newest restore point at or before " + time;
    }
  }

  /** Whether this selects a restore point of the log archive rather than a backup. */
  default boolean isPointInTime() {
    return this instanceof ToCheckpoint || this instanceof ToTime;
  }

  /** The newest backup completed on every partition. */
  record Latest() implements BackupSelector {
    @Override
    public String toString() {
      return "latest";
    }
  }

  static BackupSelector exact(long backupId) {
    return new Exact(backupId);
  }

  static BackupSelector latest() {
    return new Latest();
  }

  /**
   * Reads {@code latest} or a positive decimal id, as a command line gives it.
   *
   * @throws IllegalArgumentException naming the value otherwise
   */
  static BackupSelector parse(String value) {
    if (value == null) {
      throw new IllegalArgumentException("Expected a backup id or 'latest', but was null");
    }
    String trimmed = value.trim();
    if (trimmed.equalsIgnoreCase("latest")) {
      return latest();
    }
    try {
      return exact(Long.parseLong(trimmed));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "Expected a backup id (a positive integer) or 'latest', but was '" + value + "'", e);
    }
  }
}
