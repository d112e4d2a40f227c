package io.cairn.backups3;

import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupPage;
import io.cairn.backupapi.BackupStoreException;
import io.cairn.backupapi.FileProblem;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.ManifestException;
import io.cairn.backupapi.PageRequest;
import io.cairn.backupapi.content.CompressionPolicy;
import io.cairn.backupapi.content.ContentCipher;
import io.cairn.backupapi.content.EncodedContent;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestFile;
import io.cairn.backups3.client.S3Access;
import io.cairn.backups3.client.S3Calls;
import io.cairn.backups3.client.S3Errors;
import io.cairn.backups3.client.S3RequestException;
import io.cairn.backups3.manifest.ManifestObjects;
import io.cairn.backups3.transfer.ObjectChecker;
import io.cairn.backups3.transfer.ObjectCopier;
import io.cairn.backups3.transfer.ObjectUploader;
import io.cairn.backupstore.FileTask;
import io.cairn.backupstore.ManifestChange;
import io.cairn.backupstore.ObjectLayer;
import io.cairn.backupstore.StoredFile;
import io.cairn.scheduler.Futures;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * The S3 store's objects: requests through {@link S3Access}. Manifests change by conditional writes
 * ({@link ManifestObjects}); contents are streamed up ({@link ObjectUploader}), reused by a
 * server-side copy ({@link ObjectCopier}), confirmed by HEAD before a manifest may say COMPLETED,
 * and read back with plain and ranged GETs ({@link ObjectChecker}). A save's, restore's or verify's
 * files run on the store's transfer threads, the largest first.
 */
final class S3Objects implements ObjectLayer {

  private static final Logger LOG = LoggerFactory.getLogger(S3Objects.class);
  private static final int CONFIRMATIONS_IN_FLIGHT = 16;

  private final S3Access s3;
  private final ManifestObjects manifests;
  private final S3Calls failureCalls;
  private final CompressionPolicy compression;
  private final ObjectUploader uploader;
  private final ObjectCopier copier;
  private final ObjectChecker checker;
  private final Executor transferExecutor;
  private final ArchiveObjectCalls archive;

  S3Objects(
      S3Access s3,
      ManifestObjects manifests,
      S3Calls failureCalls,
      CompressionPolicy compression,
      ObjectUploader uploader,
      ObjectCopier copier,
      ObjectChecker checker,
      Executor transferExecutor) {
    this.s3 = s3;
    this.manifests = manifests;
    this.failureCalls = failureCalls;
    this.compression = compression;
    this.uploader = uploader;
    this.copier = copier;
    this.checker = checker;
    this.transferExecutor = transferExecutor;
    this.archive = new ArchiveObjectCalls(s3, manifests.conditional());
  }

  @Override
  public String locate(BackupIdentifier id, FileSetKind kind, String name) {
    return s3.url(s3.layout().objectKey(id, kind, name));
  }

  @Override
  public String describe(Exception failure) {
    return failure instanceof S3RequestException
        ? failure.getMessage()
        : S3Errors.describe(failure);
  }

  // ----------------------------------------------------------------------------- manifests

  @Override
  public Optional<Manifest> readManifest(BackupIdentifier id) {
    return manifests.read(id).map(ManifestObjects.Stored::manifest);
  }

  /** Failure marking tries harder than other requests: a FAILED manifest is what operators see. */
  @Override
  public <R> R changeManifest(
      BackupIdentifier id,
      Function<Optional<Manifest>, ManifestChange<R>> decide,
      boolean markingFailure) {
    return markingFailure
        ? manifests.transition(id, decide, failureCalls)
        : manifests.transition(id, decide);
  }

  @Override
  public BackupPage list(BackupIdentifierWildcard wildcard, PageRequest page) {
    return new ListOperation(s3, manifests).run(wildcard, page);
  }

  @Override
  public int delete(BackupIdentifier id, Consumer<Optional<Manifest>> check) {
    Optional<Manifest> current;
    try {
      current = readManifest(id);
    } catch (ManifestException e) {
      LOG.warn("Deleting backup {} whose manifest cannot be trusted: {}", id, e.getMessage());
      current = Optional.empty();
    }
    check.accept(current);
    int deleted = new ContentsDeletion(s3).run(id);
    manifests.delete(id);
    return deleted;
  }

  // ----------------------------------------------------------------------------- objects

  @Override
  public EncodedContent put(
      BackupIdentifier id, FileSetKind kind, BackupFile file, ContentCipher cipher)
      throws Exception {
    return uploader.upload(file, s3.layout().objectKey(id, kind, file.name()), compression, cipher);
  }

