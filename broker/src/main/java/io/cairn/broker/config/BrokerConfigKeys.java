package io.cairn.broker.config;

import static io.cairn.config.ValueParser.bool;
import static io.cairn.config.ValueParser.duration;
import static io.cairn.config.ValueParser.integer;
import static io.cairn.config.ValueParser.integerOneOf;
import static io.cairn.config.ValueParser.oneOf;
import static io.cairn.config.ValueParser.path;
import static io.cairn.config.ValueParser.size;
import static io.cairn.config.ValueParser.text;

import io.cairn.backup.schedule.CronExpression;
import io.cairn.backups3.S3BackupStoreConfig;
import io.cairn.broker.PartitionDistribution;
import io.cairn.broker.api.limit.CommandLimitConfig;
import io.cairn.config.ConfigCatalogue;
import io.cairn.config.ConfigGroup;
import io.cairn.config.ConfigKey;
import io.cairn.config.ConfigValueException;
import io.cairn.config.ValueParser;
import io.cairn.transport.MemberAddress;
import io.cairn.units.ByteSizes;
import io.cairn.units.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Every key of the broker's configuration file, with its default, its allowed range and its
 * environment variable ({@link ConfigKey#envName()}). The README's key table lists exactly these (a
 * test checks it). The cluster's members are the one map-valued key: {@code cluster.members.<id>}
 * ({@code CAIRN_CLUSTER_MEMBERS_<id>}).
 */
public final class BrokerConfigKeys {

  private static final List<ConfigKey<?>> KEYS = new ArrayList<>();

  /** The sections; environment variables {@code CAIRN_<SECTION>_...} are checked strictly. */
  public static final Set<String> SECTIONS =
      Set.of(
          "cluster", "network", "data", "backup", "management", "processing", "raft", "security");

  /** The map of members: {@code cluster.members.<nodeId>: host:port}. */
  public static final String MEMBERS = "cluster.members";

  /** The members group: node ids in [0, 1023] to {@code host:port}. */
  public static final ConfigGroup MEMBERS_GROUP =
      ConfigGroup.values(
          MEMBERS,
          integer(0, 1023),
          "every broker of the cluster, node id to host:port (or a list in node id order)");

  /** The exporters: {@code exporters: [{id, type | className, args: {...}}]}. */
  public static final String EXPORTERS = "exporters";

  /** The exporter field naming a built-in type ({@code jsonl}). */
  public static final String EXPORTER_TYPE = "type";

  /** The exporter field naming an exporter class. */
  public static final String EXPORTER_CLASS_NAME = "className";

  /** The exporter field holding its arguments. */
  public static final String EXPORTER_ARGS = "args";

  /** The exporters group: id (1 to 32 of [a-z0-9-]) to {type | className, args}. */
  public static final ConfigGroup EXPORTERS_GROUP =
      ConfigGroup.sections(
          EXPORTERS,
          text(Pattern.compile("[a-z0-9-]{1,32}"), "1 to 32 of [a-z0-9-]"),
          List.of(EXPORTER_TYPE, EXPORTER_CLASS_NAME),
          EXPORTER_ARGS,
          "exporters fed every committed record on partition leaders");

  /** A member's address: {@code host:port} with a port in [1, 65535]. */
  static final ValueParser<MemberAddress> MEMBER_ADDRESS =
      ValueParser.hostAndPort().map(address -> new MemberAddress(address.host(), address.port()));

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final Pattern HOST = Pattern.compile("[^\\s]{1,253}");
  private static final Pattern ANY = Pattern.compile(".*", Pattern.DOTALL);
  private static final Pattern NON_BLANK = Pattern.compile("(?s).*\\S.*");

  // ---- cluster ------------------------------------------------------------------------------
  public static final ConfigKey<String> CLUSTER_ID =
      key(
          "cluster.clusterId",
          "cairn",
          text(NAME, "1 to 64 of [A-Za-z0-9._-]"),
          "names the cluster; recorded in node.json");
  public static final ConfigKey<Integer> NODE_ID =
      key("cluster.nodeId", "0", integer(0, 1023), "this broker's id; a key of cluster.members");
  public static final ConfigKey<Integer> PARTITION_COUNT =
      key(
          "cluster.partitionCount",
          "1",
          integer(1, PartitionDistribution.PARTITION_COUNT_MAX),
          "partitions of the cluster; fixed for the life of the data");
  public static final ConfigKey<Integer> REPLICATION_FACTOR =
      key(
          "cluster.replicationFactor",
          "1",
          integerOneOf(PartitionDistribution.REPLICATION_FACTORS),
          "brokers per partition, at most the number of members");

  // ---- network ------------------------------------------------------------------------------
  public static final ConfigKey<String> NETWORK_HOST =
      key("network.host", "127.0.0.1", text(HOST, "a host name or IP address"), "bind address");
  public static final ConfigKey<Integer> NETWORK_PORT =
      key("network.port", "26502", integer(0, 65_535), "bind port; 0 = ephemeral");
  public static final ConfigKey<Long> NETWORK_MAX_FRAME_SIZE =
      key(
          "network.maxFrameSize",
          "4MB",
          size(2L * 1024 * 1024, 256L * 1024 * 1024, false),
          "largest message (a raft append carries log batches of up to 1MB); the same on every"
              + " member and gateway");
  public static final ConfigKey<Duration> NETWORK_CONNECT_TIMEOUT =
      key(
          "network.connectTimeout",
          "5s",
          duration(Duration.ofMillis(1), Duration.ofMinutes(5)),
          "TCP connect timeout");
  public static final ConfigKey<Duration> NETWORK_REQUEST_TIMEOUT =
      key(
          "network.requestTimeout",
          "5s",
          duration(Duration.ofMillis(10), Duration.ofMinutes(5)),
          "broker-to-broker requests (topology, inter-partition commands)");
  public static final ConfigKey<Integer> NETWORK_IO_THREADS =
      key("network.ioThreads", "2", integer(1, 64), "netty event loop threads");

  // ---- data ---------------------------------------------------------------------------------
  public static final ConfigKey<String> DATA_DIRECTORY =
      key(
          "data.directory",
          "data",
          path("a directory path"),
          "the node's data; relative to the working directory");
  public static final ConfigKey<Long> DATA_SEGMENT_SIZE =
      key(
          "data.segmentSize",
          "128MB",
          size(4096, 1024L * 1024 * 1024, false),
          "raft log segment size; must hold data.maxBatchSize plus 32 bytes");
  public static final ConfigKey<Long> DATA_MAX_BATCH_SIZE =
      key(
          "data.maxBatchSize",
          "1MB",
          size(1024, 1024L * 1024, false),
          "the largest batch of records appended to the log at once (a client's command batch"
              + " too); lower it to use segments smaller than 1MB");
  public static final ConfigKey<Boolean> DATA_PREALLOCATE_SEGMENTS =
      key("data.preallocateSegments", "true", bool(), "allocate segment files at full size");
  public static final ConfigKey<Duration> DATA_SNAPSHOT_INTERVAL =
      key(
          "data.snapshotInterval",
          "5m",
          duration(Duration.ofSeconds(1), Duration.ofDays(1)),
          "how often each partition takes a snapshot");
  public static final ConfigKey<Integer> DATA_SNAPSHOTS_TO_KEEP =
      key(
          "data.snapshotsToKeep",
          "1",
          integer(1, 100),
          "newest snapshots kept (plus those reserved by backups)");
  public static final ConfigKey<Boolean> DATA_RESTORE_MODE =
      key(
          "data.restoreMode",
          "false",
          bool(),
          "while the data directory is empty, wait for a restore through the gateway's API"
              + " (POST /actuator/restore) instead of starting empty; needs backup.store");

  // ---- backup -------------------------------------------------------------------------------
  public static final ConfigKey<Boolean> BACKUP_ENABLED =
      key(
          "backup.enabled",
          "true",
          bool(),
          "false: checkpoints are still taken, but no backup is written and queries answer"
              + " that backups are disabled");
  public static final ConfigKey<BackupStoreType> BACKUP_STORE =
      key(
          "backup.store",
          "none",
          oneOf(BackupStoreType.byName()),
          "where backups go: none, fs (a directory) or s3");
  public static final ConfigKey<Integer> BACKUP_UPLOAD_CONCURRENCY =
      key(
          "backup.uploadConcurrency",
          "2",
          integer(1, 64),
          "threads reading files for backups, and threads of the filesystem store (at least"
              + " backup.fs.maxConcurrentFileCopies)");
  public static final ConfigKey<Long> BACKUP_MAX_BYTES_PER_SECOND =
      key(
          "backup.maxBytesPerSecond",
          "0",
          size(64 * 1024, 1L << 40, true),
          "bytes/s written into the store: the filesystem store's throttle (all backups"
              + " together; the S3 store's unless backup.s3.maxBytesPerSecond is set) and each"
              + " partition's average between backups; 0 = unlimited");
  public static final ConfigKey<Integer> BACKUP_MAX_CONCURRENT =
      key(
          "backup.maxConcurrentBackups",
          "1",
          integer(1, 16),
          "backups of one partition uploading at once");
  public static final ConfigKey<Integer> BACKUP_MAX_PENDING =
      key(
          "backup.maxPendingBackups",
          "16",
          integer(1, 1000),
          "backups of one partition waiting; one more fails at once");
  public static final ConfigKey<Duration> BACKUP_SCHEDULE_INTERVAL =
      key(
          "backup.schedule.interval",
          null,
          duration(Duration.ofSeconds(1), Duration.ofDays(366)),
          "take a backup at every multiple of this interval (UTC), its id the slot's start in"
              + " epoch milliseconds; run by the leader of partition 1. Unset: backups are taken"
              + " by hand only");
  public static final ConfigKey<CronExpression> BACKUP_SCHEDULE_CRON =
      key(
          "backup.schedule.cron",
          null,
          cron(),
          "take a backup at every firing of this cron expression (UTC), e.g. '0 2 * * *' every"
              + " day at 02:00, its id the firing's time in epoch milliseconds; instead of"
              + " backup.schedule.interval");
  public static final ConfigKey<Duration> BACKUP_SCHEDULE_MARKER_INTERVAL =
      key(
          "backup.schedule.markerInterval",
          null,
          duration(Duration.ofSeconds(1), Duration.ofDays(366)),
          "take a marker (a checkpoint without a backup: a restore point of the log archive) at"
              + " every multiple of this interval, below backup.schedule.interval; one close to a"
              + " backup is merged into it. Needs backup.archive.enabled. Unset: no markers");
  public static final ConfigKey<Integer> BACKUP_RETENTION_MAX_COUNT =
      key(
          "backup.retention.maxCount",
          null,
          integer(1, 1_000_000),
          "keep at most this many completed backups; older ones are deleted after each scheduled"
              + " run (needs backup.schedule.interval). Unset: no count limit");
  public static final ConfigKey<Duration> BACKUP_RETENTION_MAX_AGE =
      key(
          "backup.retention.maxAge",
          null,
          duration(Duration.ofMinutes(1), Duration.ofDays(36_600)),
          "delete completed backups older than this after each scheduled run (needs"
              + " backup.schedule.interval). Unset: no age limit");
  public static final ConfigKey<Integer> BACKUP_RETENTION_MIN_COUNT =
      key(
          "backup.retention.minCount",
          "1",
          integer(1, 1_000_000),
          "completed backups always kept, whatever their age (at most backup.retention.maxCount)."
              + " The newest restorable backup is never deleted");
  public static final ConfigKey<Boolean> BACKUP_ARCHIVE_ENABLED =
      key(
          "backup.archive.enabled",
          "false",
          bool(),
          "copy every partition's committed log into the backup store as it is committed (the"
              + " continuous log archive: restore points between backups); needs a store");
  public static final ConfigKey<Duration> BACKUP_ARCHIVE_INTERVAL =
      key(
          "backup.archive.interval",
          "1s",
          duration(Duration.ofMillis(100), Duration.ofHours(1)),
          "the longest a committed record waits before the partition leader archives it");
  public static final ConfigKey<Long> BACKUP_ARCHIVE_MAX_UNARCHIVED_BYTES =
      key(
          "backup.archive.maxUnarchivedBytes",
          "2GB",
          size(64L * 1024 * 1024, 1L << 40, false),
          "the most journal bytes log compaction waits for while they are not archived (the"
              + " store down or slow); beyond it compaction goes on, the archive gets a gap and the"
              + " partition reports UNHEALTHY");
  public static final ConfigKey<String> BACKUP_ENCRYPTION_KEY_FILE =
      key(
          "backup.encryption.keyFile",
          null,
          path("a file of <id>=<base64 of 32 bytes> lines, readable by its owner only"),
          "master keys that encrypt backups client-side, in every store; unset (and no"
              + " backup.encryption.keys): backups are not encrypted");
  public static final ConfigKey<String> BACKUP_ENCRYPTION_KEYS =
      secretKey(
          "backup.encryption.keys",
          text(NON_BLANK, "<id>=<base64 of 32 bytes> entries separated by ';' or newlines"),
          "the master keys themselves, instead of a key file (redacted in logs)");
  public static final ConfigKey<String> BACKUP_ENCRYPTION_KEY_ID =
      key(
          "backup.encryption.keyId",
          null,
          text(NAME, "1 to 64 of A-Z a-z 0-9 . _ -, a key of the ring"),
          "the master key that wraps new backups' data keys; unset: the ring's only key. Older"
              + " keys stay in the ring to restore older backups");
  public static final ConfigKey<String> BACKUP_FS_BASE_PATH =
      key(
          "backup.fs.basePath",
          null,
          path("an existing, writable directory"),
          "required with store fs");
  public static final ConfigKey<String> BACKUP_FS_COMPRESSION =
      key("backup.fs.compression", "none", oneOf(names("none", "zstd")), "none or zstd");
  public static final ConfigKey<Long> BACKUP_FS_COMPRESSION_THRESHOLD =
      key(
          "backup.fs.compressionThreshold",
          "64KB",
          size(0, 1L << 40, false),
          "with zstd, files of at least this size are compressed");
  public static final ConfigKey<Integer> BACKUP_FS_ZSTD_LEVEL =
      key("backup.fs.zstdLevel", "3", integer(1, 19), "zstd level");
  public static final ConfigKey<Integer> BACKUP_FS_MAX_CONCURRENT_FILE_COPIES =
      key(
          "backup.fs.maxConcurrentFileCopies",
          null,
          integer(1, 16),
          "files of one backup copied at once, at most backup.uploadConcurrency; unset:"
              + " backup.uploadConcurrency (at most 16)");

  /** The S3 store's keys ({@code backup.s3.<key>}), checked by the store's own parser. */
  public static final Map<String, ConfigKey<String>> S3_KEYS = s3Keys();

  // ---- management ---------------------------------------------------------------------------
  public static final ConfigKey<Boolean> MANAGEMENT_ENABLED =
      key("management.enabled", "true", bool(), "serve /metrics, /health and /ready");
  public static final ConfigKey<String> MANAGEMENT_HOST =
      key(
          "management.host",
          "127.0.0.1",
          text(HOST, "a host name or IP address"),
          "management HTTP bind address");
  public static final ConfigKey<Integer> MANAGEMENT_PORT =
      key("management.port", "9600", integer(0, 65_535), "management HTTP port; 0 = ephemeral");

  // ---- processing ---------------------------------------------------------------------------
  public static final ConfigKey<Integer> PROCESSING_MAX_IN_FLIGHT_COMMANDS =
      key(
          "processing.maxInFlightCommands",
          "10000",
          integer(1, 1_000_000),
          "client commands written and not answered yet on the whole broker, a memory bound above"
              + " the partitions' command limits; more answer BACKPRESSURE");
  public static final ConfigKey<CommandLimitConfig.Algorithm> PROCESSING_COMMAND_LIMIT_ALGORITHM =
      key(
          "processing.commandLimit.algorithm",
          "aimd",
          oneOf(algorithms()),
          "how each partition's limit of client commands in flight moves: aimd (against"
              + " targetLatency), gradient, vegas, or fixed (stays at initialLimit)");
  public static final ConfigKey<Integer> PROCESSING_COMMAND_LIMIT_INITIAL =
      key(
          "processing.commandLimit.initialLimit",
          Integer.toString(CommandLimitConfig.INITIAL_LIMIT_DEFAULT),
          integer(1, CommandLimitConfig.LIMIT_MAX),
          "the limit before anything was measured: the largest burst a new leader admits; in"
              + " [minLimit, maxLimit]");
  public static final ConfigKey<Integer> PROCESSING_COMMAND_LIMIT_MIN =
      key(
          "processing.commandLimit.minLimit",
          Integer.toString(CommandLimitConfig.MIN_LIMIT_DEFAULT),
          integer(1, CommandLimitConfig.LIMIT_MAX),
          "the limit never goes below this");
  public static final ConfigKey<Integer> PROCESSING_COMMAND_LIMIT_MAX =
      key(
          "processing.commandLimit.maxLimit",
          Integer.toString(CommandLimitConfig.MAX_LIMIT_DEFAULT),
          integer(1, CommandLimitConfig.LIMIT_MAX),
          "the limit never goes above this");
  public static final ConfigKey<Duration> PROCESSING_COMMAND_LIMIT_TARGET_LATENCY =
      key(
          "processing.commandLimit.targetLatency",
          "500ms",
          duration(CommandLimitConfig.TARGET_LATENCY_MIN, CommandLimitConfig.TARGET_LATENCY_MAX),
          "aimd: commands slower than this on average shrink the limit; below"
              + " processing.commandTimeout");
  public static final ConfigKey<Duration> PROCESSING_COMMAND_TIMEOUT =
      key(
          "processing.commandTimeout",
          "10s",
          duration(Duration.ofMillis(10), Duration.ofMinutes(10)),
          "how long a client command waits for its response before TIMEOUT");
  public static final ConfigKey<Integer> PROCESSING_MAX_RECORDS_PER_TURN =
      key(
          "processing.maxRecordsPerTurn",
          "100",
          integer(1, 100_000),
          "records a stream processor handles before yielding its thread");
  public static final ConfigKey<Duration> PROCESSING_CREDIT_RETRY_INTERVAL =
      key(
          "processing.creditRetryInterval",
          "1s",
          duration(Duration.ofMillis(100), Duration.ofMinutes(10)),
          "first re-send of an unacknowledged cross-partition credit");
  public static final ConfigKey<Duration> PROCESSING_CREDIT_RETRY_INTERVAL_MAX =
      key(
          "processing.creditRetryIntervalMax",
          "30s",
          duration(Duration.ofMillis(100), Duration.ofHours(1)),
          "the longest wait between re-sends (doubling from creditRetryInterval)");
  public static final ConfigKey<Integer> PROCESSING_ACTOR_THREADS =
      key("processing.actorThreads", "2", integer(1, 256), "threads running partition actors");
  public static final ConfigKey<Integer> PROCESSING_IO_THREADS =
      key(
          "processing.ioThreads",
          "2",
          integer(1, 64),
          "threads for blocking work: state recovery, snapshots");
  public static final ConfigKey<Duration> PROCESSING_TOPOLOGY_REFRESH_INTERVAL =
      key(
          "processing.topologyRefreshInterval",
          "1s",
          duration(Duration.ofMillis(10), Duration.ofMinutes(1)),
          "how often the broker asks the others for their partitions' leaders");
  public static final ConfigKey<Duration> PROCESSING_SHUTDOWN_TIMEOUT =
      key(
          "processing.shutdownTimeout",
          "30s",
          duration(Duration.ZERO, Duration.ofMinutes(10)),
          "on shutdown, the longest wait for in-flight commands to be answered");

  // ---- raft ---------------------------------------------------------------------------------
  public static final ConfigKey<Duration> RAFT_ELECTION_TIMEOUT =
      key(
          "raft.electionTimeout",
          "2500ms",
          duration(Duration.ofMillis(10), Duration.ofMinutes(5)),
          "a follower without a leader for a random time in [t, 2t) starts an election");
  public static final ConfigKey<Duration> RAFT_HEARTBEAT_INTERVAL =
      key(
          "raft.heartbeatInterval",
          "250ms",
          duration(Duration.ofMillis(1), Duration.ofMinutes(1)),
          "idle leader heartbeat; at most half of electionTimeout");
  public static final ConfigKey<Duration> RAFT_REQUEST_TIMEOUT =
      key(
          "raft.requestTimeout",
          "1s",
          duration(Duration.ofMillis(1), Duration.ofMinutes(5)),
          "wait for an append or snapshot chunk response before re-sending");
  public static final ConfigKey<Boolean> RAFT_LEADER_BALANCING =
      key(
          "raft.leaderBalancing",
          "true",
          bool(),
          "each partition's leadership goes back to its first member ((p-1) mod N) once that"
              + " member is caught up, so every broker leads its share; false: whoever wins an"
              + " election leads");
  public static final ConfigKey<Boolean> SECURITY_ALLOW_INSECURE =
      key(
          "security.allowInsecure",
          "false",
          bool(),
          "accept network.host or management.host on a non-loopback address although their"
              + " connections are neither encrypted nor authenticated (then every start warns);"
              + " false: such a configuration is refused, unless security.tls.enabled");
  public static final ConfigKey<Boolean> SECURITY_TLS_ENABLED =
      key(
          "security.tls.enabled",
          "false",
          bool(),
          "TLS on every listener: mutual TLS between brokers and the gateway (peers must present a"
              + " certificate signed by security.tls.trustedCaFile), HTTPS for management");
  public static final ConfigKey<String> SECURITY_TLS_CERTIFICATE_FILE =
      key(
          "security.tls.certificateFile",
          null,
          path("a PEM file: the broker's certificate, then intermediates"),
          "required with TLS; re-read when it changes");
  public static final ConfigKey<String> SECURITY_TLS_PRIVATE_KEY_FILE =
      key(
          "security.tls.privateKeyFile",
          null,
          path("a PEM file (PKCS#8, PKCS#1 or SEC1), readable by its owner only"),
          "required with TLS; re-read when it changes");
  public static final ConfigKey<String> SECURITY_TLS_TRUSTED_CA_FILE =
      key(
          "security.tls.trustedCaFile",
          null,
          path("a PEM file of CA certificates"),
          "required with TLS: the cluster's CA, which signs every broker's and gateway's"
              + " certificate");

  private BrokerConfigKeys() {}

  /** What a broker's configuration file may hold: every key, section and group. */
  public static ConfigCatalogue catalogue() {
    return new ConfigCatalogue(allWithS3(), SECTIONS, List.of(MEMBERS_GROUP, EXPORTERS_GROUP));
  }

  /** Every key except the S3 store's and the members map, in file order. */
  public static List<ConfigKey<?>> all() {
    return List.copyOf(KEYS);
  }

  /** Every key including the S3 store's, in file order (the members map excepted). */
  public static List<ConfigKey<?>> allWithS3() {
    List<ConfigKey<?>> keys = new ArrayList<>();
    for (ConfigKey<?> key : KEYS) {
      keys.add(key);
      if (key == BACKUP_FS_MAX_CONCURRENT_FILE_COPIES) {
        keys.addAll(S3_KEYS.values());
      }
    }
    return keys;
  }

  /** A key whose value is never shown: logged, dumped and reported as redacted. */
  private static <T> ConfigKey<T> secretKey(
      String path, ValueParser<T> parser, String description) {
    ConfigKey<T> key = new ConfigKey<>(path, null, parser, true, description);
    KEYS.add(key);
    return key;
  }

  /** A five-field cron expression; the message of a bad one names the field and the value. */
  private static ValueParser<CronExpression> cron() {
    String rule =
        "a five-field cron expression in UTC (minute hour day-of-month month day-of-week, e.g."
            + " '0 2 * * *')";
    return new ValueParser<>() {
      @Override
      public CronExpression parse(String raw) throws ConfigValueException {
        try {
          return CronExpression.parse(raw);
        } catch (IllegalArgumentException e) {
          throw new ConfigValueException(rule, "'" + raw.trim() + "': " + e.getMessage());
        }
      }

      @Override
      public String rule() {
        return rule;
      }
    };
  }

  private static <T> ConfigKey<T> key(
      String path, String defaultValue, ValueParser<T> parser, String description) {
    ConfigKey<T> key = new ConfigKey<>(path, defaultValue, parser, false, description);
    KEYS.add(key);
    return key;
  }

  private static Map<String, CommandLimitConfig.Algorithm> algorithms() {
    Map<String, CommandLimitConfig.Algorithm> byName = new LinkedHashMap<>();
    for (CommandLimitConfig.Algorithm algorithm : CommandLimitConfig.Algorithm.values()) {
      byName.put(algorithm.configName(), algorithm);
    }
    return byName;
  }

  private static Map<String, String> names(String... names) {
    Map<String, String> byName = new LinkedHashMap<>();
    for (String name : names) {
      byName.put(name, name);
    }
    return byName;
  }

  private static Map<String, ConfigKey<String>> s3Keys() {
    Map<String, ConfigKey<String>> keys = new LinkedHashMap<>();
    ValueParser<String> any = text(ANY, "see the S3 store's documentation");
    String[][] names = {
      {"bucket", "required with store s3"},
      {"basePath", "key prefix of everything the store writes; default: none (the bucket's root)"},
      {"region", "signing region; default " + S3BackupStoreConfig.REGION_DEFAULT},
      {"endpoint", "server URL; empty = AWS S3 of the region"},
      {"accessKeyId", "static credentials; empty = the SDK's default chain"},
      {"secretAccessKey", "static credentials (redacted in logs)"},
      {
        "pathStyleAccess",
        "http://host/bucket/key; most S3-compatible servers need it; default false"
      },
      {
        "apiCallTimeout",
        "the longest one request may take; default "
            + Durations.formatExact(S3BackupStoreConfig.API_CALL_TIMEOUT_DEFAULT)
      },
      {
        "maxConnections",
        "HTTP connection pool size; default " + S3BackupStoreConfig.MAX_CONNECTIONS_DEFAULT
      },
      {
        "connectionAcquisitionTimeout",
        "the longest wait for a pooled connection; default "
            + Durations.formatExact(S3BackupStoreConfig.CONNECTION_ACQUISITION_TIMEOUT_DEFAULT)
      },
      {
        "maxConcurrentTransfers",
        "content requests in flight, at most half the pool; default half the pool"
      },
      {
        "compression",
        "none or zstd; default "
            + S3BackupStoreConfig.COMPRESSION_DEFAULT.name().toLowerCase(Locale.ROOT)
      },
      {
        "compressionThresholdBytes",
        "with zstd, files of at least this size are compressed; default "
            + ByteSizes.formatExact(S3BackupStoreConfig.COMPRESSION_THRESHOLD_BYTES_DEFAULT)
      },
      {"zstdLevel", "zstd level; default " + S3BackupStoreConfig.ZSTD_LEVEL_DEFAULT},
      {"legacyMd5", "Content-MD5 instead of the SDK's newer checksums; default false"},
      {"sseCustomerKey", "base64 SSE-C key (redacted in logs)"},
      {
        "partSizeBytes",
        "multipart part size; default "
            + ByteSizes.formatExact(S3BackupStoreConfig.PART_SIZE_BYTES_DEFAULT)
      },
      {"maxBytesPerSecond", "content upload/download rate; 0 = none; default 0"},
      {
        "conditionalWrites",
        "auto, required or disabled; default "
            + S3BackupStoreConfig.CONDITIONAL_WRITES_DEFAULT.name().toLowerCase(Locale.ROOT)
      },
      {
        "maxAttempts",
        "attempts per request on transient errors; default "
            + S3BackupStoreConfig.MAX_ATTEMPTS_DEFAULT
      },
      {
        "retryBackoff",
        "first retry delay; default "
            + Durations.formatExact(S3BackupStoreConfig.RETRY_BACKOFF_DEFAULT)
      },
      {
        "retryBackoffMax",
        "longest retry delay; default "
            + Durations.formatExact(S3BackupStoreConfig.RETRY_BACKOFF_MAX_DEFAULT)
      },
      {"objectLockMode", "governance or compliance: every object written with an S3 Object Lock"},
      {"objectLockPeriod", "how long each object stays locked; unset: backup.retention.maxAge"},
    };
    for (String[] name : names) {
      boolean secret = name[0].equals("secretAccessKey") || name[0].equals("sseCustomerKey");
      keys.put(name[0], new ConfigKey<>("backup.s3." + name[0], null, any, secret, name[1]));
    }
    return Collections.unmodifiableMap(keys);
  }
}
