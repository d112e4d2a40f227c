package io.cairn.backups3;

import static io.cairn.backups3.S3BackupStoreConfig.ACCESS_KEY_ID_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.API_CALL_TIMEOUT_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.BASE_PATH_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.BUCKET_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.COMPRESSION_DEFAULT;
import static io.cairn.backups3.S3BackupStoreConfig.COMPRESSION_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.COMPRESSION_THRESHOLD_BYTES_DEFAULT;
import static io.cairn.backups3.S3BackupStoreConfig.COMPRESSION_THRESHOLD_BYTES_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.CONDITIONAL_WRITES_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.CONNECTION_ACQUISITION_TIMEOUT_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.ENDPOINT_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.LEGACY_MD5_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.MAX_ATTEMPTS_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.MAX_BYTES_PER_SECOND_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.MAX_CONCURRENT_TRANSFERS_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.MAX_CONNECTIONS_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.OBJECT_LOCK_MODE_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.OBJECT_LOCK_PERIOD_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.PART_SIZE_BYTES_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.PATH_STYLE_ACCESS_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.REGION_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.RETRY_BACKOFF_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.RETRY_BACKOFF_MAX_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.SECRET_ACCESS_KEY_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.SSE_CUSTOMER_KEY_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.ZSTD_LEVEL_KEY;
import static io.cairn.backups3.S3BackupStoreConfig.builder;
import static io.cairn.backups3.S3BackupStoreConfigChecks.invalid;

import io.cairn.backupapi.Compression;
import io.cairn.units.ByteSizes;
import io.cairn.units.Durations;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads an {@link S3BackupStoreConfig} from string values keyed by its key names (as YAML or
 * environment variables give them). Sizes and durations are read in the one grammar of {@link
 * ByteSizes} and {@link Durations} ("8MB", "1TB", "500ms", "1d", "PT30S"); booleans "true" or
 * "false". Unknown keys are refused, so a typo never goes unnoticed. Every error names the key.
 */
final class S3BackupStoreConfigParser {

  private S3BackupStoreConfigParser() {}

  /**
   * @throws IllegalArgumentException naming the key of a missing, unknown or bad value
   */
  static S3BackupStoreConfig parse(Map<String, String> properties) {
    Map<String, String> p = new HashMap<>(properties);
    String bucket = p.remove(BUCKET_KEY);
    if (bucket == null) {
      throw invalid(BUCKET_KEY, "a bucket name", "it is not set");
    }
    S3BackupStoreConfig.Builder b = builder(bucket);
    take(p, BASE_PATH_KEY).ifPresent(b::basePath);
    take(p, REGION_KEY).ifPresent(b::region);
    take(p, ENDPOINT_KEY).ifPresent(v -> b.endpoint(parseUri(v)));
    Optional<String> keyId = take(p, ACCESS_KEY_ID_KEY);
    Optional<String> secret = take(p, SECRET_ACCESS_KEY_KEY);
    if (keyId.isPresent() || secret.isPresent()) {
      b.credentials(keyId.orElse(null), secret.orElse(null));
    }
    take(p, PATH_STYLE_ACCESS_KEY)
        .ifPresent(v -> b.pathStyleAccess(parseBoolean(PATH_STYLE_ACCESS_KEY, v)));
    take(p, API_CALL_TIMEOUT_KEY)
        .ifPresent(v -> b.apiCallTimeout(parseDuration(API_CALL_TIMEOUT_KEY, v)));
    take(p, MAX_CONNECTIONS_KEY).ifPresent(v -> b.maxConnections(parseInt(MAX_CONNECTIONS_KEY, v)));
    take(p, CONNECTION_ACQUISITION_TIMEOUT_KEY)
        .ifPresent(
            v ->
                b.connectionAcquisitionTimeout(
                    parseDuration(CONNECTION_ACQUISITION_TIMEOUT_KEY, v)));
    take(p, MAX_CONCURRENT_TRANSFERS_KEY)
        .ifPresent(v -> b.maxConcurrentTransfers(parseInt(MAX_CONCURRENT_TRANSFERS_KEY, v)));
    Optional<String> compression = take(p, COMPRESSION_KEY);
    Optional<String> threshold = take(p, COMPRESSION_THRESHOLD_BYTES_KEY);
    if (compression.isPresent() || threshold.isPresent()) {
      b.compression(
          compression.map(S3BackupStoreConfigParser::parseCompression).orElse(COMPRESSION_DEFAULT),
          threshold
              .map(v -> parseSize(COMPRESSION_THRESHOLD_BYTES_KEY, v))
              .orElse(COMPRESSION_THRESHOLD_BYTES_DEFAULT));
    }
    take(p, ZSTD_LEVEL_KEY).ifPresent(v -> b.zstdLevel(parseInt(ZSTD_LEVEL_KEY, v)));
    take(p, LEGACY_MD5_KEY).ifPresent(v -> b.legacyMd5(parseBoolean(LEGACY_MD5_KEY, v)));
    take(p, SSE_CUSTOMER_KEY_KEY).ifPresent(b::sseCustomerKey);
    take(p, PART_SIZE_BYTES_KEY).ifPresent(v -> b.partSizeBytes(parseSize(PART_SIZE_BYTES_KEY, v)));
    take(p, MAX_BYTES_PER_SECOND_KEY)
        .ifPresent(v -> b.maxBytesPerSecond(parseSize(MAX_BYTES_PER_SECOND_KEY, v)));
    take(p, CONDITIONAL_WRITES_KEY)
        .ifPresent(
            v -> {
              try {
                b.conditionalWrites(ConditionalWrites.fromConfigName(v));
              } catch (IllegalArgumentException e) {
                throw invalid(
                    CONDITIONAL_WRITES_KEY,
                    "one of [auto, required, disabled]",
                    "it is '" + v + "'");
              }
            });
    take(p, MAX_ATTEMPTS_KEY).ifPresent(v -> b.maxAttempts(parseInt(MAX_ATTEMPTS_KEY, v)));
    take(p, RETRY_BACKOFF_KEY).ifPresent(v -> b.retryBackoff(parseDuration(RETRY_BACKOFF_KEY, v)));
    take(p, RETRY_BACKOFF_MAX_KEY)
        .ifPresent(v -> b.retryBackoffMax(parseDuration(RETRY_BACKOFF_MAX_KEY, v)));
    objectLock(take(p, OBJECT_LOCK_MODE_KEY), take(p, OBJECT_LOCK_PERIOD_KEY))
        .ifPresent(b::objectLock);
    if (!p.isEmpty()) {
      String key = p.keySet().stream().sorted().findFirst().orElseThrow();
      throw invalid(key, "a known key of the s3 backup store", "it is unknown (a typo?)");
    }
    return b.build();
  }

