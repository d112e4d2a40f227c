package io.cairn.backupfs;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backupfs.content.ContentWriter;
import io.cairn.backupfs.content.FileTransfer;
import io.cairn.backupfs.content.WriteThrottle;
import io.cairn.backupfs.layout.ManifestFiles;
import io.cairn.backupfs.layout.StoreLayout;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.backupstore.BackupStoreSkeleton;
import io.cairn.backupstore.StoreOperations;
import io.cairn.pacing.RateLimiter;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link BackupStore} in a directory — the embedded default. Layout in {@link StoreLayout}.
 *
 * <p><b>Durability.</b> Contents are written to a temp file, fsynced and renamed into place; their
 * directories are fsynced before the manifest moves to COMPLETED. Every manifest change is a temp
 * file, fsync, atomic rename and directory fsync, so a crash leaves the old or the new manifest.
 *
 * <p><b>Single writer process.</b> Conditional manifest transitions (create only if absent,
 * complete only if still IN_PROGRESS, fail only if IN_PROGRESS) are made atomic by a per-backup
 * lock plus a re-read of the manifest <em>within this process</em>. Several processes sharing one
 * base path (for example over NFS) are not guarded against each other: give each broker its own
 * store instance and never run two on one base path at once. An object store uses conditional
 * writes instead.
 *
 * <p><b>Threads.</b> Saves, restores and verifies run on the injected transfer executor; its size
 * bounds how many run at once. A save or restore also copies up to {@code maxConcurrentFileCopies}
 * of its files at once on that executor's threads (its own thread plus helpers; with no free thread
 * it copies alone), and waits for the bytes/s limit there. Status, list, markFailed and delete read
 * or change manifests only and run on the injected query executor, so they never queue behind a
 * transfer, throttled or not.
 *
 * <p><b>Bytes/s limit.</b> {@code maxBytesPerSecond} bounds the bytes written into the store by all
 * saves together (stored bytes, after compression; linked files cost nothing), with bursts of 1/8 s
 * of the limit. Restore and verify are not limited.
 */
public final class FilesystemBackupStore extends BackupStoreSkeleton {

  private static final Logger LOG = LoggerFactory.getLogger(FilesystemBackupStore.class);

  private final FilesystemBackupStoreConfig config;
  private final StoreLayout layout;
  private final FilesystemObjects objects;
  private final FilesystemBackupStoreMetrics metrics;

  private FilesystemBackupStore(
      FilesystemBackupStoreConfig config,
      Clock clock,
      Executor executor,
      Executor queryExecutor,
      FilesystemBackupStoreMetrics metrics,
      StoreLayout layout,
      FilesystemObjects objects,
      BackupEncryption encryption) {
    super(
        new StoreOperations(
            config.basePath().toString(),
            metrics.registry(),
            FilesystemBackupStoreMetrics.OPERATIONS),
        executor,
        queryExecutor,
        objects,
        encryption,
        clock);
    this.config = config;
    this.layout = layout;
    this.objects = objects;
    this.metrics = metrics;
  }

  private static FilesystemBackupStore create(
      FilesystemBackupStoreConfig config,
      BackupEncryption encryption,
      Clock clock,
      Executor executor,
      Executor queryExecutor,
      MeterRegistry registry,
      RateLimiter.Pause pause) {
    var metrics = new FilesystemBackupStoreMetrics(registry);
    var layout = new StoreLayout(config.basePath());
    // One limit for the whole store: every file of every save running in it.
    var limiter =
        new RateLimiter(
            config.maxBytesPerSecond(),
            burstBytes(config.maxBytesPerSecond()),
            metrics.limiterClock(),
            pause);
    var writer =
        new ContentWriter(
            layout, config.compressionPolicy(), new WriteThrottle(limiter, metrics::throttled));
    var objects =
        new FilesystemObjects(layout, writer, metrics, executor, config.maxConcurrentFileCopies());
    return new FilesystemBackupStore(
        config, clock, executor, queryExecutor, metrics, layout, objects, encryption);
  }

  /** A burst of 1/8 s of the limit, and at least one chunk of a copy. */
  static long burstBytes(long maxBytesPerSecond) {
    return Math.max(FileTransfer.chunkBytes(maxBytesPerSecond), maxBytesPerSecond / 8);
  }

