package io.cairn.broker;

import io.cairn.backupapi.BackupStore;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backups3.S3BackupStore;
import io.cairn.backups3.S3BackupStoreStartException;
import io.cairn.broker.config.BrokerConfig;
import io.cairn.pacing.Backoff;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Opens the backup store the configuration chooses ({@code backup.store}). */
final class BackupStores {

  /** How long a broker's start waits for an S3 store that does not answer. */
  static final Duration S3_START_PATIENCE = Duration.ofMinutes(2);

  private static final Backoff RETRY = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(16));
  private static final Logger LOG = LoggerFactory.getLogger(BackupStores.class);

  private BackupStores() {}

  /**
   * The store, or none and why.
   *
   * @param store the opened store, if backups are configured and enabled
   * @param unavailableReason why there is none (answered to backup queries); empty with a store
   */
  record Opened(Optional<BackupStore> store, String unavailableReason) {}

  /**
   * @param patience how long to try again while the S3 store does not answer
   * @throws BackupStoreOpenException if the filesystem store's base path is not an existing,
   *     writable directory, or the S3 store's start-up checks fail (naming the key to fix; after
   *     {@code patience} when the server did not answer)
   */
  static Opened open(
      BrokerConfig.Backup backup,
      Clock clock,
      Executor executor,
      Executor queryExecutor,
      MeterRegistry registry,
      Patience patience) {
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
      case S3 ->
          new Opened(
              Optional.of(
                  untilAnswered(
                      () ->
                          S3BackupStore.open(
                              backup.s3().orElseThrow(),
                              backup.encryption(),
                              clock,
                              executor,
                              queryExecutor,
                              registry),
                      patience)),
              "");
    };
  }

  /**
   * Opens the S3 store, trying again while its start-up checks fail only because the server did not
   * answer or answered a server error ({@link S3BackupStoreStartException#isTransient()}): a store
   * that is down for a moment must not keep a broker, and with it its partitions, from starting.
   * Every other failure (a setting to fix) ends the start at once.
   */
  static <T> T untilAnswered(Supplier<T> open, Patience patience) {
    long startedNanos = patience.nanos().getAsLong();
    for (int attempt = 1; ; attempt++) {
      try {
        return open.get();
      } catch (S3BackupStoreStartException e) {
        Duration waited = Duration.ofNanos(patience.nanos().getAsLong() - startedNanos);
        Duration delay = RETRY.ceiling(attempt);
        if (!e.isTransient() || waited.plus(delay).compareTo(patience.limit()) > 0) {
          throw s3Failed(e, attempt, waited);
        }
        boolean stopped = patience.stoppedWithin().test(Duration.ZERO);
        if (!stopped) {
          LOG.warn(
              "The S3 backup store failed its start-up checks (attempt {}): {}; trying again in {} s"
                  + " (no new try after {} s)",
              attempt,
              e.getMessage(),
              delay.toSeconds(),
              patience.limit().toSeconds());
          stopped = patience.stoppedWithin().test(delay);
        }
        if (stopped) {
          throw new BackupStoreOpenException(
              "Stopped while waiting for the S3 backup store to answer; its last failure: "
                  + e.getMessage(),
              e);
        }
      } catch (RuntimeException e) {
        throw s3Failed(e, attempt, Duration.ofNanos(patience.nanos().getAsLong() - startedNanos));
      }
    }
  }

  private static BackupStoreOpenException s3Failed(
      RuntimeException e, int attempts, Duration waited) {
    return new BackupStoreOpenException(
        "Expected to open the S3 backup store, but "
            + e.getMessage()
            + (attempts > 1
                ? " (the start tried " + attempts + " times in " + waited.toSeconds() + " s)"
                : "")
            + (e instanceof S3BackupStoreStartException start && start.configKey() == null
                ? "" // the server failed: no setting to point at
                : " (configuration keys backup.s3.*, environment variables CAIRN_BACKUP_S3_*)"),
        e);
  }

  /**
   * How long a start waits for an S3 store that does not answer, and how it waits between tries.
   *
   * @param limit no try starts later than this after the first (a try itself may take up to the
   *     store's {@code maxAttempts} × {@code apiCallTimeout})
   * @param nanos the clock the limit is measured on (the broker's {@code Clock#nanos})
   * @param stoppedWithin waits the given delay; true if the broker is being stopped meanwhile (the
   *     start gives up)
   */
  record Patience(Duration limit, LongSupplier nanos, Predicate<Duration> stoppedWithin) {}
}
