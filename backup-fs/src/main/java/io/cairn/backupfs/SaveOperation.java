package io.cairn.backupfs;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupMarkedFailedException;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.BackupStoreException;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestFile;
import io.cairn.backupfs.content.ContentWriter.ReuseCandidate;
import io.cairn.backupfs.content.ContentWriter.StoredFile;
import io.cairn.backupfs.layout.StoreLayout;
import io.cairn.backupstore.ManifestRules;
import io.cairn.backupstore.SaveTally;
import io.cairn.files.DurableFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One save: IN_PROGRESS manifest (only if none exists), contents, COMPLETED manifest (only if still
 * IN_PROGRESS). Runs on the store's executor, whose threads also copy its files in parallel ({@link
 * ParallelCopies}); holds the backup's lock only around manifest checks and writes.
 */
final class SaveOperation {

  private static final Logger LOG = LoggerFactory.getLogger(SaveOperation.class);

  private final FilesystemBackupStore store;
  private final StoreLayout layout;
  private final Backup backup;
  private final BackupIdentifier id;
  private final Optional<BackupIdentifier> previous;

  private final SaveTally tally = new SaveTally();

  SaveOperation(FilesystemBackupStore store, Backup backup, Optional<BackupIdentifier> previous) {
    this.store = store;
    this.layout = store.layout();
    this.backup = backup;
    this.id = backup.id();
    this.previous = previous;
  }

  BackupSaveResult run() throws IOException {
    begin();
    try {
      Map<FileSetKind, List<ManifestFile>> files = storeContents();
      Manifest completed = complete(files);
      tally.logCompleted(id);
      return tally.result(completed);
    } catch (BackupMarkedFailedException e) {
      LOG.info("Backup {} was not completed: {}", id, e.getMessage());
      throw e;
    } catch (IOException | RuntimeException e) {
      String reason = e instanceof BackupStoreException ? e.getMessage() : e.toString();
      failIfInProgress(reason);
      throw e instanceof BackupStoreException bse
          ? bse
          : new BackupStoreException("Expected to store backup " + id + ", but " + reason, e);
    } finally {
      store.savesInFlight().ended(id);
      try {
        DurableFiles.deleteRecursively(layout.tempDirectory(id));
      } catch (IOException e) {
        LOG.warn("Could not remove temp files of backup {}: {}", id, e.toString());
      }
    }
  }

  /** Writes the IN_PROGRESS manifest unless the backup exists in any state. */
  private void begin() throws IOException {
    store
        .locks()
        .withLock(
            id,
            () -> {
              ManifestRules.checkAbsent(id, store.manifests().read(id));
              // Leftovers of a crashed delete or save of this id; nothing refers to them.
              store.removeContents(id);
              store.createDirectories(layout.manifestDirectory(id));
              store.createDirectories(layout.contentsDirectory(id));
              store
                  .manifests()
                  .write(Manifest.inProgress(backup.descriptor(), store.clock().instant()));
              store.savesInFlight().started(id);
              return null;
            });
  }

  /** One file to store, with the previous backup's object that may hold the same content. */
  private record Pending(FileSetKind kind, BackupFile file, Optional<ReuseCandidate> candidate) {}

  /**
   * Stores every file, up to {@code maxConcurrentFileCopies} at once: each is copied and fsynced
   * (or linked). Then the directories are fsynced once, and the entries returned in the order of
   * the backup's file sets.
   */
  private Map<FileSetKind, List<ManifestFile>> storeContents() throws IOException {
    Optional<Manifest> reusable = ManifestRules.reusable(previous, store.manifests()::read);
    List<Pending> pending = new ArrayList<>();
    for (FileSetKind kind : FileSetKind.values()) {
      Map<String, ManifestFile> candidates = ManifestRules.filesByName(reusable, kind);
      for (BackupFile file : backup.files(kind).files()) {
        pending.add(
            new Pending(
                kind,
                file,
                Optional.ofNullable(candidates.get(file.name()))
                    .map(
                        e ->
                            new ReuseCandidate(
                                e, layout.object(reusable.get().id(), kind, e.name())))));
      }
    }
    StoredFile[] stored = new StoredFile[pending.size()];
    ParallelCopies.run(
        store.executor(),
        store.config().maxConcurrentFileCopies(),
        stored.length,
        index -> stored[index] = storeFile(pending.get(index)));

    Set<Path> directories = new LinkedHashSet<>();
    Map<FileSetKind, List<ManifestFile>> result = new EnumMap<>(FileSetKind.class);
    for (FileSetKind kind : FileSetKind.values()) {
      directories.add(layout.fileSetDirectory(id, kind));
      result.put(kind, new ArrayList<>());
    }
    for (int i = 0; i < stored.length; i++) {
      tally.add(stored[i].entry(), stored[i].reused());
      result.get(pending.get(i).kind()).add(stored[i].entry());
      directories.add(stored[i].object().getParent());
    }
    for (Path directory : directories) {
      DurableFiles.fsyncDirectory(Files.createDirectories(directory));
    }
    DurableFiles.fsyncDirectory(layout.contentsDirectory(id));
    return result;
  }

  private StoredFile storeFile(Pending pending) throws IOException {
    StoredFile stored;
    try {
      stored = store.writer().store(id, pending.kind(), pending.file(), pending.candidate());
    } catch (IOException e) {
      throw new BackupStoreException(
          "Expected to store "
              + pending.kind().directoryName()
              + " file '"
              + pending.file().name()
              + "' of backup "
              + id
              + " from "
              + pending.file().path()
              + ", but "
              + e,
          e);
    }
    ManifestFile entry = stored.entry();
    if (stored.reused()) {
      store.metrics().reused(entry.sizeBytes());
    } else {
      store.metrics().copied(entry.sizeBytes());
    }
    return stored;
  }

  /** Moves the manifest to COMPLETED, only if it is still IN_PROGRESS. */
  private Manifest complete(Map<FileSetKind, List<ManifestFile>> files) throws IOException {
    return store
        .locks()
        .withLock(
            id,
            () -> {
              Manifest completed =
                  ManifestRules.complete(
                      id, store.manifests().read(id), files, store.clock().instant());
              store.manifests().write(completed);
              return completed;
            });
  }

  private void failIfInProgress(String reason) {
    try {
      store
          .locks()
          .withLock(
              id,
              () -> {
                Optional<Manifest> current = store.manifests().read(id);
                if (current.isPresent() && current.get().status() == BackupStatusCode.IN_PROGRESS) {
                  store.manifests().write(current.get().fail(reason, store.clock().instant()));
                  LOG.warn("Backup {} FAILED: {}", id, reason);
                }
                return null;
              });
    } catch (IOException | RuntimeException e) {
      LOG.error(
          "Backup {} failed ({}) and could not be marked FAILED: {}. Mark it failed before "
              + "deleting it.",
          id,
          reason,
          e.toString());
    }
  }
}
