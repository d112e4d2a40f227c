package io.cairn.backupstore;

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
import io.cairn.backupapi.PageRequest;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backupapi.VerificationReport;
import io.cairn.backupapi.archive.ArchiveObjects;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestFile;
import io.cairn.scheduler.Clock;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link BackupStore} every store is. Each SPI call becomes one {@link StoreOperations}
 * operation on the right executor — save, restore and verify on the transfer executor; status,
 * list, markFailed and delete on the query executor, so they never queue behind a transfer — with
 * its arguments checked; closing refuses new calls and waits for running ones before the store
 * releases what it holds. What each call does is written here once, over the store's {@link
 * ObjectLayer}, the one part that knows where the bytes are: the save in {@link SaveFlow}, restore
 * into a {@link RestoreTarget}, verify judged by {@link ContentProblems}, the manifest's state
 * machine by {@link ManifestRules}.
 */
public abstract class BackupStoreSkeleton implements BackupStore {

  private static final Logger LOG = LoggerFactory.getLogger(BackupStoreSkeleton.class);

  private final StoreOperations operations;
  private final Executor transfers;
  private final Executor queries;
  private final ObjectLayer layer;
  private final BackupEncryption encryption;
  private final Clock clock;
  private final SavesInFlight savesInFlight = new SavesInFlight();
  private final ArchiveOperations archive;

  /**
   * @param transfers runs saves, restores and verifies (blocking I/O); its size bounds how many run
   *     at once
   * @param queries runs status, list, markFailed and delete: a pool of its own
   * @param encryption how new backups' objects are sealed, and the keys to read encrypted ones
   * @param clock the source of manifest timestamps
   */
  protected BackupStoreSkeleton(
      StoreOperations operations,
      Executor transfers,
      Executor queries,
      ObjectLayer layer,
      BackupEncryption encryption,
      Clock clock) {
    this.operations = operations;
    this.transfers = transfers;
    this.queries = queries;
    this.layer = layer;
    this.encryption = encryption;
    this.clock = clock;
    this.archive = new ArchiveOperations(operations, transfers, queries, layer, encryption);
  }

  /** Releases what the store holds (threads, clients), once, after every operation ended. */
  protected abstract void released();

  // ------------------------------------------------------------------------------- the SPI

  @Override
  public final CompletableFuture<BackupSaveResult> save(
      Backup backup, Optional<BackupIdentifier> previous) {
    return operations.submit(
        "save",
        transfers,
        () -> {
          ManifestRules.checkPrevious(backup.id(), previous);
          return new SaveFlow(layer, encryption, clock, savesInFlight, backup, previous).run();
        });
  }

  @Override
  public final CompletableFuture<BackupStatus> getStatus(BackupIdentifier id) {
    return operations.submit(
        "status",
        queries,
        () ->
            layer
                .readManifest(id)
                .map(Manifest::toStatus)
                .orElseGet(() -> BackupStatus.doesNotExist(id)));
  }

  @Override
  public final CompletableFuture<BackupPage> list(
      BackupIdentifierWildcard wildcard, PageRequest page) {
    return operations.submit("list", queries, () -> layer.list(wildcard, page));
  }

  @Override
  public final CompletableFuture<Void> delete(BackupIdentifier id) {
    return operations.submit(
        "delete",
        queries,
        () -> {
          int objects =
              layer.delete(
                  id,
                  current -> {
                    savesInFlight.checkNotSaving(id);
                    if (current.isPresent()
                        && current.get().status() == BackupStatusCode.IN_PROGRESS) {
                      throw new BackupInProgressException(id, "its manifest is IN_PROGRESS");
                    }
                  });
          LOG.info("Deleted backup {} ({} objects)", id, objects);
          return null;
        });
  }

