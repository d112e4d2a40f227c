package io.cairn.backupapi;

import io.cairn.backupapi.archive.ArchiveObjects;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Durable storage for partition backups: a manifest per backup plus its immutable contents.
 *
 * <p>Every method returns at once; the work runs on the store's own bounded I/O executor, never on
 * the caller's thread, and the future completes there. Failures complete the future exceptionally
 * with a {@link BackupStoreException} (or {@link IllegalArgumentException} for bad arguments);
 * expected conditions have their own subclasses.
 *
 * <p><b>Manifest state machine</b> (see {@link BackupStatusCode}):
 *
 * <ul>
 *   <li>{@code save} writes an IN_PROGRESS manifest <em>before</em> reading any content, stores
 *       every file, then moves the manifest to COMPLETED — conditionally: if the manifest is no
 *       longer IN_PROGRESS at that moment (it was marked FAILED), it stays as it is and the save
 *       fails with {@link BackupMarkedFailedException}. A save that fails for any other reason
 *       moves it to FAILED with that reason (again only if still IN_PROGRESS).
 *   <li>COMPLETED and FAILED are final. A backup is never overwritten: a save of an id that exists
 *       in any state fails with {@link BackupAlreadyExistsException}.
 *   <li>Every manifest change is atomic: readers see the old or the new manifest, never a mix.
 * </ul>
 *
 * <p>Every file's size, CRC32C of its uncompressed content, stored size and compression are
 * recorded in the manifest, so {@link #verify} can check a backup without restoring it.
 *
 * <p>Implementations run the contract tests in {@code io.cairn.backuptestkit}.
 */
public interface BackupStore extends AutoCloseable {

  /**
   * Saves a backup: manifest IN_PROGRESS, then every file (exactly its fixed length), then manifest
   * COMPLETED.
   *
   * <p><b>Incremental reuse.</b> When {@code previous} names a COMPLETED backup of the same
   * partition, a file whose set, name, size and CRC32C equal one of that backup's files is not
   * copied: the store makes the new backup refer to the same bytes in a way that keeps each backup
   * self-contained (fs: a hard link; object stores: a server-side copy). Deleting either backup
   * later never breaks the other. A previous backup that does not exist or is not COMPLETED is
   * ignored (everything is copied).
   *
   * @param previous the partition's previous completed backup, if any
   * @return completes with what was copied and reused once the manifest is COMPLETED; fails with
   *     {@link BackupAlreadyExistsException}, {@link BackupMarkedFailedException}, {@link
   *     IllegalArgumentException} (a previous backup of another partition), or a {@link
   *     BackupStoreException} naming the file that could not be stored (the backup is then FAILED)
   */
  CompletableFuture<BackupSaveResult> save(Backup backup, Optional<BackupIdentifier> previous);

  /** {@link #save(Backup, Optional)} without reuse. */
  default CompletableFuture<BackupSaveResult> save(Backup backup) {
    return save(backup, Optional.empty());
  }

  /**
   * The backup's status; {@link BackupStatusCode#DOES_NOT_EXIST} (not an error) when it is not in
   * the store. Fails with {@link ManifestException} when its manifest cannot be trusted.
   */
  CompletableFuture<BackupStatus> getStatus(BackupIdentifier id);

  /**
   * One page of the statuses of the backups matching {@code wildcard}, ordered by partition,
   * checkpoint id, node. The cost grows with the number of backups, never with the number of files
   * in them. A manifest that cannot be trusted (unparseable, truncated, of an unknown major
   * version) never fails the listing: its backup is listed as {@link
   * BackupStatus#unreadableManifest} — FAILED, without descriptor, the reason naming the manifest
   * and what is wrong — and the other backups are listed as usual (delete it to clear it). {@link
   * #getStatus}, {@link #restore} and {@link #verify} of it still fail with {@link
   * ManifestException}.
   *
   * @throws IllegalArgumentException (in the future) for a token this store did not hand out
   */
  CompletableFuture<BackupPage> list(BackupIdentifierWildcard wildcard, PageRequest page);

  /**
   * Deletes a backup's manifest and contents. Succeeds when it does not exist. Fails with {@link
   * BackupInProgressException} while it is IN_PROGRESS, or while a save of it is still running in
   * this store. Other backups never lose a file (reused files stay readable from them). A backup
   * whose manifest cannot be trusted can still be deleted.
   */
  CompletableFuture<Void> delete(BackupIdentifier id);

  /**
   * Marks a backup FAILED with {@code reason}, conditionally:
   *
   * <ul>
   *   <li>missing → a FAILED manifest without descriptor is created (a later save of the id is then
   *       refused);
   *   <li>IN_PROGRESS → FAILED; a save still running ends with {@link BackupMarkedFailedException}
   *       and the backup stays FAILED;
   *   <li>FAILED → unchanged, the first reason is kept (idempotent);
   *   <li>COMPLETED → unchanged (a completed backup is never rewritten; delete it instead).
   * </ul>
   *
   * @return the status after the call
   */
  CompletableFuture<BackupStatus> markFailed(BackupIdentifier id, String reason);

  /**
   * Restores a COMPLETED backup into {@code targetDir}: snapshot files under {@code
   * targetDir/snapshot}, segment files under {@code targetDir/segments} (both must not exist yet;
   * {@code targetDir} is created if missing). Every file is decoded, its size and CRC32C checked
   * against the manifest, and fsynced. On any failure both directories are removed again and the
   * future fails — with {@link BackupCorruptedException} naming the file for a mismatch, {@link
   * BackupNotFoundException}, {@link BackupNotCompletedException} or {@link ManifestException}.
   *
   * @return the restored backup: its descriptor, and file sets whose paths point into {@code
   *     targetDir} with lengths equal to the files' sizes
   */
  CompletableFuture<Backup> restore(
      BackupIdentifier id, Path targetDir, RestoreProgressListener listener);

  /**
   * Checks every stored file of a COMPLETED backup against its manifest (exists, stored size,
   * decodes, size, CRC32C) without restoring it, and reports every problem, not only the first.
   * Fails with {@link BackupNotFoundException}, {@link BackupNotCompletedException} or {@link
   * ManifestException}.
   */
  CompletableFuture<VerificationReport> verify(BackupIdentifier id);

  /**
   * The objects of the continuous log archive in this store ({@link
   * io.cairn.backupapi.archive.LogArchive} reads and writes through them); their operations share
   * the store's lifecycle.
   */
  ArchiveObjects archive();

  /**
   * Stops taking operations (their futures fail with {@link IllegalStateException}) and waits for
   * running ones to end. Idempotent.
   */
  @Override
  void close();
}
