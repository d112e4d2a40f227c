package io.cairn.broker.config;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Where a broker's partition leaders write backups ({@code backup.store}). */
public enum BackupStoreType {
  /** No store: checkpoints are taken, backup queries answer "backups are not configured". */
  NONE,
  /** A directory, local or a mounted network filesystem ({@code backup.fs.*}). */
  FS,
  /** An S3 or S3-compatible bucket ({@code backup.s3.*}). */
  S3;

  /** The name in the configuration file. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  static Map<String, BackupStoreType> byName() {
    Map<String, BackupStoreType> names = new LinkedHashMap<>();
    for (BackupStoreType type : values()) {
      names.put(type.configName(), type);
    }
    return names;
  }
}
