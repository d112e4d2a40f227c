package io.cairn.backups3;

import static io.cairn.backups3.S3BackupStoreConfigChecks.checkBucket;
import static io.cairn.backups3.S3BackupStoreConfigChecks.checkConnections;
import static io.cairn.backups3.S3BackupStoreConfigChecks.checkCredentials;
import static io.cairn.backups3.S3BackupStoreConfigChecks.checkRetries;
import static io.cairn.backups3.S3BackupStoreConfigChecks.checkServer;
import static io.cairn.backups3.S3BackupStoreConfigChecks.checkSseCustomerKey;
import static io.cairn.backups3.S3BackupStoreConfigChecks.checkTransfers;
import static io.cairn.backups3.S3BackupStoreConfigChecks.normalizeBasePath;

import io.cairn.backupapi.Compression;
import io.cairn.backupapi.content.CompressionPolicy;
import io.cairn.backupstore.SettingErrors;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Settings of the {@link S3BackupStore}. Immutable; the constructor checks every value and names
 * the key of a bad one ("Expected partSizeBytes to be ..., but ..."; the checks are {@link
 * S3BackupStoreConfigChecks}'). What needs the server (the bucket exists, the credentials work, the
 * endpoint answers) is checked when the store opens. {@link #toString()} never shows a secret.
 *
 * <p>Build one with {@link #builder(String)} or {@link #fromProperties(Map)}; every key and its
 * default is listed in {@code docs/s3-backup-store.md}.
 *
 * @param bucket the bucket; it must exist
 * @param basePath key prefix of everything this store writes ({@code ""} = bucket root); no leading
 *     or trailing '/'
 * @param region signing region (S3-compatible servers usually accept any)
 * @param endpoint the server's URL; empty = AWS S3 of {@code region}
 * @param accessKeyId static credentials, with {@code secretAccessKey}; empty = the SDK's default
 *     credentials chain (environment, profile, container or instance role)
 * @param secretAccessKey see {@code accessKeyId}
 * @param pathStyleAccess {@code http://host/bucket/key} instead of {@code http://bucket.host/key};
 *     most S3-compatible servers need it
 * @param apiCallTimeout the longest one request may take (a part upload included)
 * @param maxConnections the HTTP connection pool's size
 * @param connectionAcquisitionTimeout the longest a request waits for a pooled connection
 * @param maxConcurrentTransfers content requests (uploads, downloads, copies) in flight at once; at
 *     most half the pool, so manifest and listing requests always find a connection
 * @param compression {@code none} or {@code zstd}
 * @param compressionThresholdBytes with zstd, files of at least this size are compressed
 * @param zstdLevel zstd level, 1..19
 * @param legacyMd5 send {@code Content-MD5} instead of the SDK's default CRC32 checksums, for
 *     S3-compatible servers that reject the newer checksum headers
 * @param sseCustomerKey base64 of a 256-bit key for SSE-C; every object is written and read with it
 *     (keep it: without it nothing can be restored)
 * @param partSizeBytes multipart part size; objects larger than one part are uploaded and copied in
 *     parts; also the size of each ranged GET
 * @param maxBytesPerSecond limit on content bytes uploaded and downloaded by verify; 0 = none
 * @param conditionalWrites see {@link ConditionalWrites}
 * @param maxAttempts attempts of one request on transient errors (5xx, throttling, timeouts,
 *     connection resets), the first included
 * @param retryBackoff delay before the first retry; doubles each retry (with jitter)
 * @param retryBackoffMax the longest delay between two attempts
 * @param objectLock every object written with an S3 Object Lock retention; empty = none
 */
public record S3BackupStoreConfig(
    String bucket,
    String basePath,
    String region,
    Optional<URI> endpoint,
    Optional<String> accessKeyId,
    Optional<String> secretAccessKey,
    boolean pathStyleAccess,
    Duration apiCallTimeout,
    int maxConnections,
    Duration connectionAcquisitionTimeout,
    int maxConcurrentTransfers,
    Compression compression,
    long compressionThresholdBytes,
    int zstdLevel,
    boolean legacyMd5,
    Optional<String> sseCustomerKey,
    long partSizeBytes,
    long maxBytesPerSecond,
    ConditionalWrites conditionalWrites,
    int maxAttempts,
    Duration retryBackoff,
    Duration retryBackoffMax,
    Optional<ObjectLock> objectLock) {

  public static final String BUCKET_KEY = "bucket";
  public static final String BASE_PATH_KEY = "basePath";
  public static final String REGION_KEY = "region";
  public static final String ENDPOINT_KEY = "endpoint";
  public static final String ACCESS_KEY_ID_KEY = "accessKeyId";
  public static final String SECRET_ACCESS_KEY_KEY = "secretAccessKey";
  public static final String PATH_STYLE_ACCESS_KEY = "pathStyleAccess";
  public static final String API_CALL_TIMEOUT_KEY = "apiCallTimeout";
  public static final String MAX_CONNECTIONS_KEY = "maxConnections";
  public static final String CONNECTION_ACQUISITION_TIMEOUT_KEY = "connectionAcquisitionTimeout";
  public static final String MAX_CONCURRENT_TRANSFERS_KEY = "maxConcurrentTransfers";
  public static final String COMPRESSION_KEY = SettingErrors.COMPRESSION_KEY;
  public static final String COMPRESSION_THRESHOLD_BYTES_KEY =
      SettingErrors.COMPRESSION_THRESHOLD_BYTES_KEY;
  public static final String ZSTD_LEVEL_KEY = SettingErrors.ZSTD_LEVEL_KEY;
  public static final String LEGACY_MD5_KEY = "legacyMd5";
  public static final String SSE_CUSTOMER_KEY_KEY = "sseCustomerKey";
  public static final String PART_SIZE_BYTES_KEY = "partSizeBytes";
  public static final String MAX_BYTES_PER_SECOND_KEY = "maxBytesPerSecond";
  public static final String CONDITIONAL_WRITES_KEY = "conditionalWrites";
  public static final String MAX_ATTEMPTS_KEY = "maxAttempts";
  public static final String RETRY_BACKOFF_KEY = "retryBackoff";
  public static final String RETRY_BACKOFF_MAX_KEY = "retryBackoffMax";
  public static final String OBJECT_LOCK_MODE_KEY = "objectLockMode";
  public static final String OBJECT_LOCK_PERIOD_KEY = "objectLockPeriod";

  public static final String BASE_PATH_DEFAULT = "";
  public static final String REGION_DEFAULT = "us-east-1";
  public static final Duration API_CALL_TIMEOUT_DEFAULT = Duration.ofMinutes(2);
  public static final int MAX_CONNECTIONS_DEFAULT = 16;
  public static final Duration CONNECTION_ACQUISITION_TIMEOUT_DEFAULT = Duration.ofSeconds(60);
  public static final Compression COMPRESSION_DEFAULT = Compression.NONE;
  public static final long COMPRESSION_THRESHOLD_BYTES_DEFAULT =
      CompressionPolicy.THRESHOLD_BYTES_DEFAULT;
  public static final int ZSTD_LEVEL_DEFAULT = CompressionPolicy.ZSTD_LEVEL_DEFAULT;
  public static final long PART_SIZE_BYTES_DEFAULT = 8L * 1024 * 1024;

  /** S3's smallest part (all parts but the last). */
  public static final long PART_SIZE_BYTES_MIN = 5L * 1024 * 1024;

  /** S3's largest part. */
  public static final long PART_SIZE_BYTES_MAX = 5L * 1024 * 1024 * 1024;

  public static final long MAX_BYTES_PER_SECOND_MIN = 64 * 1024;
  public static final ConditionalWrites CONDITIONAL_WRITES_DEFAULT = ConditionalWrites.AUTO;
  public static final int MAX_ATTEMPTS_DEFAULT = 6;
  public static final Duration RETRY_BACKOFF_DEFAULT = Duration.ofMillis(100);
  public static final Duration RETRY_BACKOFF_MAX_DEFAULT = Duration.ofSeconds(10);

  static final String CONTEXT = "backup store 's3'";
  private static final String REDACTED = "<redacted>";

  public S3BackupStoreConfig {
    checkBucket(bucket);
    basePath = normalizeBasePath(basePath);
    checkServer(region, endpoint);
    checkCredentials(accessKeyId, secretAccessKey);
    checkConnections(
        apiCallTimeout, maxConnections, connectionAcquisitionTimeout, maxConcurrentTransfers);
    SettingErrors.checkCompression(CONTEXT, compression, compressionThresholdBytes, zstdLevel);
    checkSseCustomerKey(sseCustomerKey);
    checkTransfers(partSizeBytes, maxBytesPerSecond, conditionalWrites);
    checkRetries(maxAttempts, retryBackoff, retryBackoffMax);
    Objects.requireNonNull(objectLock, "objectLock");
  }

  /** Defaults for everything but the bucket. */
  public static Builder builder(String bucket) {
    return new Builder(bucket);
  }

  /** A builder holding this configuration's values. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  public CompressionPolicy compressionPolicy() {
    return new CompressionPolicy(compression, compressionThresholdBytes, zstdLevel);
  }

  /** How much two clocks may differ: the writer's that dates a lock and retention's. */
  public static final Duration CLOCK_SKEW_ALLOWANCE = Duration.ofSeconds(5);

  /**
   * With object lock, how long after an object's recorded write time (a manifest's timestamp, a
   * link's {@code archivedAt}) its lock may still hold: the lock period, plus the longest its
   * upload may go on retrying (each attempt dates its lock anew), plus {@link
   * #CLOCK_SKEW_ALLOWANCE}. Retention deletes nothing younger.
   */
  public Optional<Duration> objectLockHold() {
    Duration retrying = apiCallTimeout.plus(retryBackoffMax).multipliedBy(maxAttempts);
    return objectLock.map(lock -> lock.period().plus(retrying).plus(CLOCK_SKEW_ALLOWANCE));
  }

  /** True when static keys are configured; false for the SDK's default credentials chain. */
  public boolean hasStaticCredentials() {
    return accessKeyId.isPresent();
  }

  /** Where this store lives, for messages: {@code s3://bucket/basePath} and the endpoint. */
  public String location() {
    return "s3://"
        + bucket
        + (basePath.isEmpty() ? "" : "/" + basePath)
        + endpoint.map(e -> " at " + e).orElse("");
  }

  @Override
  public String toString() {
    return "S3BackupStoreConfig{bucket="
        + bucket
        + ", basePath="
        + basePath
        + ", region="
        + region
        + ", endpoint="
        + endpoint.map(URI::toString).orElse("<aws>")
        + ", accessKeyId="
        + accessKeyId.map(S3BackupStoreConfig::maskKeyId).orElse("<default chain>")
        + ", secretAccessKey="
        + secretAccessKey.map(s -> REDACTED).orElse("<default chain>")
        + ", pathStyleAccess="
        + pathStyleAccess
        + ", apiCallTimeout="
        + apiCallTimeout
        + ", maxConnections="
        + maxConnections
        + ", connectionAcquisitionTimeout="
        + connectionAcquisitionTimeout
        + ", maxConcurrentTransfers="
        + maxConcurrentTransfers
        + ", compression="
        + compression.manifestName()
        + ", compressionThresholdBytes="
        + compressionThresholdBytes
        + ", zstdLevel="
        + zstdLevel
        + ", legacyMd5="
        + legacyMd5
        + ", sseCustomerKey="
        + sseCustomerKey.map(s -> REDACTED).orElse("<none>")
        + ", partSizeBytes="
        + partSizeBytes
        + ", maxBytesPerSecond="
        + maxBytesPerSecond
        + ", conditionalWrites="
        + conditionalWrites.configName()
        + ", maxAttempts="
        + maxAttempts
        + ", objectLock="
        + objectLock.map(ObjectLock::toString).orElse("<none>")
        + ", retryBackoff="
        + retryBackoff
        + ", retryBackoffMax="
        + retryBackoffMax
        + "}";
  }

  private static String maskKeyId(String id) {
    return (id.length() > 4 ? id.substring(0, 4) : "") + "..." + REDACTED;
  }

  /**
   * Reads a configuration from string values keyed by the names above (as YAML or environment
   * variables give them); see {@link S3BackupStoreConfigParser}.
   *
   * @throws IllegalArgumentException naming the key of a missing, unknown or bad value
   */
  public static S3BackupStoreConfig fromProperties(Map<String, String> properties) {
    return S3BackupStoreConfigParser.parse(properties);
  }

  // -------------------------------------------------------------------------------- builder

  /** Collects values; {@link #build()} validates them all. Not thread-safe. */
  public static final class Builder {
    private final String bucket;
    private String basePath = BASE_PATH_DEFAULT;
    private String region = REGION_DEFAULT;
    private Optional<URI> endpoint = Optional.empty();
    private Optional<String> accessKeyId = Optional.empty();
    private Optional<String> secretAccessKey = Optional.empty();
    private boolean pathStyleAccess;
    private Duration apiCallTimeout = API_CALL_TIMEOUT_DEFAULT;
    private int maxConnections = MAX_CONNECTIONS_DEFAULT;
    private Duration connectionAcquisitionTimeout = CONNECTION_ACQUISITION_TIMEOUT_DEFAULT;
    private Integer maxConcurrentTransfers;
    private Compression compression = COMPRESSION_DEFAULT;
    private long compressionThresholdBytes = COMPRESSION_THRESHOLD_BYTES_DEFAULT;
    private int zstdLevel = ZSTD_LEVEL_DEFAULT;
    private boolean legacyMd5;
    private Optional<String> sseCustomerKey = Optional.empty();
    private long partSizeBytes = PART_SIZE_BYTES_DEFAULT;
    private long maxBytesPerSecond;
    private ConditionalWrites conditionalWrites = CONDITIONAL_WRITES_DEFAULT;
    private int maxAttempts = MAX_ATTEMPTS_DEFAULT;
    private Duration retryBackoff = RETRY_BACKOFF_DEFAULT;
    private Duration retryBackoffMax = RETRY_BACKOFF_MAX_DEFAULT;
    private Optional<ObjectLock> objectLock = Optional.empty();

    private Builder(String bucket) {
      this.bucket = bucket;
    }

    private Builder(S3BackupStoreConfig c) {
      this.bucket = c.bucket;
      this.basePath = c.basePath;
      this.region = c.region;
      this.endpoint = c.endpoint;
      this.accessKeyId = c.accessKeyId;
      this.secretAccessKey = c.secretAccessKey;
      this.pathStyleAccess = c.pathStyleAccess;
      this.apiCallTimeout = c.apiCallTimeout;
      this.maxConnections = c.maxConnections;
      this.connectionAcquisitionTimeout = c.connectionAcquisitionTimeout;
      // A default derived from maxConnections follows it when maxConnections changes.
      this.maxConcurrentTransfers =
          c.maxConcurrentTransfers == Math.max(1, c.maxConnections / 2)
              ? null
              : c.maxConcurrentTransfers;
      this.compression = c.compression;
      this.compressionThresholdBytes = c.compressionThresholdBytes;
      this.zstdLevel = c.zstdLevel;
      this.legacyMd5 = c.legacyMd5;
      this.sseCustomerKey = c.sseCustomerKey;
      this.partSizeBytes = c.partSizeBytes;
      this.maxBytesPerSecond = c.maxBytesPerSecond;
      this.conditionalWrites = c.conditionalWrites;
      this.maxAttempts = c.maxAttempts;
      this.retryBackoff = c.retryBackoff;
      this.retryBackoffMax = c.retryBackoffMax;
      this.objectLock = c.objectLock;
    }

    public Builder basePath(String value) {
      this.basePath = value;
      return this;
    }

    public Builder region(String value) {
      this.region = value;
      return this;
    }

    public Builder endpoint(URI value) {
      this.endpoint = Optional.ofNullable(value);
      return this;
    }

    /** Static credentials; pass two nulls for the SDK's default chain. */
    public Builder credentials(String accessKeyIdValue, String secretAccessKeyValue) {
      this.accessKeyId = Optional.ofNullable(accessKeyIdValue);
      this.secretAccessKey = Optional.ofNullable(secretAccessKeyValue);
      return this;
    }

    public Builder pathStyleAccess(boolean value) {
      this.pathStyleAccess = value;
      return this;
    }

    public Builder apiCallTimeout(Duration value) {
      this.apiCallTimeout = value;
      return this;
    }

    /** {@code maxConcurrentTransfers} defaults to half of it unless set. */
    public Builder maxConnections(int value) {
      this.maxConnections = value;
      return this;
    }

    public Builder connectionAcquisitionTimeout(Duration value) {
      this.connectionAcquisitionTimeout = value;
      return this;
    }

    public Builder maxConcurrentTransfers(int value) {
      this.maxConcurrentTransfers = value;
      return this;
    }

    public Builder compression(Compression value, long thresholdBytes) {
      this.compression = value;
      this.compressionThresholdBytes = thresholdBytes;
      return this;
    }

    public Builder zstdLevel(int value) {
      this.zstdLevel = value;
      return this;
    }

    public Builder legacyMd5(boolean value) {
      this.legacyMd5 = value;
      return this;
    }

    public Builder sseCustomerKey(String base64Key) {
      this.sseCustomerKey = Optional.ofNullable(base64Key);
      return this;
    }

    public Builder partSizeBytes(long value) {
      this.partSizeBytes = value;
      return this;
    }

    public Builder maxBytesPerSecond(long value) {
      this.maxBytesPerSecond = value;
      return this;
    }

    public Builder conditionalWrites(ConditionalWrites value) {
      this.conditionalWrites = value;
      return this;
    }

    public Builder maxAttempts(int value) {
      this.maxAttempts = value;
      return this;
    }

    public Builder retryBackoff(Duration value) {
      this.retryBackoff = value;
      return this;
    }

    public Builder retryBackoffMax(Duration value) {
      this.retryBackoffMax = value;
      return this;
    }

    public Builder objectLock(ObjectLock value) {
      this.objectLock = Optional.ofNullable(value);
      return this;
    }

    /**
     * @throws IllegalArgumentException naming the key of the first bad value
     */
    public S3BackupStoreConfig build() {
      int transfers =
          maxConcurrentTransfers != null ? maxConcurrentTransfers : Math.max(1, maxConnections / 2);
      return new S3BackupStoreConfig(
          bucket,
          basePath,
          region,
          endpoint,
          accessKeyId,
          secretAccessKey,
          pathStyleAccess,
          apiCallTimeout,
          maxConnections,
          connectionAcquisitionTimeout,
          transfers,
          compression,
          compressionThresholdBytes,
          zstdLevel,
          legacyMd5,
          sseCustomerKey,
          partSizeBytes,
          maxBytesPerSecond,
          conditionalWrites,
          maxAttempts,
          retryBackoff,
          retryBackoffMax,
          objectLock);
    }
  }
}