  @Override
  public final CompletableFuture<BackupStatus> markFailed(BackupIdentifier id, String reason) {
    CompletableFuture<BackupStatus> invalid = ManifestRules.checkReason(id, reason);
    if (invalid != null) {
      return invalid;
    }
    return operations.submit(
        "markFailed",
        queries,
        () -> {
          BackupStatus status =
              layer.changeManifest(
                  id,
                  current ->
                      ManifestRules.markFailed(id, current, reason, clock.instant())
                          .map(failed -> ManifestChange.write(failed, failed.toStatus()))
                          .orElseGet(() -> ManifestChange.keep(current.orElseThrow().toStatus())),
                  true);
          LOG.info(
              "Backup {} is {} after markFailed: {}",
              id,
              status.statusCode(),
              status.failureReason().orElse("-"));
          return status;
        });
  }

  @Override
  public final CompletableFuture<Backup> restore(
      BackupIdentifier id, Path targetDir, RestoreProgressListener listener) {
    return operations.submit("restore", transfers, () -> restoreNow(id, targetDir, listener));
  }

  @Override
  public final CompletableFuture<VerificationReport> verify(BackupIdentifier id) {
    return operations.submit("verify", transfers, () -> verifyNow(id));
  }

  @Override
  public final ArchiveObjects archive() {
    return archive;
  }

  @Override
  public final void close() {
    if (operations.close()) {
      released();
    }
  }

  /** A COMPLETED manifest, authentic, and the ciphers of its objects. */
  private record Readable(Manifest manifest, BackupEncryption.Ciphers ciphers) {}

  /**
   * The COMPLETED manifest of {@code id} and its objects' ciphers, or the exception restore and
   * verify specify — also when it is encrypted and cannot be opened or authenticated.
   */
  private Readable readCompleted(BackupIdentifier id) throws Exception {
    Manifest manifest = ManifestRules.requireCompleted(id, layer.readManifest(id));
    return new Readable(manifest, encryption.forRead(manifest));
  }

  /**
   * Restores every file of a COMPLETED backup into a {@link RestoreTarget}, largest first and
   * several at once, checking each on the way; on any failure the target is undone.
   */
  protected Backup restoreNow(BackupIdentifier id, Path targetDir, RestoreProgressListener listener)
      throws Exception {
    Readable readable = readCompleted(id);
    RestoreTarget target = RestoreTarget.prepare(readable.manifest(), targetDir, listener);
    try {
      List<FileTask<Void>> tasks = new ArrayList<>();
      for (RestoreTarget.Placement placement : target.largestFirst()) {
        tasks.add(
            new FileTask<>(
                placement.kind().directoryName() + "/" + placement.entry().name(),
                placement.entry().sizeBytes(),
                () -> {
                  target.restoreFile(
                      placement,
                      (p, channel, progress) ->
                          layer.restore(
                              id,
                              p.kind(),
                              p.entry(),
                              readable.ciphers().cipherFor(p.kind(), p.entry().name()),
                              channel,
                              progress));
                  return null;
                }));
      }
      layer.runAll(tasks);
      return target.finish();
    } catch (Exception e) {
      target.undo();
      throw e;
    }
  }

  /** Checks every stored object of a COMPLETED backup against its manifest, several at once. */
  private VerificationReport verifyNow(BackupIdentifier id) throws Exception {
    Readable readable = readCompleted(id);
    Manifest manifest = readable.manifest();
    List<FileTask<Optional<FileProblem>>> tasks = new ArrayList<>();
    for (FileSetKind kind : FileSetKind.values()) {
      for (ManifestFile entry : manifest.files(kind)) {
        tasks.add(
            new FileTask<>(
                kind.directoryName() + "/" + entry.name(),
                entry.sizeBytes(),
                () ->
                    layer.verify(
                        id, kind, entry, readable.ciphers().cipherFor(kind, entry.name()))));
      }
    }
    List<FileProblem> problems = layer.runAll(tasks).stream().flatMap(Optional::stream).toList();
    return ContentProblems.report(manifest, tasks.size(), problems);
  }
}