  /**
   * Copies the previous backup's object server-side if it still has its recorded stored size; false
   * (upload instead) otherwise, also when it disappeared meanwhile.
   */
  @Override
  public boolean reuse(
      BackupIdentifier from, BackupIdentifier to, FileSetKind kind, ManifestFile entry) {
    String source = s3.layout().objectKey(from, kind, entry.name());
    Optional<HeadObjectResponse> head = s3.headIfExists(source);
    if (head.isEmpty() || head.get().contentLength() != entry.storedSizeBytes()) {
      LOG.warn(
          "Not reusing {}: it is {}; uploading {} file '{}' of backup {} instead",
          s3.url(source),
          head.map(h -> h.contentLength() + " bytes, its manifest says " + entry.storedSizeBytes())
              .orElse("missing"),
          kind.directoryName(),
          entry.name(),
          to);
      return false;
    }
    try {
      copier.copy(source, s3.layout().objectKey(to, kind, entry.name()), entry.storedSizeBytes());
    } catch (S3RequestException e) {
      if (!e.isNotFound()) {
        throw e;
      }
      LOG.warn("Not reusing {}: it disappeared during the copy; uploading instead", s3.url(source));
      return false;
    }
    return true;
  }

  /**
   * Checks that every object exists with its recorded stored size before the manifest may say
   * COMPLETED (a server that lost an object, or a concurrent delete, fails the save instead).
   */
  @Override
  public void seal(BackupIdentifier id, List<StoredFile> stored) {
    for (int from = 0; from < stored.size(); from += CONFIRMATIONS_IN_FLIGHT) {
      List<CompletableFuture<Void>> checks = new ArrayList<>();
      for (StoredFile file :
          stored.subList(from, Math.min(stored.size(), from + CONFIRMATIONS_IN_FLIGHT))) {
        String key = s3.layout().objectKey(id, file.kind(), file.entry().name());
        checks.add(
            s3.headAsync(key)
                .handle(
                    (head, error) -> {
                      confirm(id, file, key, head, error);
                      return null;
                    }));
      }
      for (CompletableFuture<Void> check : checks) {
        S3Calls.await(check, "confirming the objects of backup " + id);
      }
    }
  }

  private void confirm(
      BackupIdentifier id, StoredFile file, String key, HeadObjectResponse head, Throwable error) {
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

  @Override
  public Optional<FileProblem> restore(
      BackupIdentifier id,
      FileSetKind kind,
      ManifestFile entry,
      ContentCipher cipher,
      FileChannel target,
      LongConsumer progress) {
    return checker.check(
        kind,
        entry,
        cipher,
        s3.layout().objectKey(id, kind, entry.name()),
        Channels.newOutputStream(target),
        progress,
        false);
  }

  /** The downloads count against the bytes/s limit. */
  @Override
  public Optional<FileProblem> verify(
      BackupIdentifier id, FileSetKind kind, ManifestFile entry, ContentCipher cipher) {
    return checker.check(
        kind,
        entry,
        cipher,
        s3.layout().objectKey(id, kind, entry.name()),
        null,
        bytes -> {},
        true);
  }

  /**
   * On the store's transfer threads, largest first: the big segments' parts keep every permit busy
   * while the small files fill the gaps, instead of a few big files finishing alone at the end.
   */
  @Override
  public <T> List<T> runAll(List<FileTask<T>> tasks) throws Exception {
    var running = new FileTasks(transferExecutor);
    List<FileTasks.Task<T>> work = new ArrayList<>();
    long[] sizes = new long[tasks.size()];
    for (int i = 0; i < tasks.size(); i++) {
      FileTask<T> task = tasks.get(i);
      sizes[i] = task.sizeBytes();
      work.add(
          () -> {
            running.checkNotStopped(task.name());
            return task.work().call();
          });
    }
    return running.runAll(work, sizes);
  }

  // ----------------------------------------------------------------------------- the log archive

  @Override
  public String locateArchive(String key) {
    return archive.url(key);
  }

  @Override
  public boolean createArchiveObject(String key, byte[] content) {
    return archive.create(key, content);
  }

  @Override
  public Optional<byte[]> readArchiveObject(String key) {
    return archive.read(key);
  }

  @Override
  public List<String> listArchiveObjects(String directory, String startAfter, int limit) {
    return archive.list(directory, startAfter, limit);
  }

  @Override
  public void deleteArchiveObject(String key) {
    archive.delete(key);
  }
}
