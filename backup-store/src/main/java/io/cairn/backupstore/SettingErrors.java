package io.cairn.backupstore;

import io.cairn.backupapi.Compression;

/**
 * The one wording of a bad store setting, for every store's configuration: {@code Expected <key> to
 * be <rule>, but <actual> (<store>, key <key>). <remedy>}.
 */
public final class SettingErrors {

  /** The keys every store's compression is configured with. */
  public static final String COMPRESSION_KEY = "compression";

  public static final String COMPRESSION_THRESHOLD_BYTES_KEY = "compressionThresholdBytes";
  public static final String ZSTD_LEVEL_KEY = "zstdLevel";

  private SettingErrors() {}

  /**
   * Checks a store's compression settings, the same for every store.
   *
   * @throws IllegalArgumentException naming the key, the value and what is allowed
   */
  public static void checkCompression(
      String store, Compression compression, long thresholdBytes, int zstdLevel) {
    if (compression == null) {
      throw invalid(store, COMPRESSION_KEY, "one of [none, zstd]", "it is not set", "");
    }
    if (thresholdBytes < 0) {
      throw invalid(
          store, COMPRESSION_THRESHOLD_BYTES_KEY, "a size >= 0", "it is " + thresholdBytes, "");
    }
    if (zstdLevel < 1 || zstdLevel > 19) {
      throw invalid(store, ZSTD_LEVEL_KEY, "a level in 1..19", "it is " + zstdLevel, "");
    }
  }

  /**
   * @param store names the store, e.g. {@code backup store 's3'}
   * @param remedy what to do about it, or empty
   */
  public static IllegalArgumentException invalid(
      String store, String key, String rule, String actual, String remedy) {
    return new IllegalArgumentException(
        "Expected "
            + key
            + " to be "
            + rule
            + ", but "
            + actual
            + " ("
            + store
            + ", key "
            + key
            + ")"
            + (remedy.isEmpty() ? "" : ". " + remedy));
  }
}
