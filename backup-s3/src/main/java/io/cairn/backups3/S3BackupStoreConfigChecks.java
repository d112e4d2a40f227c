package io.cairn.backups3;

import static io.cairn.backups3.S3BackupStoreConfig.ACCESS_KEY_ID_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.API_CALL_TIMEOUT_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.BASE_PATH_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.BUCKET_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.CONDITIONAL_WRITES_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.CONNECTION_ACQUISITION_TIMEOUT_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.CONTEXT;
import static io.cairn.backups3.S3BackupStoreConfig.ENDPOINT_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.MAX_ATTEMPTS_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.MAX_BYTES_PER_SECOND_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.MAX_BYTES_PER_SECOND_MIN;
import static io.cairn.backups3.S3BackupStoreConfig.MAX_CONCURRENT_TRANSFERS_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.MAX_CONNECTIONS_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.PART_SIZE_BYTES_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.PART_SIZE_BYTES_MAX;
import static io.cairn.backups3.S3BackupStoreConfig.PART_SIZE_BYTES_MIN;
import static io.cairn.backups3.S3BackupStoreConfig.REGION_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.RETRY_BACKOFF_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.RETRY_BACKOFF_MAX_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.SECRET_ACCESS_KEY_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.SSE_CUSTOMER_KEY_KEY;

import io.cairn.backupapi.ObjectNames;
import io.cairn.backupstore.SettingErrors;
import java.net.URI;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The checks of {@link S3BackupStoreConfig}'s values, one group of settings per method, and the
 * message of a bad value ("Expected partSizeBytes to be ..., but ..."), which names its key. The
 * config's constructor calls the groups in the order of its components, so the first bad value is
 * the one reported; the compression settings are checked as every store's ({@link
 * SettingErrors#checkCompression}).
 */
final class S3BackupStoreConfigChecks {

  private static final Pattern BUCKET =
      Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9._-]{1,253}[a-zA-Z0-9]");
  private static final Pattern REGION = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");
  private static final Pattern CREDENTIAL = Pattern.compile("\\S{1,512}");
  private static final int BASE_PATH_MAX_LENGTH = 512;

  private S3BackupStoreConfigChecks() {}

  /** The error of a bad value of {@code key}: what it should be, and what it is. */
  static IllegalArgumentException invalid(String key, String rule, String actual) {
    return SettingErrors.invalid(CONTEXT, key, rule, actual, "");
  }

  static void checkBucket(String bucket) {
    if (bucket == null || !BUCKET.matcher(bucket).matches()) {
      throw invalid(
          BUCKET_KEY,
          "a bucket name of 3..255 letters, digits, '.', '_' or '-' that "
              + "starts and ends with a letter or digit",
          bucket == null ? "it is not set" : "it is '" + bucket + "'");
    }
  }

  /** The base path without leading or trailing '/'. */
  static String normalizeBasePath(String basePath) {
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

  /** The region, then the endpoint. */
  static void checkServer(String region, Optional<URI> endpoint) {
    if (region == null || !REGION.matcher(region).matches()) {
      throw invalid(
          REGION_KEY,
          "a region name such as 'eu-west-1'",
          region == null ? "it is not set" : "it is '" + region + "'");
    }
    Objects.requireNonNull(endpoint, ENDPOINT_KEY);
    endpoint.ifPresent(S3BackupStoreConfigChecks::checkEndpoint);
  }

  /** Static credentials: both keys or none, each without whitespace. */
  static void checkCredentials(Optional<String> accessKeyId, Optional<String> secretAccessKey) {
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
  }

  /** The request timeout, the connection pool and the transfers it carries at once. */
  static void checkConnections(
      Duration apiCallTimeout,
      int maxConnections,
      Duration connectionAcquisitionTimeout,
      int maxConcurrentTransfers) {
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
  }

  /** An SSE-C key, if one is set: base64 of 32 bytes. */
  static void checkSseCustomerKey(Optional<String> sseCustomerKey) {
    Objects.requireNonNull(sseCustomerKey, SSE_CUSTOMER_KEY_KEY);
    sseCustomerKey.ifPresent(S3BackupStoreConfigChecks::checkSseKey);
  }

  /** The part size, the rate limit and the conditional writes. */
  static void checkTransfers(
      long partSizeBytes, long maxBytesPerSecond, ConditionalWrites conditionalWrites) {
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
  }

  /** The attempts of one request and the backoff between them. */
  static void checkRetries(int maxAttempts, Duration retryBackoff, Duration retryBackoffMax) {
    if (maxAttempts < 1 || maxAttempts > 20) {
      throw invalid(MAX_ATTEMPTS_KEY, "in 1..20", "it is " + maxAttempts);
    }
    requireBetween(RETRY_BACKOFF_KEY, retryBackoff, Duration.ofMillis(1), Duration.ofMinutes(1));
    requireBetween(RETRY_BACKOFF_MAX_KEY, retryBackoffMax, retryBackoff, Duration.ofMinutes(10));
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

  private static void checkSseKey(String base64) {
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
}
