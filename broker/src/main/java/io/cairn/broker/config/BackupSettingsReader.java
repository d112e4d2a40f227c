package io.cairn.broker.config;

import static io.cairn.broker.config.BrokerConfigKeys.*;

import io.cairn.backup.archive.ArchiveConfig;
import io.cairn.backup.retention.RetentionPolicy;
import io.cairn.backup.schedule.BackupSchedule;
import io.cairn.backup.schedule.CronExpression;
import io.cairn.backup.schedule.MarkerSchedule;
import io.cairn.backupapi.Compression;
import io.cairn.backupapi.content.MasterKeyRing;
import io.cairn.backupfs.FilesystemBackupStoreConfig;
import io.cairn.backups3.S3BackupStoreConfig;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.config.ConfigKey;
import io.cairn.config.ConfigValues;
import io.cairn.units.Durations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The {@code backup.*} section of a broker's configuration (and {@code data.restoreMode}, which
 * needs a store) for {@link BrokerConfigReader}: the store, encryption, the schedule (an interval
 * or a cron expression), markers, retention and the log archive, with the checks across them.
 * Problems go to the reader's violations.
 */
final class BackupSettingsReader {

  private final ConfigValues values;
  private final List<String> violations;

  BackupSettingsReader(ConfigValues values, List<String> violations) {
    this.values = values;
    this.violations = violations;
  }

  private <T> T get(ConfigKey<T> key) {
    return values.get(key);
  }

  private boolean allValid(ConfigKey<?>... keys) {
    return values.allValid(keys);
  }

  private boolean failed(String path) {
    return values.isFailed(path);
  }

  private String sourceOf(ConfigKey<?> key) {
    return values.sourceOf(key);
  }

  /** {@code data.restoreMode}: a restore comes from the backup store, so it needs one. */
  boolean restoreMode() {
    Boolean restoreMode = get(DATA_RESTORE_MODE);
    if (restoreMode == null || !restoreMode) {
      return false;
    }
    return !lacksStore(
        get(BACKUP_STORE), DATA_RESTORE_MODE.path() + " (" + sourceOf(DATA_RESTORE_MODE) + ")");
  }

  BrokerConfig.Backup backup() {
    boolean enabled = get(BACKUP_ENABLED);
    BackupStoreType store = get(BACKUP_STORE);
    int uploadConcurrency = get(BACKUP_UPLOAD_CONCURRENCY);
    long maxBytesPerSecond = get(BACKUP_MAX_BYTES_PER_SECOND);
    int maxConcurrent = get(BACKUP_MAX_CONCURRENT);
    int maxPending = get(BACKUP_MAX_PENDING);
    Optional<FilesystemBackupStoreConfig> fs = Optional.empty();
    Optional<S3BackupStoreConfig> s3 = Optional.empty();
    if (store == BackupStoreType.FS) {
      fs = filesystemStore(uploadConcurrency, maxBytesPerSecond);
    } else if (store == BackupStoreType.S3) {
      s3 = s3Store(maxBytesPerSecond);
    }
    Optional<ArchiveConfig> archive = archive(store);
    Optional<BackupSchedule> schedule = schedule();
    return new BrokerConfig.Backup(
        enabled,
        store,
        uploadConcurrency,
        maxBytesPerSecond,
        maxConcurrent,
        maxPending,
        fs,
        s3,
        encryption(),
        schedule,
        retention(store),
        archive,
        markers(archive.isPresent(), schedule));
  }

  /** The backup schedule: {@code backup.schedule.interval} or {@code backup.schedule.cron}. */
  private Optional<BackupSchedule> schedule() {
    Duration interval = get(BACKUP_SCHEDULE_INTERVAL);
    CronExpression cron = get(BACKUP_SCHEDULE_CRON);
    if (interval != null && cron != null) {
      violations.add(
          "Expected either "
              + BACKUP_SCHEDULE_INTERVAL.path()
              + " ("
              + sourceOf(BACKUP_SCHEDULE_INTERVAL)
              + ") or "
              + BACKUP_SCHEDULE_CRON.path()
              + " ("
              + sourceOf(BACKUP_SCHEDULE_CRON)
              + "), but both are set. Keep one");
      return Optional.empty();
    }
    if (cron != null) {
      return Optional.of(BackupSchedule.cron(cron));
    }
    return Optional.ofNullable(interval).map(BackupSchedule::new);
  }

