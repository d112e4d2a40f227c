package io.cairn.protocol.api;

import java.util.Objects;

/**
 * A backup query to any broker ({@link ApiDescriptor#TYPE_BACKUP}), answered from the backup store
 * all partition leaders write to. Build it with {@link #status}, {@link #list} or {@link #delete}.
 *
 * @param operation what is asked
 * @param checkpointId the backup id ({@code >= 1}) for STATUS and DELETE; 0 for LIST
 * @param pattern for LIST a checkpoint pattern ({@code *}, {@code 12}, {@code 12*}; the broker
 *     checks the syntax and answers INVALID), 1 to {@link ApiDescriptor#PATTERN_MAX_BYTES} bytes;
 *     empty otherwise
 * @param pageToken for LIST the previous response's next-page token, empty for the first page (at
 *     most {@link ApiDescriptor#PAGE_TOKEN_MAX_BYTES} bytes); empty otherwise
 * @param pageSize for LIST the most statuses to return, in [1, {@link
 *     ApiDescriptor#PAGE_SIZE_MAX}]; 0 otherwise
 */
public record BackupRequest(
    BackupOperation operation, long checkpointId, String pattern, String pageToken, int pageSize) {

  public BackupRequest {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(pattern, "pattern");
    Objects.requireNonNull(pageToken, "pageToken");
    String violation = violation(operation, checkpointId, pattern, pageToken, pageSize);
    if (violation != null) {
      throw new IllegalArgumentException(violation + " (backup request " + operation + ")");
    }
  }

  /** Asks for every partition's status of backup {@code checkpointId}. */
  public static BackupRequest status(long checkpointId) {
    return new BackupRequest(BackupOperation.STATUS, checkpointId, "", "", 0);
  }

  /** Asks for one page of statuses of the backups matching {@code pattern}. */
  public static BackupRequest list(String pattern, String pageToken, int pageSize) {
    return new BackupRequest(BackupOperation.LIST, 0, pattern, pageToken, pageSize);
  }

  /** Asks to delete every partition's backup {@code checkpointId}. */
  public static BackupRequest delete(long checkpointId) {
    return new BackupRequest(BackupOperation.DELETE, checkpointId, "", "", 0);
  }

  private static String violation(
      BackupOperation operation,
      long checkpointId,
      String pattern,
      String pageToken,
      int pageSize) {
    if (operation == BackupOperation.LIST) {
      if (checkpointId != 0) {
        return "Expected checkpointId 0, but was " + checkpointId;
      }
      if (pattern.isEmpty()) {
        return "Expected a non-empty pattern, but was empty";
      }
      if (pageSize < 1 || pageSize > ApiDescriptor.PAGE_SIZE_MAX) {
        return "Expected pageSize in [1, " + ApiDescriptor.PAGE_SIZE_MAX + "], but was " + pageSize;
      }
      return null;
    }
    if (checkpointId < 1) {
      return "Expected checkpointId >= 1, but was " + checkpointId;
    }
    if (!pattern.isEmpty() || !pageToken.isEmpty() || pageSize != 0) {
      return "Expected no pattern, page token or page size, but was '"
          + pattern
          + "', '"
          + pageToken
          + "', "
          + pageSize;
    }
    return null;
  }
}
