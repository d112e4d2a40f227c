package io.cairn.backupfs;

import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupPage;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.FileProblem;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.ManifestException;
import io.cairn.backupapi.PageRequest;
import io.cairn.backupapi.content.ContentCipher;
import io.cairn.backupapi.content.EncodedContent;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestFile;
import io.cairn.backupfs.content.ContentChecker;
import io.cairn.backupfs.content.ContentWriter;
import io.cairn.backupfs.layout.ManifestFiles;
import io.cairn.backupfs.layout.StoreLayout;
import io.cairn.backupstore.FileTask;
import io.cairn.backupstore.ManifestChange;
import io.cairn.backupstore.ObjectLayer;
import io.cairn.backupstore.PageTokens;
import io.cairn.backupstore.StoredFile;
import io.cairn.files.DurableFiles;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The filesystem store's objects: files under the {@link StoreLayout}, written by {@link
 * ContentWriter} (temp file, fsync, rename; a hard link for reuse) and read by {@link
 * ContentChecker}. A manifest change holds the backup's {@link BackupLocks} stripe around its read,
 * decision and atomic write — atomic within this process only (see {@link FilesystemBackupStore}).
 * A save's or restore's files are copied up to {@code maxConcurrentFileCopies} at once ({@link
 * ParallelCopies}).
 */
final class FilesystemObjects implements ObjectLayer {

  private static final Logger LOG = LoggerFactory.getLogger(FilesystemObjects.class);
  private static final PageTokens PAGE_TOKENS = new PageTokens("fs1:");

  private final StoreLayout layout;
  private final ManifestFiles manifests;
  private final ContentWriter writer;
  private final FilesystemBackupStoreMetrics metrics;
  private final Executor executor;
  private final int maxConcurrentFileCopies;
  private final BackupLocks locks = new BackupLocks();

  /** Guards creating and pruning the shared partition/checkpoint directories. */
  private final ReentrantLock structureLock = new ReentrantLock();

  FilesystemObjects(
      StoreLayout layout,
      ContentWriter writer,
      FilesystemBackupStoreMetrics metrics,
      Executor executor,
      int maxConcurrentFileCopies) {
    this.layout = layout;
    this.manifests = new ManifestFiles(layout);
    this.writer = writer;
    this.metrics = metrics;
    this.executor = executor;
    this.maxConcurrentFileCopies = maxConcurrentFileCopies;
  }

  ManifestFiles manifests() {
    return manifests;
  }

  @Override
  public String locate(BackupIdentifier id, FileSetKind kind, String name) {
    return layout.object(id, kind, name).toString();
  }

  // ----------------------------------------------------------------------------- manifests

  @Override
  public Optional<Manifest> readManifest(BackupIdentifier id) throws IOException {
    return manifests.read(id);
  }

  @Override
  public <R> R changeManifest(
      BackupIdentifier id,
      Function<Optional<Manifest>, ManifestChange<R>> decide,
      boolean markingFailure)
      throws IOException {
    return locks.withLock(
        id,
        () -> {
          Optional<Manifest> current = manifests.read(id);
          ManifestChange<R> change = decide.apply(current);
          if (change instanceof ManifestChange.Write<R> write) {
            if (current.isEmpty()) {
              createDirectories(layout.manifestDirectory(id));
            }
            manifests.write(write.next());
            return write.result();
          }
          return ((ManifestChange.Keep<R>) change).result();
        });
  }