  /** Whether a schedule is set, or was set and refused (its own error says why). */
  private boolean scheduleSetOrFailed() {
    return get(BACKUP_SCHEDULE_INTERVAL) != null
        || get(BACKUP_SCHEDULE_CRON) != null
        || failed(BACKUP_SCHEDULE_INTERVAL.path())
        || failed(BACKUP_SCHEDULE_CRON.path());
  }

  /** The marker schedule when {@code backup.schedule.markerInterval} is set. */
  private Optional<MarkerSchedule> markers(boolean archived, Optional<BackupSchedule> backups) {
    Duration markerInterval = get(BACKUP_SCHEDULE_MARKER_INTERVAL);
    if (markerInterval == null) {
      return Optional.empty();
    }
    String set =
        BACKUP_SCHEDULE_MARKER_INTERVAL.path()
            + " ("
            + sourceOf(BACKUP_SCHEDULE_MARKER_INTERVAL)
            + ")";
    if (backups.isEmpty()) {
      if (!scheduleSetOrFailed()) {
        violations.add(
            "Expected "
                + BACKUP_SCHEDULE_INTERVAL.path()
                + " or "
                + BACKUP_SCHEDULE_CRON.path()
                + " with "
                + set
                + ", but neither is set: markers run between scheduled backups");
      }
      return Optional.empty();
    }
    Duration interval = backups.get().interval();
    if (markerInterval.compareTo(interval) >= 0) {
      violations.add(
          "Expected "
              + set
              + " below "
              + (backups.get().cron().isPresent()
                  ? "the shortest gap of " + BACKUP_SCHEDULE_CRON.path()
                  : BACKUP_SCHEDULE_INTERVAL.path())
              + " ("
              + Durations.formatRounded(interval)
              + "), but was "
              + Durations.formatRounded(markerInterval));
      return Optional.empty();
    }
    if (!archived) {
      violations.add(
          "Expected "
              + BACKUP_ARCHIVE_ENABLED.path()
              + " with "
              + set
              + ", but the log archive is off: a marker is a restore point only in the archive");
      return Optional.empty();
    }
    return Optional.of(new MarkerSchedule(markerInterval, backups.get()));
  }

  /** Records that {@code set} (a key and its source) needs a store, if there is none. */
  private boolean lacksStore(BackupStoreType store, String set) {
    if (store != BackupStoreType.NONE) {
      return false;
    }
    violations.add(
        "Expected a backup store ("
            + BACKUP_STORE.path()
            + ": fs or s3) with "
            + set
            + ", but "
            + BACKUP_STORE.path()
            + " is none");
    return true;
  }

  /**
   * The log archive's settings when {@code backup.archive.enabled}: it needs a store (whose
   * encryption seals its objects too).
   */
  private Optional<ArchiveConfig> archive(BackupStoreType store) {
    Boolean enabled = get(BACKUP_ARCHIVE_ENABLED);
    Duration interval = get(BACKUP_ARCHIVE_INTERVAL);
    Long maxUnarchived = get(BACKUP_ARCHIVE_MAX_UNARCHIVED_BYTES);
    if (enabled == null || !enabled || interval == null || maxUnarchived == null) {
      return Optional.empty();
    }
    String set = BACKUP_ARCHIVE_ENABLED.path() + " (" + sourceOf(BACKUP_ARCHIVE_ENABLED) + ")";
    if (lacksStore(store, set)) {
      return Optional.empty();
    }
    return Optional.of(ArchiveConfig.of(interval, maxUnarchived));
  }

