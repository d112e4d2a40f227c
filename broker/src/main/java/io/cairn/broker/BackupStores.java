package io.cairn.broker;

import io.cairn.backupapi.BackupStore;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backups3.S3BackupStore;
import io.cairn.broker.config.BrokerConfig;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Optional;
import java.util.concurrent.Executor;

/** Opens the backup store the configuration chooses ({@code backup.store}). */
final class BackupStores {

  private BackupStores() {}

  /**
   * The store, or none and why.
   *
   * @param store the opened store, if backups are configured and enabled
   * @param unavailableReason why there is none (answered to backup queries); empty with a store
   */
  record Opened(Optional<BackupStore> store, String unavailableReason) {}

  /**
   * @throws BackupStoreOpenException if the filesystem store's base path is not an existing,
   *     writable directory, or the S3 store's start-up checks fail (naming the key to fix)
   */
  static Opened open(
      BrokerConfig.Backup backup,
      Clock clock,
      Executor executor,
      Executor queryExecutor,
      MeterRegistry registry) {
    if (!backup.enabled()) {
      return new Opened(
          Optional.empty(),
          "Expected a backup store, but backups are disabled on this broker (backup.enabled is"
              + " false)");
    }
    return switch (backup.store()) {
      case NONE ->
          new Opened(
              Optional.empty(),
              "Expected a backup store, but backups are not configured (backup.store is none);"
                  + " set backup.store to fs or s3");
      case FS -> {
        try {
          yield new Opened(
              Optional.of(
                  FilesystemBackupStore.open(
                      backup.fs().orElseThrow(),
                      backup.encryption(),
                      clock,
                      executor,
                      queryExecutor,
                      registry)),
              "");
        } catch (IllegalArgumentException e) {
          throw new BackupStoreOpenException(
              e.getMessage() + " (configuration key backup.fs.*, e.g. CAIRN_BACKUP_FS_BASEPATH)",
              e);
        }
      }
      case S3 -> {
        try {
          yield new Opened(
              Optional.of(
                  S3BackupStore.open(
                      backup.s3().orElseThrow(),
                      backup.encryption(),
                      clock,
                      executor,
                      queryExecutor,
                      registry)),
              "");
        } catch (RuntimeException e) {
          throw new BackupStoreOpenException(
              "Expected to open the S3 backup store, but "
                  + e.getMessage()
                  + " (configuration keys backup.s3.*, environment variables CAIRN_BACKUP_S3_*)",
              e);
        }
      }
    };
  }
}
