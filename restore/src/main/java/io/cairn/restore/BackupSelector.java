package io.cairn.restore;

/**
 * Which backup to restore or verify: an exact backup id, or {@link Latest} — the backup with the
 * highest id that is COMPLETED on every partition of the cluster.
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
