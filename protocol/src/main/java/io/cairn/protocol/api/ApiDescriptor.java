package io.cairn.protocol.api;

/**
 * The byte layouts of the broker ↔ gateway messages. Every payload starts with the version byte
 * {@link #VERSION}; multi-byte numbers are little-endian; a {@code string} is an {@code int32} byte
 * length followed by that many bytes of strict UTF-8; a {@code bool} is one byte, 0 or 1.
 *
 * <pre>
 * every response      : version u8 | status u8 | body when status = OK
 *                        else leaderNodeId i32 (-1 = unknown; meaningful for NOT_LEADER) | reason string
 *
 * cairn-command       request : version | partitionId i32 | command RECORD (RecordCodec, fills the rest)
 *                     OK body : response RECORD (EVENT or REJECTION, fills the rest)
 * cairn-query-account request : version | partitionId i32 | accountId string (1..128 bytes)
 *                     OK body : found bool | balance i64 (0 when not found)
 * cairn-topology      request : version
 *                     OK body : nodeId i32 | clusterId string | brokerVersion string
 *                               | partitionCount i32 | replicationFactor i32 | replicaCount i32
 *                               | replicaCount × (partitionId i32 | role u8 | term i64 | health u8
 *                                                 | healthReason string)
 * cairn-backup        request : version | operation u8 | checkpointId i64 | pattern string
 *                               | pageToken string | pageSize i32
 *                     OK body : entryCount i32 | entryCount × ENTRY | nextPageToken string
 *    ENTRY            : nodeId i32 | partitionId i32 | checkpointId i64 | state u8
 *                               | failureReason string | createdAtMs i64 | lastUpdatedAtMs i64
 *                               | hasDescriptor bool | (when true) checkpointPosition i64
 *                               | snapshotId string | numberOfPartitions i32 | brokerVersion string
 *                               | stateDigest string | fileCount i32 | sizeBytes i64
 * cairn-exporting     request : version | operation u8
 *                     OK body : paused bool
 * cairn-backup-schedule request : version
 *                     OK body : nodeId i32 | intervalMs i64 | nextRunMs i64 | nextBackupId i64
 *                               | consecutiveFailures i32 | hasLastRun bool | (when true)
 *                               backupId i64 | startedMs i64 | finishedMs i64 | outcome string
 *                               | attempt i32 | detail string
 *                               | hasRetention bool | (when true) maxCount i32 (0 = none)
 *                               | maxAgeMs i64 (0 = none) | minCount i32 | hasPass bool
 *                               | (when true) finishedMs i64 | kept i32 | idCount i32
 *                               | idCount × deletedId i64 | failure string | lockedCount i32
 *                               | lockedCount × (backupId i64 | lockedUntilMs i64)
 *                               | hasMarkers bool | (when true) intervalMs i64
 *                               | failuresInARow i32 | hasLastMarker bool | (when true)
 *                               markerId i64 | finishedMs i64 | outcome string | detail string
 *                               | cron string (0..256 bytes; empty for an interval schedule)
 * </pre>
 *
 * <p>Strings are bounded ({@code *_MAX_BYTES}); lists are bounded by a count limit and by the bytes
 * present, checked before anything is allocated.
 */
public final class ApiDescriptor {

  /** The version byte every payload starts with. */
  public static final int VERSION = 1;

  /** Message type of a ledger command (or a checkpoint command) for one partition's leader. */
  public static final String TYPE_COMMAND = "cairn-command";

  /** Message type of an account balance query to one partition's leader. */
  public static final String TYPE_QUERY_ACCOUNT = "cairn-query-account";

  /** Message type of a broker's topology (its node id and the partitions it hosts). */
  public static final String TYPE_TOPOLOGY = "cairn-topology";

  /** Message type of a backup query (status, list, delete) answered from the backup store. */
  public static final String TYPE_BACKUP = "cairn-backup";

  /** Message type of exporting control (pause, resume, status) of a broker's partitions. */
  public static final String TYPE_EXPORTING = "cairn-exporting";

  /** The backup schedule's state, from the broker running it: {@link BackupScheduleCodec}. */
  public static final String TYPE_BACKUP_SCHEDULE = "cairn-backup-schedule";

  /**
   * A restore through the API: start one on a broker waiting in restore mode, or ask how it stands
   * ({@link RestoreCodec}).
   */
  public static final String TYPE_RESTORE = "cairn-restore";

  /**
   * The newest restore points of the log archive, read from the backup store by any broker ({@link
   * RestorePointsCodec}).
   */
  public static final String TYPE_RESTORE_POINTS = "cairn-restore-points";

  /** No known leader, in a {@code NOT_LEADER} failure. */
  public static final int NO_NODE_ID = -1;

  /** The highest partition id (and so partition count) the ledger keys can address. */
  public static final int PARTITION_ID_MAX = (1 << 15) - 1;

  /** Bytes of UTF-8 of a failure reason or a partition's health reason. */
  public static final int REASON_MAX_BYTES = 4096;

  /** Bytes of UTF-8 of a cluster id, a broker version or a snapshot id. */
  public static final int NAME_MAX_BYTES = 256;

  /** Bytes of UTF-8 of a state digest (lowercase hex). */
  public static final int STATE_DIGEST_MAX_BYTES = 256;

  /** Bytes of UTF-8 of a checkpoint pattern ({@code *}, {@code 12}, {@code 12*}). */
  public static final int PATTERN_MAX_BYTES = 64;

  /** Bytes of UTF-8 of a page token. */
  public static final int PAGE_TOKEN_MAX_BYTES = 1024;

  /** The most statuses one {@code cairn-backup} listing page asks for. */
  public static final int PAGE_SIZE_MAX = 1000;

  /** The most entries one {@code cairn-backup} response carries. */
  public static final int BACKUP_ENTRIES_MAX = 100_000;

  /** The most partition replicas one topology response carries. */
  public static final int REPLICAS_MAX = PARTITION_ID_MAX;

  private ApiDescriptor() {}
}
