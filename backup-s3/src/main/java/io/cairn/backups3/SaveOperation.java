package io.cairn.backups3;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupAlreadyExistsException;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupMarkedFailedException;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.BackupStoreException;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.content.ContentEncoder;
import io.cairn.backupapi.content.EncodedContent;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestFile;
import io.cairn.backups3.client.S3Access;
import io.cairn.backups3.client.S3Calls;
import io.cairn.backups3.client.S3Errors;
import io.cairn.backups3.client.S3RequestException;
import io.cairn.backups3.manifest.ManifestObjects;
import io.cairn.backups3.manifest.Transition;
import io.cairn.backupstore.ManifestRules;
import io.cairn.backupstore.SaveTally;
import io.cairn.scheduler.Futures;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * One save: IN_PROGRESS manifest (only if none exists), contents (uploaded, or copied server-side
 * from the previous backup), every object's size confirmed, then COMPLETED (only if the manifest is
 * still the IN_PROGRESS one). Any failure moves it to FAILED with the reason, naming the file.
 */
final class SaveOperation {

  private static final Logger LOG = LoggerFactory.getLogger(SaveOperation.class);
  private static final int CONFIRMATIONS_IN_FLIGHT = 16;

  /** One stored file: its manifest entry and whether it was copied from the previous backup. */
  private record Stored(FileSetKind kind, ManifestFile entry, boolean reused) {}

  private final S3BackupStore store;
  private final S3Access s3;
  private final Backup backup;
  private final BackupIdentifier id;
  private final Optional<BackupIdentifier> previous;

  /** The COMPLETED manifest this save tried to write last, if it got that far. */
  private volatile Manifest completion;

  SaveOperation(S3BackupStore store, Backup backup, Optional<BackupIdentifier> previous) {
    this.store = store;
    this.s3 = store.s3();
    this.backup = backup;
    this.id = backup.id();
    this.previous = previous;
  }

  BackupSaveResult run() throws Exception {
    Manifest inProgress = Manifest.inProgress(backup.descriptor(), store.clock().instant());
    try {
      begin(inProgress);
    } catch (BackupAlreadyExistsException e) {
      throw e;
    } catch (RuntimeException e) {
      // The IN_PROGRESS manifest may have landed although its write failed: fail it if it is
      // exactly ours, so nothing is left IN_PROGRESS without a running save.
      String reason = e.getMessage() != null ? e.getMessage() : e.toString();
      Settled settled = settle(reason, inProgress::equals);
      throw new BackupStoreException(
          "Expected to start backup " + id + ", but " + reason + settled.note(), e);
    }
    List<Stored> stored = List.of();
    try {
      stored = storeContents();
      confirmStored(stored);
      Manifest completed = complete(stored);
      BackupSaveResult result = result(completed, stored);
      logCompleted(stored);
      return result;
    } catch (BackupMarkedFailedException e) {
      LOG.info("Backup {} was not completed: {}", id, e.getMessage());
      throw e;
    } catch (Exception e) {
      String reason = e instanceof BackupStoreException ? e.getMessage() : e.toString();
      Settled settled = settle(reason, current -> current.status() == BackupStatusCode.IN_PROGRESS);
      if (settled.completedByUs()) {
        // The completion landed, only its answer was lost: the backup is whole.
        LOG.info("Completed backup {} (the answer to its completion was lost: {})", id, reason);
        return result(completion, stored);
      }
      if (settled.note().isEmpty() && e instanceof BackupStoreException bse) {
        throw bse;
      }
      throw new BackupStoreException(
          "Expected to store backup " + id + ", but " + reason + settled.note(), e);
    } finally {
      store.savesInFlight().ended(id);
    }
  }

  /** Writes the IN_PROGRESS manifest unless the backup exists in any state. */
  private void begin(Manifest inProgress) {
    store
        .manifests()
        .transition(
            id,
            current -> {
              ManifestRules.checkAbsent(id, current);
              return Transition.write(inProgress, null);
            });
    store.savesInFlight().started(id);
  }

