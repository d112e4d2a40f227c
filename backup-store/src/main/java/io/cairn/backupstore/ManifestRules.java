package io.cairn.backupstore;

import io.cairn.backupapi.BackupAlreadyExistsException;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupMarkedFailedException;
import io.cairn.backupapi.BackupNotCompletedException;
import io.cairn.backupapi.BackupNotFoundException;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.ManifestException;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestEncryption;
import io.cairn.backupapi.manifest.ManifestFile;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The manifest state machine of {@link io.cairn.backupapi.BackupStore}, decided once for every
 * store: each method takes the manifest as the store read it ({@code current}, empty when there is
 * none) and returns the manifest to write, or throws what the SPI specifies. The store makes the
 * read-decide-write atomic its own way (a lock and a re-read; a conditional write).
 *
 * <pre>
 *   (none) ──save──▶ IN_PROGRESS ──save completes──▶ COMPLETED
 *     │                   │
 *     └──markFailed──▶ FAILED ◀──markFailed / save fails
 * </pre>
 *
 * COMPLETED and FAILED are final; an existing backup, in any state, is never saved again.
 */
public final class ManifestRules {

  private static final Logger LOG = LoggerFactory.getLogger(ManifestRules.class);

  /** Reads one manifest; {@link ManifestException} when it cannot be trusted. */
  @FunctionalInterface
  public interface ManifestReader {
    Optional<Manifest> read(BackupIdentifier id) throws Exception;
  }

  private ManifestRules() {}

  /**
   * @throws IllegalArgumentException if {@code previous} is not another backup of the partition
   */
  public static void checkPrevious(BackupIdentifier id, Optional<BackupIdentifier> previous) {
    previous.ifPresent(
        p -> {
          if (p.partitionId() != id.partitionId() || p.equals(id)) {
            throw new IllegalArgumentException(
                "Expected a previous backup of partition "
                    + id.partitionId()
                    + " other than "
                    + id
                    + ", but got "
                    + p
                    + " (save)");
          }
        });
  }

  /** A save begins only where no manifest exists, in any state. */
  public static void checkAbsent(BackupIdentifier id, Optional<Manifest> current) {
    if (current.isPresent()) {
      throw new BackupAlreadyExistsException(id, current.get().status());
    }
  }

  /**
   * The COMPLETED manifest a save writes, only over its own IN_PROGRESS one.
   *
   * @throws BackupMarkedFailedException if the manifest was deleted or marked meanwhile
   */
  public static Manifest complete(
      BackupIdentifier id,
      Optional<Manifest> current,
      Map<FileSetKind, List<ManifestFile>> files,
      Optional<ManifestEncryption> encryption,
      Instant now) {
    if (current.isEmpty()) {
      throw new BackupMarkedFailedException(id, "its manifest was deleted");
    }
    if (current.get().status() != BackupStatusCode.IN_PROGRESS) {
      throw new BackupMarkedFailedException(
          id,
          "it was marked "
              + current.get().status()
              + current.get().failureReason().map(r -> " (" + r + ")").orElse(""));
    }
    return current
        .get()
        .complete(
            files.get(FileSetKind.SNAPSHOT), files.get(FileSetKind.SEGMENTS), encryption, now);
  }

  /**
   * What {@code markFailed} writes: a FAILED manifest without descriptor where none exists, FAILED
   * over IN_PROGRESS; empty (keep it) for a final one.
   */
  public static Optional<Manifest> markFailed(
      BackupIdentifier id, Optional<Manifest> current, String reason, Instant now) {
    if (current.isEmpty()) {
      return Optional.of(Manifest.failedWithoutDescriptor(id, reason, now));
    }
    if (current.get().status() == BackupStatusCode.IN_PROGRESS) {
      return Optional.of(current.get().fail(reason, now));
    }
    return Optional.empty();
  }

  /** A failed future for a blank {@code markFailed} reason, or null when it is valid. */
  public static <T> CompletableFuture<T> checkReason(BackupIdentifier id, String reason) {
    if (reason == null || reason.isBlank()) {
      return CompletableFuture.failedFuture(
          new IllegalArgumentException(
              "Expected a non-blank failure reason, but was '"
                  + reason
                  + "' (markFailed "
                  + id
                  + ")"));
    }
    return null;
  }

  /**
   * The manifest restore and verify work from.
   *
   * @throws BackupNotFoundException if there is none
   * @throws BackupNotCompletedException if it is not COMPLETED
   */
  public static Manifest requireCompleted(BackupIdentifier id, Optional<Manifest> current) {
    Manifest manifest = current.orElseThrow(() -> new BackupNotFoundException(id));
    if (manifest.status() != BackupStatusCode.COMPLETED) {
      throw new BackupNotCompletedException(
          id, manifest.status(), manifest.failureReason().map(r -> " (" + r + ")").orElse(""));
    }
    return manifest;
  }

  /**
   * The previous backup whose files a save may reuse: only a COMPLETED one; anything else (missing,
   * not completed, a manifest that cannot be trusted) means everything is copied.
   */
  public static Optional<Manifest> reusable(
      Optional<BackupIdentifier> previous, ManifestReader manifests) throws Exception {
    if (previous.isEmpty()) {
      return Optional.empty();
    }
    try {
      Optional<Manifest> manifest = manifests.read(previous.get());
      if (manifest.isPresent() && manifest.get().status() == BackupStatusCode.COMPLETED) {
        return manifest;
      }
      LOG.debug(
          "Not reusing files of {}: it is {}",
          previous.get(),
          manifest.map(m -> m.status().name()).orElse("missing"));
    } catch (ManifestException e) {
      LOG.warn("Not reusing files of {}: {}", previous.get(), e.getMessage());
    }
    return Optional.empty();
  }

  /**
   * The files of {@code kind} in the {@link #reusable} previous backup, by name: the candidates a
   * save may reuse instead of copying. Empty when there is no previous backup to reuse.
   */
  public static Map<String, ManifestFile> filesByName(
      Optional<Manifest> reusable, FileSetKind kind) {
    return reusable
        .map(
            m ->
                m.files(kind).stream()
                    .collect(Collectors.toMap(ManifestFile::name, Function.identity())))
        .orElse(Map.of());
  }
}
