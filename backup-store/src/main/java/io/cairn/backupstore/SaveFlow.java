package io.cairn.backupstore;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupAlreadyExistsException;
import io.cairn.backupapi.BackupFailure;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupMarkedFailedException;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.BackupStoreException;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.content.ContentCipher;
import io.cairn.backupapi.content.ContentEncoder;
import io.cairn.backupapi.content.EncodedContent;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestEncryption;
import io.cairn.backupapi.manifest.ManifestFile;
import io.cairn.scheduler.Clock;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One save, for every store: an IN_PROGRESS manifest (only if none exists); every file stored
 * (reused from the previous backup when its content is the same, else written), several at once;
 * the objects sealed; then COMPLETED (only if the manifest is still IN_PROGRESS). A failure marks
 * the manifest FAILED with the reason, naming the file — unless the completion had landed and only
 * its answer was lost, which makes the backup whole.
 */
final class SaveFlow {

  private static final Logger LOG = LoggerFactory.getLogger(SaveFlow.class);

  private final ObjectLayer layer;
  private final BackupEncryption encryption;
  private final Clock clock;
  private final SavesInFlight savesInFlight;
  private final Backup backup;
  private final BackupIdentifier id;
  private final Optional<BackupIdentifier> previous;

  /** The COMPLETED manifest this save tried to write last, if it got that far. */
  private volatile Manifest completion;

  SaveFlow(
      ObjectLayer layer,
      BackupEncryption encryption,
      Clock clock,
      SavesInFlight savesInFlight,
      Backup backup,
      Optional<BackupIdentifier> previous) {
    this.layer = layer;
    this.encryption = encryption;
    this.clock = clock;
    this.savesInFlight = savesInFlight;
    this.backup = backup;
    this.id = backup.id();
    this.previous = previous;
  }

  BackupSaveResult run() throws Exception {
    Manifest inProgress = Manifest.inProgress(backup.descriptor(), clock.instant());
    try {
      layer.changeManifest(
          id,
          current -> {
            ManifestRules.checkAbsent(id, current);
            return ManifestChange.write(inProgress, null);
          },
          false);
    } catch (BackupAlreadyExistsException e) {
      throw e;
    } catch (Exception e) {
      // The IN_PROGRESS manifest may have landed although its write failed: fail it if it is
      // exactly ours, so nothing is left IN_PROGRESS without a running save.
      String reason = e.getMessage() != null ? e.getMessage() : e.toString();
      Settled settled = settle(BackupFailure.UPLOAD_FAILED.reason(reason), inProgress::equals);
      throw new BackupStoreException(
          "Expected to start backup " + id + ", but " + reason + settled.note(), e);
    }
    savesInFlight.started(id);
    List<StoredFile> stored = List.of();
    try {
      layer.prepare(id);
      Optional<Manifest> reusable = ManifestRules.reusable(previous, layer::readManifest);
      BackupEncryption.Save keys = encryption.forSave(id, reusable);
      stored = storeContents(keys.mayReuse() ? reusable : Optional.empty(), keys);
      layer.seal(id, stored);
      Manifest completed = complete(stored, keys);
      SaveTally tally = tally(stored);
      tally.logCompleted(id);
      return tally.result(completed);
    } catch (BackupMarkedFailedException e) {
      LOG.info("Backup {} was not completed: {}", id, e.getMessage());
      throw e;
    } catch (Exception e) {
      String reason = e instanceof BackupStoreException ? e.getMessage() : layer.describe(e);
      Settled settled =
          settle(
              BackupFailure.UPLOAD_FAILED.reason(reason),
              current -> current.status() == BackupStatusCode.IN_PROGRESS);
      if (settled.completedByUs()) {
        LOG.info("Completed backup {} (the answer to its completion was lost: {})", id, reason);
        return tally(stored).result(completion);
      }
      if (settled.note().isEmpty() && e instanceof BackupStoreException bse) {
        throw bse;
      }
      throw new BackupStoreException(
          "Expected to store backup " + id + ", but " + reason + settled.note(), e);
    } finally {
      savesInFlight.ended(id);
      try {
        layer.cleanUp(id);
      } catch (Exception e) {
        LOG.warn("Could not clean up after backup {}: {}", id, layer.describe(e));
      }
    }
  }

