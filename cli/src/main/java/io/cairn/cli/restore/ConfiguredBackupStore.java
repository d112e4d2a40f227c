package io.cairn.cli.restore;

import io.cairn.backupapi.BackupStore;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backups3.S3BackupStore;
import io.cairn.broker.config.BackupStoreType;
import io.cairn.broker.config.BrokerConfig;
import io.cairn.cli.CliException;
import io.cairn.cli.ExitCode;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The backup store a broker's configuration names ({@code backup.store}: {@code fs} or {@code s3}),
 * opened as the broker opens it — the same store classes and settings, its own threads — so that a
 * backup can be restored or verified without a running broker. {@link #close()} closes the store
 * and stops its threads.
 */
public final class ConfiguredBackupStore implements AutoCloseable {
  private final BackupStore store;
  private final ExecutorService executor;

  private ConfiguredBackupStore(BackupStore store, ExecutorService executor) {
    this.store = store;
    this.executor = executor;
  }

  /**
   * Opens the store of {@code config}.
   *
   * @param source names the configuration in messages, e.g. the file
   * @param threads threads running the store's blocking work; at least the partitions handled at
   *     once (the broker uses {@code backup.uploadConcurrency})
   * @throws CliException exit 2 if no store is configured or its settings do not work (a base path
   *     that is not a directory), exit 1 if the S3 store cannot be opened
   */
  public static ConfiguredBackupStore open(
      BrokerConfig config, String source, int threads, Clock clock, MeterRegistry registry) {
    BrokerConfig.Backup backup = config.backup();
    if (!backup.active()) {
      throw new CliException(
          ExitCode.USAGE,
          "Expected a backup store in "
              + source
              + ", but "
              + (backup.enabled() ? "backup.store is none" : "backup.enabled is false")
              + ". Configure the store the backup was taken to (backup.store: fs or s3)");
    }
    ExecutorService executor = newPool(Math.max(threads, backup.uploadConcurrency()));
    try {
      BackupStore store =
          backup.store() == BackupStoreType.FS
              // one operation at a time: status and list may share the transfer threads
              ? FilesystemBackupStore.open(
                  backup.fs().orElseThrow(),
                  backup.encryption(),
                  clock,
                  executor,
                  executor,
                  registry)
              : S3BackupStore.open(
                  backup.s3().orElseThrow(),
                  backup.encryption(),
                  clock,
                  executor,
                  executor,
                  registry);
      return new ConfiguredBackupStore(store, executor);
    } catch (IllegalArgumentException e) {
      executor.shutdownNow();
      throw new CliException(
          ExitCode.USAGE,
          e.getMessage()
              + " (configuration keys backup."
              + backup.store().name().toLowerCase(java.util.Locale.ROOT)
              + ".* in "
              + source
              + ")",
          e);
    } catch (RuntimeException e) {
      executor.shutdownNow();
      throw new CliException(
          ExitCode.FAILED,
          "Expected to open the "
              + backup.store()
              + " backup store of "
              + source
              + ", but "
              + e.getMessage()
              + " (configuration keys backup.s3.*)",
          e);
    }
  }

  public BackupStore store() {
    return store;
  }

  @Override
  public void close() {
    try {
      store.close();
    } finally {
      executor.shutdownNow();
    }
  }

  private static ExecutorService newPool(int threads) {
    AtomicInteger counter = new AtomicInteger();
    return Executors.newFixedThreadPool(
        Math.max(1, threads),
        runnable -> {
          Thread thread =
              new Thread(runnable, "cairn-cli-backup-store-" + counter.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
  }
}
