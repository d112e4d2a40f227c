package io.cairn.backupstore;

import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupPage;
import io.cairn.backupapi.FileProblem;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.PageRequest;
import io.cairn.backupapi.content.ContentCipher;
import io.cairn.backupapi.content.EncodedContent;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * Where a store keeps its bytes: the one part of a store that knows them. A filesystem store
 * implements it with files, renames and hard links; an object store with requests; a test store
 * with maps. Everything else — the order of a save, a restore and a verify, the manifest's state
 * machine, reuse decisions, settling a failed save, messages and the checks of stored content — is
 * {@link BackupStoreSkeleton}'s, written once.
 *
 * <p>Objects are named by backup, file set and file name. A manifest change is atomic against every
 * other change of the same manifest: within the process at least, across processes where the layer
 * can (conditional writes).
 */
public interface ObjectLayer {

  /** Names an object in messages and file problems: a path, a URL, a key. */
  String locate(BackupIdentifier id, FileSetKind kind, String name);

  /** Words a failure of this layer for a message; by default the exception itself. */
  default String describe(Exception failure) {
    return failure.toString();
  }

  // ----------------------------------------------------------------------------- manifests

  /**
   * The manifest of {@code id}; empty if there is none.
   *
   * @throws io.cairn.backupapi.ManifestException if it exists but cannot be trusted
   */
  Optional<Manifest> readManifest(BackupIdentifier id) throws Exception;

  /**
   * Reads the manifest of {@code id}, lets {@code decide} choose, and writes the manifest it chose
   * only if the manifest is still the one the decision saw. {@code decide} may run again after a
   * lost race; what it throws is thrown.
   *
   * @param markingFailure the change marks the backup FAILED, which is what operators see: a layer
   *     that retries may try harder
   * @throws io.cairn.backupapi.ManifestException if the current manifest cannot be trusted
   */
  <R> R changeManifest(
      BackupIdentifier id,
      Function<Optional<Manifest>, ManifestChange<R>> decide,
      boolean markingFailure)
      throws Exception;

  /** One page of the listing (see {@link io.cairn.backupapi.BackupStore#list}). */
  BackupPage list(BackupIdentifierWildcard wildcard, PageRequest page) throws Exception;

  /**
   * Deletes a backup: reads its manifest (one that cannot be trusted counts as absent), lets {@code
   * check} refuse by throwing, then deletes its objects — also strays no manifest names — and its
   * manifest last, so an interrupted delete leaves a manifest to delete again. Atomic against
   * changes of the manifest where the layer can.
   *
   * @return how many objects were deleted
   */
  int delete(BackupIdentifier id, Consumer<Optional<Manifest>> check) throws Exception;

  // ----------------------------------------------------------------------------- objects

  /** Before a save's first object: clears leftovers of a crashed save or delete of {@code id}. */
  default void prepare(BackupIdentifier id) throws Exception {}

  /**
   * Writes the object of {@code file} with its exact length, compressed by the store's policy and
   * then sealed by {@code cipher} (stored as is unless it {@linkplain ContentCipher#encrypts()
   * encrypts}).
   */
  EncodedContent put(BackupIdentifier id, FileSetKind kind, BackupFile file, ContentCipher cipher)
      throws Exception;

  /**
   * Makes the previous backup's object of {@code entry} the object of the same file in {@code to}
   * (a link, a server-side copy), after checking it still has its recorded stored size.
   *
   * @return false if it cannot (gone, a different size, no links here): the file is written anew
   */
  boolean reuse(BackupIdentifier from, BackupIdentifier to, FileSetKind kind, ManifestFile entry)
      throws Exception;

  /**
   * After every object of a save is stored and before its manifest may say COMPLETED: makes them
   * durable or confirms they are there.
   */
  default void seal(BackupIdentifier id, List<StoredFile> stored) throws Exception {}

  /** After a save ended either way: removes what only the save used (temp files). */
  default void cleanUp(BackupIdentifier id) throws Exception {}

  /**
   * Fills {@code target} from the object of {@code entry}, checking it (see {@link
   * ContentProblems}).
   *
   * @param cipher how the object is sealed; one that fails authentication is a problem
   * @param target created empty, open for reading and writing; the caller forces and closes it
   * @return the problem with the stored object, if any
   * @throws ContentProblems.SinkException if writing {@code target} failed
   */
  Optional<FileProblem> restore(
      BackupIdentifier id,
      FileSetKind kind,
      ManifestFile entry,
      ContentCipher cipher,
      FileChannel target,
      LongConsumer progress)
      throws IOException;

  /** Checks the object of {@code entry} without keeping its content; the problem, if any. */
  Optional<FileProblem> verify(
      BackupIdentifier id, FileSetKind kind, ManifestFile entry, ContentCipher cipher)
      throws IOException;

  /**
   * Runs every task, as many at once as the layer allows, and returns their results in order. After
   * a failure the tasks not yet started are skipped; every running one is waited for (so nothing
   * still writes when the caller undoes its work); the first failure is thrown.
   */
  <T> List<T> runAll(List<FileTask<T>> tasks) throws Exception;

  // ----------------------------------------------------------------------------- the log archive

  /** Names an archive object in messages: a path, a URL. */
  String locateArchive(String key);

  /**
   * Writes an archive object unless one exists under {@code key}, durably; atomic against other
   * writers of the key where the layer can (conditional writes, links).
   *
   * @return false if it existed (it is left as it was)
   */
  boolean createArchiveObject(String key, byte[] content) throws Exception;

  /** The archive object's content; empty if there is none. */
  Optional<byte[]> readArchiveObject(String key) throws Exception;

  /**
   * Up to {@code limit} keys of the archive objects directly in {@code directory} (ending in '/'),
   * in key order, each greater than {@code startAfter} (null: from the first).
   */
  List<String> listArchiveObjects(String directory, String startAfter, int limit) throws Exception;

  /** Deletes an archive object; a missing one is fine. */
  void deleteArchiveObject(String key) throws Exception;
}
