package io.cairn.qa;

import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Where the brokers of an {@link EmbeddedCluster} write backups: one store shared by every broker,
 * as in a real cluster. Becomes the brokers' {@code backup.*} configuration.
 */
public sealed interface BackupStoreSpec {

  /** No store: checkpoints are taken, backup queries answer "backups are not configured". */
  static BackupStoreSpec none() {
    return new None();
  }

  /**
   * A filesystem store in {@code basePath} (created if missing).
   *
   * @see #inDataDirectory()
   */
  static BackupStoreSpec filesystem(Path basePath) {
    return new Filesystem(Objects.requireNonNull(basePath, "basePath"));
  }

  /** A filesystem store in {@code backups/} under the cluster's data directory (the default). */
  static BackupStoreSpec inDataDirectory() {
    return new Filesystem(null);
  }

  /**
   * An S3 (or S3-compatible) store: {@code settings} are the broker's {@code backup.s3.<key>}
   * values by key without the prefix ({@code bucket}, {@code endpoint}, {@code accessKeyId}, {@code
   * secretAccessKey}, {@code pathStyleAccess}, {@code maxBytesPerSecond}, ...), checked by the
   * store when the brokers start.
   */
  static BackupStoreSpec s3(Map<String, String> settings) {
    return new S3(settings);
  }

  /** See {@link #none()}. */
  record None() implements BackupStoreSpec {}

  /**
   * See {@link #filesystem(Path)}.
   *
   * @param basePath the store's directory; null means {@code <dataDirectory>/backups}
   */
  record Filesystem(Path basePath) implements BackupStoreSpec {}

  /**
   * See {@link #s3(Map)}.
   *
   * @param settings {@code backup.s3.*} values by key without the prefix, sorted
   */
  record S3(Map<String, String> settings) implements BackupStoreSpec {
    public S3 {
      Objects.requireNonNull(settings, "settings");
      if (!settings.containsKey("bucket")) {
        throw new IllegalArgumentException(
            "Expected the S3 settings to name a bucket, but keys are "
                + settings.keySet()
                + " (backupStore). Add \"bucket\"");
      }
      settings = Collections.unmodifiableSortedMap(new TreeMap<>(settings));
    }
  }
}