  private List<StoredFile> storeContents(Optional<Manifest> reusable, BackupEncryption.Save keys)
      throws Exception {
    List<FileTask<StoredFile>> tasks = new ArrayList<>();
    for (FileSetKind kind : FileSetKind.values()) {
      Map<String, ManifestFile> candidates = ManifestRules.filesByName(reusable, kind);
      for (BackupFile file : backup.files(kind).files()) {
        Optional<ManifestFile> candidate = Optional.ofNullable(candidates.get(file.name()));
        tasks.add(
            new FileTask<>(
                kind.directoryName() + "/" + file.name(),
                file.lengthBytes(),
                () ->
                    storeFile(
                        kind,
                        file,
                        candidate.map(e -> new Candidate(reusable.get().id(), e)),
                        keys.cipherFor(kind, file.name()))));
      }
    }
    return layer.runAll(tasks);
  }

  private record Candidate(BackupIdentifier previous, ManifestFile entry) {}

  private StoredFile storeFile(
      FileSetKind kind, BackupFile file, Optional<Candidate> candidate, ContentCipher cipher) {
    try {
      if (candidate.isPresent() && sameContent(file, candidate.get().entry())) {
        ManifestFile entry = candidate.get().entry();
        if (layer.reuse(candidate.get().previous(), id, kind, entry)) {
          return new StoredFile(kind, entry, true);
        }
      }
      EncodedContent encoded = layer.put(id, kind, file, cipher);
      return new StoredFile(
          kind,
          new ManifestFile(
              file.name(),
              encoded.sizeBytes(),
              encoded.crc32c(),
              encoded.storedSizeBytes(),
              encoded.compression()),
          false);
    } catch (Exception e) {
      throw new BackupStoreException(
          "Expected to store "
              + kind.directoryName()
              + " file '"
              + file.name()
              + "' of backup "
              + id
              + " from "
              + file.path()
              + " as "
              + layer.locate(id, kind, file.name())
              + ", but "
              + layer.describe(e),
          e);
    }
  }

  /** The source holds what the previous backup's entry recorded: same length and CRC32C. */
  private static boolean sameContent(BackupFile file, ManifestFile entry) throws IOException {
    return entry.sizeBytes() == file.lengthBytes()
        && ContentEncoder.crc32cOfPrefix(file.path(), file.lengthBytes()) == entry.crc32c();
  }

  /** Moves the manifest to COMPLETED, only if it is still IN_PROGRESS. */
  private Manifest complete(List<StoredFile> stored, BackupEncryption.Save keys) throws Exception {
    Map<FileSetKind, List<ManifestFile>> files = new EnumMap<>(FileSetKind.class);
    for (FileSetKind kind : FileSetKind.values()) {
      files.put(
          kind, stored.stream().filter(s -> s.kind() == kind).map(StoredFile::entry).toList());
    }
    Optional<ManifestEncryption> sealed =
        keys.seal(
            backup.descriptor(), files.get(FileSetKind.SNAPSHOT), files.get(FileSetKind.SEGMENTS));
    return layer.changeManifest(
        id,
        current -> {
          Manifest completed = ManifestRules.complete(id, current, files, sealed, clock.instant());
          completion = completed;
          return ManifestChange.write(completed, completed);
        },
        false);
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
          layer.changeManifest(
              id,
              current -> {
                if (current.isEmpty()) {
                  return ManifestChange.keep(new Settled(false, false, ""));
                }
                if (current.get().status() == BackupStatusCode.IN_PROGRESS
                    && ours.test(current.get())) {
                  return ManifestChange.write(
                      current.get().fail(reason, clock.instant()), new Settled(false, true, ""));
                }
                return ManifestChange.keep(new Settled(current.get().equals(attempted), false, ""));
              },
              true);
      if (settled.failedNow()) {
        LOG.warn("Backup {} FAILED: {}", id, reason);
      }
      return settled;
    } catch (Exception e) {
      LOG.error(
          "Backup {} failed ({}) and could not be marked FAILED: {}. Mark it failed before "
              + "deleting it.",
          id,
          reason,
          layer.describe(e));
      return new Settled(
          false,
          false,
          ". It could not be marked FAILED ("
              + layer.describe(e)
              + "); mark it failed before deleting it");
    }
  }

  private static SaveTally tally(List<StoredFile> stored) {
    var tally = new SaveTally();
    stored.forEach(file -> tally.add(file.entry(), file.reused()));
    return tally;
  }
}