  /**
   * The retention policy when {@code backup.retention.maxCount} or {@code maxAge} is set: it runs
   * after scheduled backups, so it needs a schedule and a store.
   */
  private Optional<RetentionPolicy> retention(BackupStoreType store) {
    Integer maxCount = get(BACKUP_RETENTION_MAX_COUNT);
    Duration maxAge = get(BACKUP_RETENTION_MAX_AGE);
    Integer minCount = get(BACKUP_RETENTION_MIN_COUNT);
    if (maxCount == null && maxAge == null) {
      return Optional.empty();
    }
    String set =
        (maxCount != null ? BACKUP_RETENTION_MAX_COUNT.path() : BACKUP_RETENTION_MAX_AGE.path())
            + " ("
            + sourceOf(maxCount != null ? BACKUP_RETENTION_MAX_COUNT : BACKUP_RETENTION_MAX_AGE)
            + ")";
    if (!scheduleSetOrFailed()) {
      violations.add(
          "Expected "
              + BACKUP_SCHEDULE_INTERVAL.path()
              + " or "
              + BACKUP_SCHEDULE_CRON.path()
              + " with "
              + set
              + ", but neither is set: retention runs after each scheduled backup. Set a schedule,"
              + " or unset the retention keys");
      return Optional.empty();
    }
    if (lacksStore(store, set)) {
      return Optional.empty();
    }
    if (minCount == null) {
      return Optional.empty();
    }
    if (maxCount != null && minCount > maxCount) {
      violations.add(
          "Expected "
              + BACKUP_RETENTION_MIN_COUNT.path()
              + " <= "
              + BACKUP_RETENTION_MAX_COUNT.path()
              + " ("
              + maxCount
              + "), but was "
              + minCount
              + " ("
              + sourceOf(BACKUP_RETENTION_MIN_COUNT)
              + ")");
      return Optional.empty();
    }
    return Optional.of(
        new RetentionPolicy(
            maxCount == null ? OptionalInt.empty() : OptionalInt.of(maxCount),
            Optional.ofNullable(maxAge),
            minCount));
  }

  /**
   * Client-side encryption: master keys from {@code backup.encryption.keyFile} or {@code
   * backup.encryption.keys} (one of them), the active one named by {@code backup.encryption.keyId}
   * unless the ring holds only one. Neither set: off.
   */
  private BackupEncryption encryption() {
    String file = get(BACKUP_ENCRYPTION_KEY_FILE);
    String keys = get(BACKUP_ENCRYPTION_KEYS);
    String keyId = get(BACKUP_ENCRYPTION_KEY_ID);
    if (file == null && keys == null) {
      if (keyId != null) {
        violations.add(
            "Expected "
                + BACKUP_ENCRYPTION_KEY_FILE.path()
                + " or "
                + BACKUP_ENCRYPTION_KEYS.path()
                + " with "
                + BACKUP_ENCRYPTION_KEY_ID.path()
                + " ("
                + sourceOf(BACKUP_ENCRYPTION_KEY_ID)
                + "), but neither is set. Give the master keys, or unset the key id");
      }
      return BackupEncryption.off();
    }
    if (file != null && keys != null) {
      violations.add(
          "Expected one of "
              + BACKUP_ENCRYPTION_KEY_FILE.path()
              + " and "
              + BACKUP_ENCRYPTION_KEYS.path()
              + ", but both are set ("
              + sourceOf(BACKUP_ENCRYPTION_KEY_FILE)
              + "; "
              + sourceOf(BACKUP_ENCRYPTION_KEYS)
              + "). Keep the one that holds every key");
      return BackupEncryption.off();
    }
    ConfigKey<String> source = file != null ? BACKUP_ENCRYPTION_KEY_FILE : BACKUP_ENCRYPTION_KEYS;
    MasterKeyRing ring;
    try {
      ring =
          file != null
              ? MasterKeyRing.load(Path.of(file))
              : MasterKeyRing.parse(keys, source.path() + " (" + sourceOf(source) + ")");
    } catch (IllegalArgumentException e) {
      violations.add(e.getMessage() + " (" + source.path() + ")");
      return BackupEncryption.off();
    }
    String active = keyId;
    if (active == null) {
      if (ring.ids().size() != 1) {
        violations.add(
            "Expected "
                + BACKUP_ENCRYPTION_KEY_ID.path()
                + " to name the key that encrypts new backups, one of "
                + ring.ids()
                + ", but it is not set (with one key it may be left unset)");
        return BackupEncryption.off();
      }
      active = ring.ids().iterator().next();
    }
    try {
      return BackupEncryption.with(ring, active);
    } catch (IllegalArgumentException e) {
      violations.add(
          e.getMessage()
              + " ("
              + BACKUP_ENCRYPTION_KEY_ID.path()
              + ", "
              + sourceOf(BACKUP_ENCRYPTION_KEY_ID)
              + ")");
      return BackupEncryption.off();
    }
  }

