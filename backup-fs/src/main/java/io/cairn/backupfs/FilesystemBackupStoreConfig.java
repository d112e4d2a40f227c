package io.cairn.backupfs;

import io.cairn.backupapi.Compression;
import io.cairn.backupapi.content.CompressionPolicy;
import io.cairn.backupstore.SettingErrors;
import java.nio.file.Path;

/**
 * Settings of the {@link FilesystemBackupStore}. Immutable; the constructor checks every value (the
 * base directory itself is checked when the store opens).
 *
 * @param basePath the directory holding manifests and contents; must exist and be writable
 * @param compression {@code none} or {@code zstd}
 * @param compressionThresholdBytes with zstd, files of at least this size are compressed
 * @param zstdLevel zstd level, 1..19
 * @param maxConcurrentFileCopies files of one save or restore copied at once, 1..16, on the store's
 *     executor (the operation's own thread plus helpers)
 * @param maxBytesPerSecond bytes written into the store per second by all saves together; 0 = no
 *     limit, else 64 KiB..2^40
 */
public record FilesystemBackupStoreConfig(
    Path basePath,
    Compression compression,
    long compressionThresholdBytes,
    int zstdLevel,
    int maxConcurrentFileCopies,
    long maxBytesPerSecond) {

  public static final String BASE_PATH_KEY = "basePath";
  public static final String COMPRESSION_KEY = SettingErrors.COMPRESSION_KEY;
  public static final Compression COMPRESSION_DEFAULT = Compression.NONE;
  public static final String COMPRESSION_THRESHOLD_BYTES_KEY =
      SettingErrors.COMPRESSION_THRESHOLD_BYTES_KEY;
  public static final long COMPRESSION_THRESHOLD_BYTES_DEFAULT =
      CompressionPolicy.THRESHOLD_BYTES_DEFAULT;
  public static final String ZSTD_LEVEL_KEY = SettingErrors.ZSTD_LEVEL_KEY;
  public static final int ZSTD_LEVEL_DEFAULT = CompressionPolicy.ZSTD_LEVEL_DEFAULT;
  public static final String MAX_CONCURRENT_FILE_COPIES_KEY = "maxConcurrentFileCopies";

  /** Two: a copy and its fsync overlap another's; more copies also need more executor threads. */
  public static final int MAX_CONCURRENT_FILE_COPIES_DEFAULT = 2;

  public static final int MAX_CONCURRENT_FILE_COPIES_MAX = 16;
  public static final String MAX_BYTES_PER_SECOND_KEY = "maxBytesPerSecond";
  public static final long MAX_BYTES_PER_SECOND_DEFAULT = 0;
  public static final long MAX_BYTES_PER_SECOND_MIN = 64 * 1024;
  public static final long MAX_BYTES_PER_SECOND_MAX = 1L << 40;

  private static final String CONTEXT = "backup store 'filesystem'";

  public FilesystemBackupStoreConfig {
    if (basePath == null) {
      throw invalid(BASE_PATH_KEY, "a directory path", "it is not set");
    }
    SettingErrors.checkCompression(CONTEXT, compression, compressionThresholdBytes, zstdLevel);
    if (maxConcurrentFileCopies < 1 || maxConcurrentFileCopies > MAX_CONCURRENT_FILE_COPIES_MAX) {
      throw invalid(
          MAX_CONCURRENT_FILE_COPIES_KEY,
          "a count in 1.." + MAX_CONCURRENT_FILE_COPIES_MAX,
          "it is " + maxConcurrentFileCopies);
    }
    if (maxBytesPerSecond != 0
        && (maxBytesPerSecond < MAX_BYTES_PER_SECOND_MIN
            || maxBytesPerSecond > MAX_BYTES_PER_SECOND_MAX)) {
      throw invalid(
          MAX_BYTES_PER_SECOND_KEY,
          "0 (no limit) or a rate in "
              + MAX_BYTES_PER_SECOND_MIN
              + ".."
              + MAX_BYTES_PER_SECOND_MAX
              + " bytes/s",
          "it is " + maxBytesPerSecond);
    }
  }

  /** The default copy concurrency and no bytes/s limit. */
  public FilesystemBackupStoreConfig(
      Path basePath, Compression compression, long compressionThresholdBytes, int zstdLevel) {
    this(
        basePath,
        compression,
        compressionThresholdBytes,
        zstdLevel,
        MAX_CONCURRENT_FILE_COPIES_DEFAULT,
        MAX_BYTES_PER_SECOND_DEFAULT);
  }

  /** Defaults for everything but the base path. */
  public static FilesystemBackupStoreConfig of(Path basePath) {
    return new FilesystemBackupStoreConfig(
        basePath, COMPRESSION_DEFAULT, COMPRESSION_THRESHOLD_BYTES_DEFAULT, ZSTD_LEVEL_DEFAULT);
  }

  public FilesystemBackupStoreConfig withCompression(Compression value, long thresholdBytes) {
    return new FilesystemBackupStoreConfig(
        basePath, value, thresholdBytes, zstdLevel, maxConcurrentFileCopies, maxBytesPerSecond);
  }

  public FilesystemBackupStoreConfig withMaxConcurrentFileCopies(int value) {
    return new FilesystemBackupStoreConfig(
        basePath, compression, compressionThresholdBytes, zstdLevel, value, maxBytesPerSecond);
  }

  /**
   * @param value bytes/s; 0 = no limit
   */
  public FilesystemBackupStoreConfig withMaxBytesPerSecond(long value) {
    return new FilesystemBackupStoreConfig(
        basePath,
        compression,
        compressionThresholdBytes,
        zstdLevel,
        maxConcurrentFileCopies,
        value);
  }

  /**
   * Parses the {@code compression} key's value.
   *
   * @throws IllegalArgumentException naming the key and the allowed values
   */
  public static Compression parseCompression(String value) {
    try {
      return Compression.fromManifestName(value);
    } catch (IllegalArgumentException e) {
      throw invalid(COMPRESSION_KEY, "one of [none, zstd]", "it is '" + value + "'");
    }
  }

  public CompressionPolicy compressionPolicy() {
    return new CompressionPolicy(compression, compressionThresholdBytes, zstdLevel);
  }

  static IllegalArgumentException invalid(String key, String rule, String actual) {
    return invalid(key, rule, actual, "");
  }

  static IllegalArgumentException invalid(String key, String rule, String actual, String remedy) {
    return SettingErrors.invalid(CONTEXT, key, rule, actual, remedy);
  }
}
