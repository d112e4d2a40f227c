package io.cairn.backups3;

import io.cairn.backupapi.Compression;
import io.cairn.backupapi.ObjectNames;
import io.cairn.backupapi.content.CompressionPolicy;
import io.cairn.backupstore.SettingErrors;
import java.net.URI;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Settings of the {@link S3BackupStore}. Immutable; the constructor checks every value and names
 * the key of a bad one ("Expected partSizeBytes to be ..., but ..."). What needs the server (the
 * bucket exists, the credentials work, the endpoint answers) is checked when the store opens.
 * {@link #toString()} never shows a secret.
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
    Duration retryBackoffMax) {

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
  private static final Pattern BUCKET =
      Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9._-]{1,253}[a-zA-Z0-9]");
  private static final Pattern REGION = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");
  private static final Pattern CREDENTIAL = Pattern.compile("\\S{1,512}");
  private static final int BASE_PATH_MAX_LENGTH = 512;

  public S3BackupStoreConfig {
    if (bucket == null || !BUCKET.matcher(bucket).matches()) {
      throw invalid(
          BUCKET_KEY,
          "a bucket name of 3..255 letters, digits, '.', '_' or '-' that "
              + "starts and ends with a letter or digit",
          bucket == null ? "it is not set" : "it is '" + bucket + "'");
    }
    basePath = normalizeBasePath(basePath);
    if (region == null || !REGION.matcher(region).matches()) {
      throw invalid(
          REGION_KEY,
          "a region name such as 'eu-west-1'",
          region == null ? "it is not set" : "it is '" + region + "'");
    }
    Objects.requireNonNull(endpoint, ENDPOINT_KEY);
    endpoint.ifPresent(S3BackupStoreConfig::checkEndpoint);
    Objects.requireNonNull(accessKeyId, ACCESS_KEY_ID_KEY);
    Objects.requireNonNull(secretAccessKey, SECRET_ACCESS_KEY_KEY);
    if (accessKeyId.isPresent() != secretAccessKey.isPresent()) {
      String missing = accessKeyId.isPresent() ? SECRET_ACCESS_KEY_KEY : ACCESS_KEY_ID_KEY;
      throw invalid(
          missing,
          "set together with "
              + (accessKeyId.isPresent() ? ACCESS_KEY_ID_KEY : SECRET_ACCESS_KEY_KEY)
              + " (or both left out to use the "
              + "default credentials chain)",
          "it is not set");
    }
    accessKeyId.ifPresent(
        v -> {
          if (!CREDENTIAL.matcher(v).matches()) {
            throw invalid(
                ACCESS_KEY_ID_KEY,
                "1..512 characters without whitespace",
                "it is blank or has whitespace");
          }
        });
    secretAccessKey.ifPresent(
        v -> {
          if (!CREDENTIAL.matcher(v).matches()) {
            throw invalid(
                SECRET_ACCESS_KEY_KEY,
                "1..512 characters without whitespace",
                "it is blank or has whitespace");
          }
        });
    requireBetween(
        API_CALL_TIMEOUT_KEY, apiCallTimeout, Duration.ofSeconds(1), Duration.ofHours(1));
    if (maxConnections < 2 || maxConnections > 1024) {
      throw invalid(MAX_CONNECTIONS_KEY, "in 2..1024", "it is " + maxConnections);
    }
    requireBetween(
        CONNECTION_ACQUISITION_TIMEOUT_KEY,
        connectionAcquisitionTimeout,
        Duration.ofSeconds(1),
        Duration.ofMinutes(10));
    if (maxConcurrentTransfers < 1 || maxConcurrentTransfers > maxConnections / 2) {
      throw invalid(
          MAX_CONCURRENT_TRANSFERS_KEY,
          "in 1.."
              + (maxConnections / 2)
              + " (at most half of "
              + MAX_CONNECTIONS_KEY
              + " "
              + maxConnections
              + ", so manifest and listing requests always find a connection)",
          "it is " + maxConcurrentTransfers);
    }
    SettingErrors.checkCompression(CONTEXT, compression, compressionThresholdBytes, zstdLevel);
    Objects.requireNonNull(sseCustomerKey, SSE_CUSTOMER_KEY_KEY);
    sseCustomerKey.ifPresent(S3BackupStoreConfig::checkSseCustomerKey);
    if (partSizeBytes < PART_SIZE_BYTES_MIN || partSizeBytes > PART_SIZE_BYTES_MAX) {
      throw invalid(
          PART_SIZE_BYTES_KEY,
          "in "
              + PART_SIZE_BYTES_MIN
              + ".."
              + PART_SIZE_BYTES_MAX
              + " bytes (5MB..5GB, S3's part size limits)",
          "it is " + partSizeBytes);
    }
    if (maxBytesPerSecond != 0 && maxBytesPerSecond < MAX_BYTES_PER_SECOND_MIN) {
      throw invalid(
          MAX_BYTES_PER_SECOND_KEY,
          "0 (no limit) or at least " + MAX_BYTES_PER_SECOND_MIN,
          "it is " + maxBytesPerSecond);
    }
    if (conditionalWrites == null) {
      throw invalid(CONDITIONAL_WRITES_KEY, "one of [auto, required, disabled]", "it is not set");
    }
    if (maxAttempts < 1 || maxAttempts > 20) {
      throw invalid(MAX_ATTEMPTS_KEY, "in 1..20", "it is " + maxAttempts);
    }
    requireBetween(RETRY_BACKOFF_KEY, retryBackoff, Duration.ofMillis(1), Duration.ofMinutes(1));
    requireBetween(RETRY_BACKOFF_MAX_KEY, retryBackoffMax, retryBackoff, Duration.ofMinutes(10));
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
        + ", retryBackoff="
        + retryBackoff
        + ", retryBackoffMax="
        + retryBackoffMax
        + "}";
  }

  private static String maskKeyId(String id) {
    return (id.length() > 4 ? id.substring(0, 4) : "") + "..." + REDACTED;
  }

  // ------------------------------------------------------------------------------ validation

  static IllegalArgumentException invalid(String key, String rule, String actual) {
    return SettingErrors.invalid(CONTEXT, key, rule, actual, "");
  }

  private static String normalizeBasePath(String basePath) {
    if (basePath == null) {
      throw invalid(BASE_PATH_KEY, "a key prefix ('' for the bucket root)", "it is not set");
    }
    String trimmed = basePath;
    while (trimmed.startsWith("/")) {
      trimmed = trimmed.substring(1);
    }
    while (trimmed.endsWith("/")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    if (trimmed.length() > BASE_PATH_MAX_LENGTH) {
      throw invalid(
          BASE_PATH_KEY,
          "at most " + BASE_PATH_MAX_LENGTH + " characters",
          "it has " + trimmed.length());
    }
    if (!trimmed.isEmpty()) {
      ObjectNames.violation(trimmed)
          .ifPresent(
              why -> {
                throw invalid(
                    BASE_PATH_KEY,
                    "'/'-separated segments without '..', '.', empty segments, "
                        + "backslashes or control characters",
                    "'" + basePath + "' is not: " + why);
              });
    }
    return trimmed;
  }

  private static void checkEndpoint(URI uri) {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!Set.of("http", "https").contains(scheme) || uri.getHost() == null) {
      throw invalid(
          ENDPOINT_KEY,
          "an http:// or https:// URL with a host, such as " + "'https://minio.example.com:9000'",
          "it is '" + uri + "'");
    }
    if (uri.getRawQuery() != null
        || uri.getRawFragment() != null
        || (uri.getRawPath() != null
            && !uri.getRawPath().isEmpty()
            && !uri.getRawPath().equals("/"))) {
      throw invalid(
          ENDPOINT_KEY,
          "a URL without path, query or fragment (the bucket is set by "
              + "'"
              + BUCKET_KEY
              + "', prefixes by '"
              + BASE_PATH_KEY
              + "')",
          "it is '" + uri + "'");
    }
  }

  private static void checkSseCustomerKey(String base64) {
    byte[] key;
    try {
      key = Base64.getDecoder().decode(base64);
    } catch (IllegalArgumentException e) {
      throw invalid(
          SSE_CUSTOMER_KEY_KEY, "the base64 encoding of a 256-bit key", "it is not valid base64");
    }
    if (key.length != 32) {
      throw invalid(
          SSE_CUSTOMER_KEY_KEY,
          "the base64 encoding of a 256-bit (32-byte) key",
          "it decodes to " + key.length + " bytes");
    }
  }

  private static void requireBetween(String key, Duration value, Duration min, Duration max) {
    if (value == null) {
      throw invalid(key, "a duration", "it is not set");
    }
    if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      throw invalid(key, "in " + min + ".." + max, "it is " + value);
    }
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
          retryBackoffMax);
    }
  }
}
