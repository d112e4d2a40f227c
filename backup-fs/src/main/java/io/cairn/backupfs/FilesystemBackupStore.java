package io.cairn.backupfs;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupInProgressException;
import io.cairn.backupapi.BackupPage;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.FileProblem;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.ManifestException;
import io.cairn.backupapi.PageRequest;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backupapi.VerificationReport;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestFile;
import io.cairn.backupfs.content.ContentChecker;
import io.cairn.backupfs.content.ContentWriter;
import io.cairn.backupfs.content.FileTransfer;
import io.cairn.backupfs.content.WriteThrottle;
import io.cairn.backupfs.layout.ManifestFiles;
import io.cairn.backupfs.layout.StoreLayout;
import io.cairn.backupstore.BackupStoreSkeleton;
import io.cairn.backupstore.ContentProblems;
import io.cairn.backupstore.ManifestRules;
import io.cairn.backupstore.PageTokens;
import io.cairn.backupstore.SavesInFlight;
import io.cairn.backupstore.StoreOperations;
import io.cairn.files.DurableFiles;
import io.cairn.pacing.RateLimiter;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
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
  private static final PageTokens PAGE_TOKENS = new PageTokens("fs1:");

  private final FilesystemBackupStoreConfig config;
  private final StoreLayout layout;
  private final ManifestFiles manifests;
  private final Clock clock;
  private final Executor executor;
  private final FilesystemBackupStoreMetrics metrics;
  private final BackupLocks locks = new BackupLocks();

  /** Guards creating and pruning the shared partition/checkpoint directories. */
  private final ReentrantLock structureLock = new ReentrantLock();

  private final SavesInFlight savesInFlight = new SavesInFlight();
  private final ContentWriter writer;

  private FilesystemBackupStore(
      FilesystemBackupStoreConfig config,
      Clock clock,
      Executor executor,
      Executor queryExecutor,
      MeterRegistry registry,
      RateLimiter.Pause pause) {
    super(
        new StoreOperations(
            config.basePath().toString(), registry, FilesystemBackupStoreMetrics.OPERATIONS),
        executor,
        queryExecutor);
    this.config = config;
    this.layout = new StoreLayout(config.basePath());
    this.manifests = new ManifestFiles(layout);
    this.clock = clock;
    this.executor = executor;
    this.metrics = new FilesystemBackupStoreMetrics(registry);
    // One limit for the whole store: every file of every save running in it.
    var limiter =
        new RateLimiter(
            config.maxBytesPerSecond(),
            burstBytes(config.maxBytesPerSecond()),
            metrics.limiterClock(),
            pause);
    this.writer =
        new ContentWriter(
            layout, config.compressionPolicy(), new WriteThrottle(limiter, metrics::throttled));
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
    return open(config, clock, executor, queryExecutor, registry, RateLimiter.SLEEP);
  }

  /**
   * {@link #open(FilesystemBackupStoreConfig, Clock, Executor, Executor, MeterRegistry)} whose
   * {@code maxBytesPerSecond} waits go through {@code pause} (tests move a simulated clock or hold
   * a save; the limit's clock is the registry's monotonic clock).
   */
  static FilesystemBackupStore open(
      FilesystemBackupStoreConfig config,
      Clock clock,
      Executor executor,
      Executor queryExecutor,
      MeterRegistry registry,
      RateLimiter.Pause pause) {
    checkBasePath(config.basePath());
    var store = new FilesystemBackupStore(config, clock, executor, queryExecutor, registry, pause);
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
            + "copies at once, {})",
        config.basePath(),
        config.compression().manifestName(),
        config.compressionThresholdBytes(),
        config.maxConcurrentFileCopies(),
        config.maxBytesPerSecond() == 0
            ? "no bytes/s limit"
            : "at most " + config.maxBytesPerSecond() + " bytes/s");
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

  // ------------------------------------------------------------------------- the skeleton's steps

  @Override
  protected Optional<Manifest> readManifest(BackupIdentifier id) throws IOException {
    return manifests.read(id);
  }

  @Override
  protected BackupSaveResult saveNow(Backup backup, Optional<BackupIdentifier> previous)
      throws IOException {
    return new SaveOperation(this, backup, previous).run();
  }

  @Override
  protected BackupPage listNow(BackupIdentifierWildcard wildcard, PageRequest page)
      throws IOException {
    return listPage(wildcard, page);
  }

  @Override
  protected void deleteNow(BackupIdentifier id) throws IOException {
    deleteBackup(id);
  }

  @Override
  protected BackupStatus markFailedNow(BackupIdentifier id, String reason) throws IOException {
    return locks.withLock(
        id,
        () -> {
          Optional<Manifest> current = manifests.read(id);
          Optional<Manifest> failed =
              ManifestRules.markFailed(id, current, reason, clock.instant());
          if (failed.isEmpty()) {
            return current.orElseThrow().toStatus();
          }
          if (current.isEmpty()) {
            createDirectories(layout.manifestDirectory(id));
          }
          manifests.write(failed.get());
          LOG.info(
              "Marked {}backup {} FAILED: {}", current.isEmpty() ? "missing " : "", id, reason);
          return failed.get().toStatus();
        });
  }

  @Override
  protected Backup restoreNow(BackupIdentifier id, Path targetDir, RestoreProgressListener listener)
      throws IOException {
    return new RestoreOperation(this, id, targetDir, listener).run();
  }

  @Override
  protected VerificationReport verifyNow(BackupIdentifier id) throws IOException {
    Manifest manifest = readCompleted(id);
    List<FileProblem> problems = new ArrayList<>();
    int files = 0;
    for (FileSetKind kind : FileSetKind.values()) {
      for (ManifestFile entry : manifest.files(kind)) {
        files++;
        ContentChecker.check(kind, entry, layout.object(id, kind, entry.name()), null, bytes -> {})
            .ifPresent(problems::add);
      }
    }
    return ContentProblems.report(manifest, files, problems);
  }

  @Override
  protected void released() {
    LOG.info("Closed filesystem backup store at {}", config.basePath());
  }

  // ------------------------------------------------------------------- shared with operations

  ManifestFiles manifests() {
    return manifests;
  }

  Clock clock() {
    return clock;
  }

  BackupLocks locks() {
    return locks;
  }

  ContentWriter writer() {
    return writer;
  }

  Executor executor() {
    return executor;
  }

  FilesystemBackupStoreMetrics metrics() {
    return metrics;
  }

  SavesInFlight savesInFlight() {
    return savesInFlight;
  }

  /** Creates a backup's directory under the structure lock (deletes prune parents under it). */
  void createDirectories(Path directory) throws IOException {
    structureLock.lock();
    try {
      Files.createDirectories(directory);
    } finally {
      structureLock.unlock();
    }
  }

  /** Removes a backup's contents (held under its lock), e.g. leftovers of a crashed delete. */
  void removeContents(BackupIdentifier id) throws IOException {
    Path contents = layout.contentsDirectory(id);
    if (!Files.exists(contents)) {
      return;
    }
    DurableFiles.deleteRecursively(contents);
    pruneEmptyParents(contents.getParent(), layout.contentsRoot());
  }

  // ----------------------------------------------------------------------------- internals

  private void deleteBackup(BackupIdentifier id) throws IOException {
    locks.withLock(
        id,
        () -> {
          savesInFlight.checkNotSaving(id);
          Optional<Manifest> current;
          try {
            current = manifests.read(id);
          } catch (ManifestException e) {
            LOG.warn("Deleting backup {} whose manifest cannot be trusted: {}", id, e.getMessage());
            current = Optional.empty();
          }
          if (current.isPresent() && current.get().status() == BackupStatusCode.IN_PROGRESS) {
            throw new BackupInProgressException(id, "its manifest is IN_PROGRESS");
          }
          // Contents first, the manifest last: a crash in between leaves a manifest whose delete
          // can
          // be retried, never orphaned contents without a manifest to find them by.
          removeContents(id);
          manifests.delete(id);
          pruneEmptyParents(layout.manifestDirectory(id), layout.manifestsRoot());
          LOG.info("Deleted backup {}", id);
          return null;
        });
  }

  private void pruneEmptyParents(Path directory, Path root) throws IOException {
    structureLock.lock();
    try {
      DurableFiles.deleteEmptyDirectories(directory, root);
    } finally {
      structureLock.unlock();
    }
  }

  private BackupPage listPage(BackupIdentifierWildcard wildcard, PageRequest page)
      throws IOException {
    Optional<BackupIdentifier> after = page.token().map(PAGE_TOKENS::parse);
    List<BackupIdentifier> ids = layout.listIdentifiers(wildcard);
    List<BackupStatus> statuses = new ArrayList<>();
    int index = 0;
    if (after.isPresent()) {
      while (index < ids.size() && ids.get(index).compareTo(after.get()) <= 0) {
        index++;
      }
    }
    BackupIdentifier last = null;
    for (; index < ids.size() && statuses.size() < page.size(); index++) {
      BackupIdentifier id = ids.get(index);
      last = id;
      // A backup deleted since its directory was listed is skipped.
      readListedStatus(id).ifPresent(statuses::add);
    }
    Optional<String> next =
        index < ids.size() && last != null
            ? Optional.of(PAGE_TOKENS.token(last))
            : Optional.empty();
    return new BackupPage(statuses, next);
  }

  /**
   * The listed status of one backup: a manifest that cannot be trusted does not fail the page, it
   * lists its backup as FAILED naming the manifest and the problem.
   */
  private Optional<BackupStatus> readListedStatus(BackupIdentifier id) throws IOException {
    try {
      return manifests.read(id).map(Manifest::toStatus);
    } catch (ManifestException e) {
      Path file = layout.manifestFile(id);
      Instant modified;
      try {
        modified = Files.getLastModifiedTime(file).toInstant();
      } catch (NoSuchFileException deleted) {
        return Optional.empty();
      }
      LOG.warn(
          "Listing backup {} as FAILED: its manifest cannot be trusted: {}", id, e.getMessage());
      return Optional.of(BackupStatus.unreadableManifest(id, e, modified));
    }
  }
}