  @Override
  public BackupPage list(BackupIdentifierWildcard wildcard, PageRequest page) throws Exception {
    return PAGE_TOKENS.page(layout.listIdentifiers(wildcard), page, this::readListedStatus);
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

  @Override
  public int delete(BackupIdentifier id, Consumer<Optional<Manifest>> check) throws IOException {
    return locks.withLock(
        id,
        () -> {
          Optional<Manifest> current;
          try {
            current = manifests.read(id);
          } catch (ManifestException e) {
            LOG.warn("Deleting backup {} whose manifest cannot be trusted: {}", id, e.getMessage());
            current = Optional.empty();
          }
          check.accept(current);
          // Contents first, the manifest last: a crash in between leaves a manifest whose delete
          // can be retried, never orphaned contents without a manifest to find them by.
          int objects = removeContents(id);
          manifests.delete(id);
          pruneEmptyParents(layout.manifestDirectory(id), layout.manifestsRoot());
          return objects;
        });
  }

  // ----------------------------------------------------------------------------- objects

  @Override
  public void prepare(BackupIdentifier id) throws IOException {
    // Leftovers of a crashed delete or save of this id; nothing refers to them.
    removeContents(id);
    createDirectories(layout.contentsDirectory(id));
  }

  @Override
  public EncodedContent put(
      BackupIdentifier id, FileSetKind kind, BackupFile file, ContentCipher cipher)
      throws IOException {
    EncodedContent encoded = writer.copy(id, file, layout.object(id, kind, file.name()), cipher);
    metrics.copied(encoded.sizeBytes());
    return encoded;
  }

  @Override
  public boolean reuse(
      BackupIdentifier from, BackupIdentifier to, FileSetKind kind, ManifestFile entry)
      throws IOException {
    boolean linked =
        writer.link(
            layout.object(from, kind, entry.name()), layout.object(to, kind, entry.name()), entry);
    if (linked) {
      metrics.reused(entry.sizeBytes());
    }
    return linked;
  }

  /** Fsyncs every directory of the save once: the file sets, the objects' parents, the backup's. */
  @Override
  public void seal(BackupIdentifier id, List<StoredFile> stored) throws IOException {
    Set<Path> directories = new LinkedHashSet<>();
    for (FileSetKind kind : FileSetKind.values()) {
      directories.add(layout.fileSetDirectory(id, kind));
    }
    for (StoredFile file : stored) {
      directories.add(layout.object(id, file.kind(), file.entry().name()).getParent());
    }
    for (Path directory : directories) {
      DurableFiles.fsyncDirectory(Files.createDirectories(directory));
    }
    DurableFiles.fsyncDirectory(layout.contentsDirectory(id));
  }

  @Override
  public void cleanUp(BackupIdentifier id) throws IOException {
    DurableFiles.deleteRecursively(layout.tempDirectory(id));
  }

  @Override
  public Optional<FileProblem> restore(
      BackupIdentifier id,
      FileSetKind kind,
      ManifestFile entry,
      ContentCipher cipher,
      FileChannel target,
      LongConsumer progress) {
    return ContentChecker.restore(
        kind, entry, cipher, layout.object(id, kind, entry.name()), target, progress);
  }

  @Override
  public Optional<FileProblem> verify(
      BackupIdentifier id, FileSetKind kind, ManifestFile entry, ContentCipher cipher) {
    return ContentChecker.check(
        kind, entry, cipher, layout.object(id, kind, entry.name()), null, bytes -> {});
  }

  /** Up to {@code maxConcurrentFileCopies} at once: this thread plus helpers on the executor. */
  @Override
  public <T> List<T> runAll(List<FileTask<T>> tasks) throws Exception {
    Object[] results = new Object[tasks.size()];
    ParallelCopies.run(
        executor,
        maxConcurrentFileCopies,
        tasks.size(),
        index -> results[index] = tasks.get(index).work().call());
    @SuppressWarnings("unchecked")
    List<T> list = (List<T>) Arrays.asList(results);
    return list;
  }

  // ----------------------------------------------------------------------------- structure

  /** Creates a backup's directory under the structure lock (deletes prune parents under it). */
  private void createDirectories(Path directory) throws IOException {
    structureLock.lock();
    try {
      Files.createDirectories(directory);
    } finally {
      structureLock.unlock();
    }
  }

  /** Removes a backup's contents; how many objects it held. */
  private int removeContents(BackupIdentifier id) throws IOException {
    Path contents = layout.contentsDirectory(id);
    if (!Files.exists(contents)) {
      return 0;
    }
    int objects = DurableFiles.deleteRecursively(contents);
    pruneEmptyParents(contents.getParent(), layout.contentsRoot());
    return objects;
  }

  private void pruneEmptyParents(Path directory, Path root) throws IOException {
    structureLock.lock();
    try {
      DurableFiles.deleteEmptyDirectories(directory, root);
    } finally {
      structureLock.unlock();
    }
  }

  // ----------------------------------------------------------------------------- the log archive

  @Override
  public String locateArchive(String key) {
    return layout.archiveObject(key).toString();
  }

  @Override
  public boolean createArchiveObject(String key, byte[] content) throws IOException {
    Path file = layout.archiveObject(key);
    Files.createDirectories(file.getParent());
    return DurableFiles.createOnce(file, content);
  }

  @Override
  public Optional<byte[]> readArchiveObject(String key) throws IOException {
    try {
      return Optional.of(Files.readAllBytes(layout.archiveObject(key)));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  /** Temp files of {@link DurableFiles#createOnce} start with a dot and are never listed. */
  @Override
  public List<String> listArchiveObjects(String directory, String startAfter, int limit)
      throws IOException {
    Path dir = layout.archiveObject(directory.substring(0, directory.length() - 1));
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    return DurableFiles.list(dir).stream()
        .filter(DurableFiles::isRegularFile)
        .map(p -> p.getFileName().toString())
        .filter(name -> !name.startsWith("."))
        .map(name -> directory + name)
        .filter(key -> startAfter == null || key.compareTo(startAfter) > 0)
        .limit(limit)
        .toList();
  }

  @Override
  public void deleteArchiveObject(String key) throws IOException {
    Path file = layout.archiveObject(key);
    if (Files.deleteIfExists(file)) {
      DurableFiles.fsyncDirectory(file.getParent());
    }
  }
}