  /**
   * Parses the {@code compression} key's value.
   *
   * @throws IllegalArgumentException naming the key and the allowed values
   */
  static Compression parseCompression(String value) {
    try {
      return Compression.fromManifestName(value);
    } catch (IllegalArgumentException e) {
      throw invalid(COMPRESSION_KEY, "one of [none, zstd]", "it is '" + value + "'");
    }
  }

  /** Both keys or neither: a lock needs its mode and how long it holds. */
  private static Optional<ObjectLock> objectLock(Optional<String> mode, Optional<String> period) {
    if (mode.isEmpty() && period.isEmpty()) {
      return Optional.empty();
    }
    if (mode.isEmpty()) {
      throw invalid(
          OBJECT_LOCK_MODE_KEY,
          "governance or compliance when " + OBJECT_LOCK_PERIOD_KEY + " is set",
          "it is not set");
    }
    ObjectLock.Mode parsed;
    try {
      parsed = ObjectLock.Mode.fromConfigName(mode.get());
    } catch (IllegalArgumentException e) {
      throw invalid(OBJECT_LOCK_MODE_KEY, "governance or compliance", "it is '" + mode.get() + "'");
    }
    if (period.isEmpty()) {
      throw invalid(
          OBJECT_LOCK_PERIOD_KEY,
          "how long each object stays locked, a duration such as 30d, when "
              + OBJECT_LOCK_MODE_KEY
              + " is set (a broker derives it from backup.retention.maxAge when that is set)",
          "it is not set");
    }
    Duration duration = parseDuration(OBJECT_LOCK_PERIOD_KEY, period.get());
    if (duration.compareTo(ObjectLock.PERIOD_MIN) < 0
        || duration.compareTo(ObjectLock.PERIOD_MAX) > 0) {
      throw invalid(
          OBJECT_LOCK_PERIOD_KEY,
          "a duration of at least "
              + ObjectLock.PERIOD_MIN.toSeconds()
              + "s and at most "
              + ObjectLock.PERIOD_MAX.toDays()
              + "d (in compliance mode nothing can shorten it)",
          "it is '" + period.get() + "'");
    }
    return Optional.of(new ObjectLock(parsed, duration));
  }

  private static Optional<String> take(Map<String, String> p, String key) {
    return Optional.ofNullable(p.remove(key)).map(String::trim);
  }

  private static URI parseUri(String value) {
    try {
      return new URI(value);
    } catch (URISyntaxException e) {
      throw invalid(ENDPOINT_KEY, "an http:// or https:// URL", "'" + value + "' is not a URL");
    }
  }

  private static boolean parseBoolean(String key, String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw invalid(key, "true or false", "it is '" + value + "'");
    };
  }

  private static int parseInt(String key, String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw invalid(key, "a whole number", "it is '" + value + "'");
    }
  }

  static long parseSize(String key, String value) {
    OptionalLong bytes = ByteSizes.parse(value);
    if (bytes.isEmpty()) {
      throw invalid(key, "a size such as " + ByteSizes.EXAMPLES, "it is '" + value + "'");
    }
    return bytes.getAsLong();
  }

  static Duration parseDuration(String key, String value) {
    return Durations.parse(value)
        .orElseThrow(
            () ->
                invalid(key, "a duration such as " + Durations.EXAMPLES, "it is '" + value + "'"));
  }
}