  private List<Stored> storeContents() throws Exception {
    Optional<Manifest> reusable =
        ManifestRules.reusable(
            previous, p -> store.manifests().read(p).map(ManifestObjects.Stored::manifest));
    var tasks = new FileTasks(store.transferExecutor());
    List<FileTasks.Task<Stored>> work = new ArrayList<>();
    List<Long> sizes = new ArrayList<>();
    for (FileSetKind kind : FileSetKind.values()) {
      Map<String, ManifestFile> candidates = ManifestRules.filesByName(reusable, kind);
      for (BackupFile file : backup.files(kind).files()) {
        Optional<ManifestFile> candidate = Optional.ofNullable(candidates.get(file.name()));
        sizes.add(file.lengthBytes());
        work.add(
            () -> {
              tasks.checkNotStopped(describe(kind, file));
              return storeFile(
                  kind, file, candidate.map(e -> new Candidate(reusable.get().id(), e)));
            });
      }
    }
    // Largest first: the big segments' parts keep every permit busy while the small files fill
    // the gaps, instead of a few big files finishing alone at the end.
    return tasks.runAll(work, sizes.stream().mapToLong(Long::longValue).toArray());
  }

  private record Candidate(BackupIdentifier previous, ManifestFile entry) {}

  private Stored storeFile(FileSetKind kind, BackupFile file, Optional<Candidate> candidate) {
    String key = s3.layout().objectKey(id, kind, file.name());
    try {
      if (candidate.isPresent() && candidate.get().entry().sizeBytes() == file.lengthBytes()) {
        Optional<ManifestFile> reused = tryReuse(kind, file, key, candidate.get());
        if (reused.isPresent()) {
          return new Stored(kind, reused.get(), true);
        }
      }
      EncodedContent encoded =
          store.uploader().upload(file, key, store.config().compressionPolicy());
      return new Stored(
          kind,
          new ManifestFile(
              file.name(),
              encoded.sizeBytes(),
              encoded.crc32c(),
              encoded.storedSizeBytes(),
              encoded.compression()),
          false);
    } catch (Exception e) {
      String cause = e instanceof S3RequestException ? e.getMessage() : e.toString();
      throw new BackupStoreException(
          "Expected to store "
              + describe(kind, file)
              + " from "
              + file.path()
              + " as "
              + s3.url(key)
              + ", but "
              + cause,
          e);
    }
  }

  /**
   * Copies the previous backup's object server-side if the source's CRC32C equals the previous
   * entry's and the previous object still has its recorded stored size; empty (upload instead)
   * otherwise, also when the previous object disappeared meanwhile.
   */
  private Optional<ManifestFile> tryReuse(
      FileSetKind kind, BackupFile file, String key, Candidate candidate) throws Exception {
    ManifestFile previousEntry = candidate.entry();
    if (ContentEncoder.crc32cOfPrefix(file.path(), file.lengthBytes()) != previousEntry.crc32c()) {
      return Optional.empty();
    }
    String source = s3.layout().objectKey(candidate.previous(), kind, previousEntry.name());
    Optional<HeadObjectResponse> head = s3.headIfExists(source);
    if (head.isEmpty() || head.get().contentLength() != previousEntry.storedSizeBytes()) {
      LOG.warn(
          "Not reusing {}: it is {}; uploading {} instead",
          s3.url(source),
          head.map(
                  h ->
                      h.contentLength()
                          + " bytes, its manifest says "
                          + previousEntry.storedSizeBytes())
              .orElse("missing"),
          describe(kind, file));
      return Optional.empty();
    }
    try {
      store.copier().copy(source, key, previousEntry.storedSizeBytes());
    } catch (S3RequestException e) {
      if (!e.isNotFound()) {
        throw e;
      }
      LOG.warn("Not reusing {}: it disappeared during the copy; uploading instead", s3.url(source));
      return Optional.empty();
    }
    return Optional.of(
        new ManifestFile(
            file.name(),
            previousEntry.sizeBytes(),
            previousEntry.crc32c(),
            previousEntry.storedSizeBytes(),
            previousEntry.compression()));
  }

