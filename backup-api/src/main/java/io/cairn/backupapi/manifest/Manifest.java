package io.cairn.backupapi.manifest;

import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.Compression;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.content.SegmentedCipher;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A backup's manifest: its state, descriptor and the stored files. Immutable; every transition
 * returns a new manifest and checks that it is legal.
 *
 * <pre>
 *   inProgress(descriptor) ──complete(files)──▶ COMPLETED
 *        └──────────────────fail(reason)──────▶ FAILED
 *   failedWithoutDescriptor(id, reason) ───────▶ FAILED   (markFailed of a missing backup)
 * </pre>
 *
 * @param id the backup
 * @param status IN_PROGRESS, COMPLETED or FAILED
 * @param descriptor present unless the backup was only marked failed; always for COMPLETED
 * @param failureReason present iff FAILED
 * @param createdAt when the first manifest was written
 * @param updatedAt when this manifest was written, {@code >= createdAt}
 * @param snapshot stored snapshot files (empty unless COMPLETED)
 * @param segments stored segment files (empty unless COMPLETED)
 * @param encryption how the objects are encrypted, if they are (only COMPLETED manifests say; the
 *     stored size of an uncompressed file is then its encrypted size)
 */
public record Manifest(
    BackupIdentifier id,
    BackupStatusCode status,
    Optional<BackupDescriptor> descriptor,
    Optional<String> failureReason,
    Instant createdAt,
    Instant updatedAt,
    List<ManifestFile> snapshot,
    List<ManifestFile> segments,
    Optional<ManifestEncryption> encryption) {

  public Manifest {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(descriptor, "descriptor");
    Objects.requireNonNull(failureReason, "failureReason");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    snapshot = List.copyOf(snapshot);
    segments = List.copyOf(segments);
    Objects.requireNonNull(encryption, "encryption");
    if (status == BackupStatusCode.DOES_NOT_EXIST) {
      throw new IllegalArgumentException(
          "Expected status IN_PROGRESS, COMPLETED or FAILED, but was DOES_NOT_EXIST");
    }
    if (failureReason.isPresent() != (status == BackupStatusCode.FAILED)) {
      throw new IllegalArgumentException(
          "Expected a failureReason iff the status is FAILED, but status is "
              + status
              + " and failureReason is "
              + failureReason.map(r -> "'" + r + "'").orElse("absent"));
    }
    if (failureReason.isPresent() && failureReason.get().isBlank()) {
      throw new IllegalArgumentException("Expected a non-blank failureReason, but it is blank");
    }
    if (updatedAt.isBefore(createdAt)) {
      throw new IllegalArgumentException(
          "Expected updatedAt >= createdAt, but " + updatedAt + " < " + createdAt);
    }
    if (descriptor.isPresent() && !descriptor.get().identifier().equals(id)) {
      throw new IllegalArgumentException(
          "Expected the descriptor of "
              + id
              + ", but it describes "
              + descriptor.get().identifier());
    }
    if (status == BackupStatusCode.COMPLETED) {
      if (descriptor.isEmpty()) {
        throw new IllegalArgumentException(
            "Expected a descriptor in a COMPLETED manifest, but " + "it has none");
      }
      int fileCount = snapshot.size() + segments.size();
      long sizeBytes = total(snapshot) + total(segments);
      BackupDescriptor d = descriptor.get();
      if (d.fileCount() != fileCount || d.sizeBytes() != sizeBytes) {
        throw new IllegalArgumentException(
            "Expected the files to match the descriptor's "
                + d.fileCount()
                + " files of "
                + d.sizeBytes()
                + " bytes, but they are "
                + fileCount
                + " files of "
                + sizeBytes
                + " bytes");
      }
    } else if (!snapshot.isEmpty() || !segments.isEmpty()) {
      throw new IllegalArgumentException(
          "Expected files only in a COMPLETED manifest, but a "
              + status
              + " manifest lists "
              + (snapshot.size() + segments.size()));
    }
    if (encryption.isPresent() && status != BackupStatusCode.COMPLETED) {
      throw new IllegalArgumentException(
          "Expected encryption only in a COMPLETED manifest, but a " + status + " manifest has it");
    }
    requireUniqueNames(snapshot, FileSetKind.SNAPSHOT);
    requireUniqueNames(segments, FileSetKind.SEGMENTS);
    requireStoredSizes(snapshot, encryption.isPresent());
    requireStoredSizes(segments, encryption.isPresent());
  }

  /** The first manifest of a save. */
  public static Manifest inProgress(BackupDescriptor descriptor, Instant now) {
    return new Manifest(
        descriptor.identifier(),
        BackupStatusCode.IN_PROGRESS,
        Optional.of(descriptor),
        Optional.empty(),
        now,
        now,
        List.of(),
        List.of(),
        Optional.empty());
  }

  /** The manifest {@code markFailed} writes for a backup that has none. */
  public static Manifest failedWithoutDescriptor(BackupIdentifier id, String reason, Instant now) {
    return new Manifest(
        id,
        BackupStatusCode.FAILED,
        Optional.empty(),
        Optional.of(reason),
        now,
        now,
        List.of(),
        List.of(),
        Optional.empty());
  }

  /**
   * @param encryption how the files' objects are encrypted, if they are
   * @throws IllegalStateException unless this manifest is IN_PROGRESS
   */
  public Manifest complete(
      List<ManifestFile> snapshotFiles,
      List<ManifestFile> segmentFiles,
      Optional<ManifestEncryption> encryption,
      Instant now) {
    requireInProgress("complete");
    return new Manifest(
        id,
        BackupStatusCode.COMPLETED,
        descriptor,
        Optional.empty(),
        createdAt,
        later(now),
        snapshotFiles,
        segmentFiles,
        encryption);
  }

  /**
   * @throws IllegalStateException unless this manifest is IN_PROGRESS
   */
  public Manifest fail(String reason, Instant now) {
    requireInProgress("fail");
    return new Manifest(
        id,
        BackupStatusCode.FAILED,
        descriptor,
        Optional.of(reason),
        createdAt,
        later(now),
        List.of(),
        List.of(),
        Optional.empty());
  }

  public List<ManifestFile> files(FileSetKind kind) {
    return kind == FileSetKind.SNAPSHOT ? snapshot : segments;
  }

  public BackupStatus toStatus() {
    return new BackupStatus(
        id, status, descriptor, failureReason, Optional.of(createdAt), Optional.of(updatedAt));
  }

  private Instant later(Instant now) {
    return now.isBefore(createdAt) ? createdAt : now;
  }

  private void requireInProgress(String transition) {
    if (status != BackupStatusCode.IN_PROGRESS) {
      throw new IllegalStateException(
          "Expected an IN_PROGRESS manifest to " + transition + ", but " + id + " is " + status);
    }
  }

  private static long total(List<ManifestFile> files) {
    return files.stream().mapToLong(ManifestFile::sizeBytes).sum();
  }

  /** An uncompressed file is stored as it is, or encrypted: exactly its encrypted size. */
  private static void requireStoredSizes(List<ManifestFile> files, boolean encrypted) {
    for (ManifestFile f : files) {
      long expected = encrypted ? SegmentedCipher.encryptedSize(f.sizeBytes()) : f.sizeBytes();
      if (f.compression() == Compression.NONE && f.storedSizeBytes() != expected) {
        throw new IllegalArgumentException(
            "Expected storedSizeBytes "
                + expected
                + " for the uncompressed"
                + (encrypted ? ", encrypted" : "")
                + " file '"
                + f.name()
                + "' of "
                + f.sizeBytes()
                + " bytes, but it is "
                + f.storedSizeBytes());
      }
    }
  }

  private static void requireUniqueNames(List<ManifestFile> files, FileSetKind kind) {
    Set<String> names = new HashSet<>();
    for (ManifestFile f : files) {
      if (!names.add(f.name())) {
        throw new IllegalArgumentException(
            "Expected unique names in the "
                + kind.directoryName()
                + " files, but '"
                + f.name()
                + "' appears twice");
      }
    }
  }
}
