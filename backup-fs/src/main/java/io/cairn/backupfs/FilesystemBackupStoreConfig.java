package io.cairn.backupfs;

import io.cairn.backupapi.Compression;
import io.cairn.backupapi.content.CompressionPolicy;
import java.nio.file.Path;

/**
 * Settings of the {@link FilesystemBackupStore}. Immutable; the constructor checks every value
 * (the base directory itself is checked when the store opens).
 *
 * @param basePath the directory holding manifests and contents; must exist and be writable
 * @param compression {@code none} or {@code zstd}
 * @param compressionThresholdBytes with zstd, files of at least this size are compressed
 * @param zstdLevel zstd level, 1..19
 */
public record FilesystemBackupStoreConfig(
    Path basePath, Compression compression, long compressionThresholdBytes, int zstdLevel) {

  public static final String BASE_PATH_KEY = "basePath";
  public static final String COMPRESSION_KEY = "compression";
  public static final Compression COMPRESSION_DEFAULT = Compression.NONE;
  public static final String COMPRESSION_THRESHOLD_BYTES_KEY = "compressionThresholdBytes";
  public static final long COMPRESSION_THRESHOLD_BYTES_DEFAULT =
      CompressionPolicy.THRESHOLD_BYTES_DEFAULT;
  public static final String ZSTD_LEVEL_KEY = "zstdLevel";
  public static final int ZSTD_LEVEL_DEFAULT = CompressionPolicy.ZSTD_LEVEL_DEFAULT;

  private static final String CONTEXT = "backup store 'filesystem'";

  public FilesystemBackupStoreConfig {
    if (basePath == null) {
      throw invalid(BASE_PATH_KEY, "a directory path", "it is not set");
    }
    if (compression == null) {
      throw invalid(COMPRESSION_KEY, "one of [none, zstd]", "it is not set");
    }
    if (compressionThresholdBytes < 0) {
      throw invalid(COMPRESSION_THRESHOLD_BYTES_KEY, "a size >= 0",
          "it is " + compressionThresholdBytes);
    }
    if (zstdLevel < 1 || zstdLevel > 19) {
      throw invalid(ZSTD_LEVEL_KEY, "a level in 1..19", "it is " + zstdLevel);
    }
  }

  /** Defaults for everything but the base path. */
  public static FilesystemBackupStoreConfig of(Path basePath) {
    return new FilesystemBackupStoreConfig(basePath, COMPRESSION_DEFAULT,
        COMPRESSION_THRESHOLD_BYTES_DEFAULT, ZSTD_LEVEL_DEFAULT);
  }

  public FilesystemBackupStoreConfig withCompression(Compression value, long thresholdBytes) {
    return new FilesystemBackupStoreConfig(basePath, value, thresholdBytes, zstdLevel);
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
    return new IllegalArgumentException(
        "Expected " + key + " to be " + rule + ", but " + actual + " (" + CONTEXT + ", key "
            + key + ")" + (remedy.isEmpty() ? "" : ". " + remedy));
  }
}