  /**
   * Checks that every object exists with its recorded stored size before the manifest may say
   * COMPLETED (a server that lost an object, or a concurrent delete, fails the save instead).
   */
  private void confirmStored(List<Stored> stored) {
    for (int from = 0; from < stored.size(); from += CONFIRMATIONS_IN_FLIGHT) {
      List<CompletableFuture<Void>> checks = new ArrayList<>();
      for (Stored file :
          stored.subList(from, Math.min(stored.size(), from + CONFIRMATIONS_IN_FLIGHT))) {
        String key = s3.layout().objectKey(id, file.kind(), file.entry().name());
        checks.add(
            s3.headAsync(key)
                .handle(
                    (head, error) -> {
                      confirm(file, key, head, error);
                      return null;
                    }));
      }
      for (CompletableFuture<Void> check : checks) {
        S3Calls.await(check, "confirming the objects of backup " + id);
      }
    }
  }

  private void confirm(Stored file, String key, HeadObjectResponse head, Throwable error) {
    if (error != null && !S3Errors.isNotFound(error)) {
      Throwable cause = Futures.unwrap(error);
      throw cause instanceof RuntimeException r
          ? r
          : new BackupStoreException(
              "Expected to look up " + s3.url(key) + ", but " + cause, cause);
    }
    long expected = file.entry().storedSizeBytes();
    if (head == null || head.contentLength() != expected) {
      throw new BackupStoreException(
          "Expected "
              + s3.url(key)
              + " ("
              + file.kind().directoryName()
              + " file '"
              + file.entry().name()
              + "') to be stored with "
              + expected
              + " bytes before completing backup "
              + id
              + ", but "
              + (head == null ? "it does not exist" : "it has " + head.contentLength()));
    }
  }

  /** Moves the manifest to COMPLETED, only if it is still IN_PROGRESS. */
  private Manifest complete(List<Stored> stored) {
    Map<FileSetKind, List<ManifestFile>> files = new EnumMap<>(FileSetKind.class);
    for (FileSetKind kind : FileSetKind.values()) {
      files.put(kind, stored.stream().filter(s -> s.kind() == kind).map(Stored::entry).toList());
    }
    return store
        .manifests()
        .transition(
            id,
            current -> {
              Manifest completed =
                  ManifestRules.complete(id, current, files, store.clock().instant());
              completion = completed;
              return Transition.write(completed, completed);
            });
  }

  /**
   * What a failed save left behind, after settling it.
   *
   * @param completedByUs the manifest is the COMPLETED one this save wrote (its answer was lost)
   * @param failedNow this settlement moved it from IN_PROGRESS to FAILED
   * @param note for the error message; empty unless the backup may be left IN_PROGRESS
   */
  private record Settled(boolean completedByUs, boolean failedNow, String note) {}

  /**
   * Settles a failed save: moves the manifest to FAILED if it is IN_PROGRESS and {@code ours};
   * notices when it is the COMPLETED manifest this save tried to write.
   */
  private Settled settle(String reason, Predicate<Manifest> ours) {
    try {
      Manifest attempted = completion;
      Settled settled =
          store
              .manifests()
              .transition(
                  id,
                  current -> {
                    if (current.isEmpty()) {
                      return Transition.keep(new Settled(false, false, ""));
                    }
                    if (current.get().status() == BackupStatusCode.IN_PROGRESS
                        && ours.test(current.get())) {
                      return Transition.write(
                          current.get().fail(reason, store.clock().instant()),
                          new Settled(false, true, ""));
                    }
                    return Transition.keep(new Settled(current.get().equals(attempted), false, ""));
                  },
                  store.failureCalls());
      if (settled.failedNow()) {
        LOG.warn("Backup {} FAILED: {}", id, reason);
      }
      return settled;
    } catch (RuntimeException e) {
      LOG.error(
          "Backup {} failed ({}) and could not be marked FAILED: {}. Mark it failed before "
              + "deleting it.",
          id,
          reason,
          S3Errors.describe(e));
      return new Settled(
          false,
          false,
          ". It could not be marked FAILED ("
              + S3Errors.describe(e)
              + "); mark it failed before deleting it");
    }
  }

  private static BackupSaveResult result(Manifest completed, List<Stored> stored) {
    return tally(stored).result(completed);
  }

  private void logCompleted(List<Stored> stored) {
    tally(stored).logCompleted(id);
  }

  private static SaveTally tally(List<Stored> stored) {
    var tally = new SaveTally();
    stored.forEach(file -> tally.add(file.entry(), file.reused()));
    return tally;
  }

  private String describe(FileSetKind kind, BackupFile file) {
    return kind.directoryName() + " file '" + file.name() + "' of backup " + id;
  }
}