  /**
   * Checks the base path and opens the store.
   *
   * @param clock the source of manifest timestamps
   * @param executor runs saves, restores and verifies and their file copies (blocking I/O); its
   *     size bounds how many run at once
   * @param queryExecutor runs status, list, markFailed and delete (manifest I/O); a pool of its
   *     own, so that they answer while transfers hold every thread of {@code executor}
   * @throws IllegalArgumentException naming {@code basePath} if it is not an existing writable
   *     directory
   */
  public static FilesystemBackupStore open(
      FilesystemBackupStoreConfig config,
      Clock clock,
      Executor executor,
      Executor queryExecutor,
      MeterRegistry registry) {
    return open(
        config,
        BackupEncryption.off(),
        clock,
        executor,
        queryExecutor,
        registry,
        RateLimiter.SLEEP);
  }

  /**
   * {@link #open(FilesystemBackupStoreConfig, Clock, Executor, Executor, MeterRegistry)} with
   * client-side encryption: new backups are encrypted as {@code encryption} says.
   */
  public static FilesystemBackupStore open(
      FilesystemBackupStoreConfig config,
      BackupEncryption encryption,
      Clock clock,
      Executor executor,
      Executor queryExecutor,
      MeterRegistry registry) {
    return open(config, encryption, clock, executor, queryExecutor, registry, RateLimiter.SLEEP);
  }

  /**
   * {@link #open(FilesystemBackupStoreConfig, Clock, Executor, Executor, MeterRegistry)} whose
   * {@code maxBytesPerSecond} waits go through {@code pause} (tests move a simulated clock or hold
   * a save; the limit's clock is the registry's monotonic clock).
   */
  static FilesystemBackupStore open(
      FilesystemBackupStoreConfig config,
      BackupEncryption encryption,
      Clock clock,
      Executor executor,
      Executor queryExecutor,
      MeterRegistry registry,
      RateLimiter.Pause pause) {
    checkBasePath(config.basePath());
    var store = create(config, encryption, clock, executor, queryExecutor, registry, pause);
    try {
      Files.createDirectories(store.layout.manifestsRoot());
      Files.createDirectories(store.layout.contentsRoot());
    } catch (IOException e) {
      throw FilesystemBackupStoreConfig.invalid(
          FilesystemBackupStoreConfig.BASE_PATH_KEY,
          "a writable directory",
          "creating its sub-directories failed: " + e);
    }
    LOG.info(
        "Opened filesystem backup store at {} (compression {}, threshold {} bytes, {} file "
            + "copies at once, {}, encryption {})",
        config.basePath(),
        config.compression().manifestName(),
        config.compressionThresholdBytes(),
        config.maxConcurrentFileCopies(),
        config.maxBytesPerSecond() == 0
            ? "no bytes/s limit"
            : "at most " + config.maxBytesPerSecond() + " bytes/s",
        encryption);
    return store;
  }

  private static void checkBasePath(Path basePath) {
    String key = FilesystemBackupStoreConfig.BASE_PATH_KEY;
    if (!Files.exists(basePath)) {
      throw FilesystemBackupStoreConfig.invalid(
          key,
          "an existing writable directory",
          "'" + basePath + "' does not exist",
          "Create it or point " + key + " at one.");
    }
    if (!Files.isDirectory(basePath)) {
      throw FilesystemBackupStoreConfig.invalid(
          key,
          "an existing writable directory",
          "'" + basePath + "' is not a directory",
          "Point " + key + " at a directory.");
    }
    Path probe = basePath.resolve(".cairn-write-probe");
    try {
      Files.write(
          probe,
          new byte[] {1},
          StandardOpenOption.CREATE,
          StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING);
      Files.deleteIfExists(probe);
    } catch (IOException e) {
      throw FilesystemBackupStoreConfig.invalid(
          key,
          "an existing writable directory",
          "writing into '" + basePath + "' failed: " + e,
          "Fix its permissions or point " + key + " at another directory.");
    }
  }

  public FilesystemBackupStoreConfig config() {
    return config;
  }

  /** The layout of the base path (tests and tools inspect stored objects through it). */
  public StoreLayout layout() {
    return layout;
  }

  /** Restores as every store does, and counts the restored bytes. */
  @Override
  protected Backup restoreNow(BackupIdentifier id, Path targetDir, RestoreProgressListener listener)
      throws Exception {
    Backup restored = super.restoreNow(id, targetDir, listener);
    metrics.restored(restored.descriptor().sizeBytes());
    return restored;
  }

  @Override
  protected void released() {
    LOG.info("Closed filesystem backup store at {}", config.basePath());
  }

  /** Reads and writes manifests in place (tests tamper with them). */
  ManifestFiles manifests() {
    return objects.manifests();
  }
}