  /**
   * The filesystem store: its throttle is {@code backup.maxBytesPerSecond}; it copies {@code
   * backup.fs.maxConcurrentFileCopies} files of a backup at once, at most the store's threads
   * ({@code backup.uploadConcurrency}), which is also the default.
   */
  private Optional<FilesystemBackupStoreConfig> filesystemStore(
      int uploadConcurrency, long maxBytesPerSecond) {
    String basePath = get(BACKUP_FS_BASE_PATH);
    String compression = get(BACKUP_FS_COMPRESSION);
    long threshold = get(BACKUP_FS_COMPRESSION_THRESHOLD);
    int level = get(BACKUP_FS_ZSTD_LEVEL);
    Integer copies = get(BACKUP_FS_MAX_CONCURRENT_FILE_COPIES);
    int fileCopies =
        copies != null
            ? copies
            : Math.min(
                uploadConcurrency, FilesystemBackupStoreConfig.MAX_CONCURRENT_FILE_COPIES_MAX);
    if (copies != null
        && allValid(BACKUP_UPLOAD_CONCURRENCY, BACKUP_FS_MAX_CONCURRENT_FILE_COPIES)
        && copies > uploadConcurrency) {
      violations.add(
          "Expected "
              + BACKUP_FS_MAX_CONCURRENT_FILE_COPIES.path()
              + " to be at most "
              + BACKUP_UPLOAD_CONCURRENCY.path()
              + " ("
              + uploadConcurrency
              + ", the threads of the store), but was "
              + copies
              + " ("
              + sourceOf(BACKUP_FS_MAX_CONCURRENT_FILE_COPIES)
              + "). Raise "
              + BACKUP_UPLOAD_CONCURRENCY.path()
              + " or leave "
              + BACKUP_FS_MAX_CONCURRENT_FILE_COPIES.path()
              + " unset to use it");
    }
    if (basePath == null) {
      if (!failed(BACKUP_FS_BASE_PATH.path())) {
        violations.add(
            "Expected "
                + BACKUP_FS_BASE_PATH.path()
                + " to be set when backup.store is fs, but it is not set (environment variable "
                + BACKUP_FS_BASE_PATH.envName()
                + "). Point it at an existing, writable directory");
      }
      return Optional.empty();
    }
    try {
      return Optional.of(
          new FilesystemBackupStoreConfig(
                  Path.of(basePath), Compression.fromManifestName(compression), threshold, level)
              .withMaxConcurrentFileCopies(fileCopies)
              .withMaxBytesPerSecond(maxBytesPerSecond));
    } catch (IllegalArgumentException e) {
      violations.add(e.getMessage() + " (backup.fs)");
      return Optional.empty();
    }
  }

  /**
   * The S3 store: {@code backup.maxBytesPerSecond} is its limit unless its own key is set, and
   * {@code backup.retention.maxAge} its object lock period unless its own key is set.
   */
  private Optional<S3BackupStoreConfig> s3Store(long maxBytesPerSecond) {
    Map<String, String> properties = new LinkedHashMap<>();
    S3_KEYS.forEach(
        (name, key) -> {
          String value = get(key);
          if (value != null) {
            properties.put(name, value.trim());
          }
        });
    if (maxBytesPerSecond > 0) {
      properties.putIfAbsent(
          S3BackupStoreConfig.MAX_BYTES_PER_SECOND_KEY, Long.toString(maxBytesPerSecond));
    }
    // The lock holds each object as long as retention keeps it, unless told otherwise.
    Duration maxAge = get(BACKUP_RETENTION_MAX_AGE);
    if (properties.containsKey(S3BackupStoreConfig.OBJECT_LOCK_MODE_KEY) && maxAge != null) {
      properties.putIfAbsent(S3BackupStoreConfig.OBJECT_LOCK_PERIOD_KEY, maxAge.toString());
    }
    try {
      return Optional.of(S3BackupStoreConfig.fromProperties(properties));
    } catch (IllegalArgumentException e) {
      violations.add(
          e.getMessage()
              + " (the key is backup.s3.<key>, environment variable "
              + ConfigKey.envName("backup.s3")
              + "_<KEY>)");
      return Optional.empty();
    }
  }
}
