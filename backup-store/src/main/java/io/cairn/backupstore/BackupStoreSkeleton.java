package io.cairn.backupstore;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupPage;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.PageRequest;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backupapi.VerificationReport;
import io.cairn.backupapi.manifest.Manifest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The {@link BackupStore} every store is: each SPI call becomes one {@link StoreOperations}
 * operation on the right executor — save, restore and verify on the transfer executor; status,
 * list, markFailed and delete on the query executor, so they never queue behind a transfer — with
 * its arguments checked, and closing refuses new calls and waits for running ones before the store
 * releases what it holds. A store implements the blocking steps, each run on the executor chosen
 * here, and reaches its bytes its own way; the decisions common to all stores are {@link
 * ManifestRules}, {@link ContentProblems}, {@link RestoreTarget} and the other pieces of this
 * module.
 */
public abstract class BackupStoreSkeleton implements BackupStore {

  private final StoreOperations operations;
  private final Executor transfers;
  private final Executor queries;

  /**
   * @param transfers runs saves, restores and verifies (blocking I/O); its size bounds how many run
   *     at once
   * @param queries runs status, list, markFailed and delete: a pool of its own
   */
  protected BackupStoreSkeleton(StoreOperations operations, Executor transfers, Executor queries) {
    this.operations = operations;
    this.transfers = transfers;
    this.queries = queries;
  }

  // --------------------------------------------------------------------- what a store implements

  /** The manifest of {@code id}; empty if there is none; {@code ManifestException} if untrusted. */
  protected abstract Optional<Manifest> readManifest(BackupIdentifier id) throws IOException;

  /** Saves {@code backup} (see {@link BackupStore#save}); {@code previous} is checked already. */
  protected abstract BackupSaveResult saveNow(Backup backup, Optional<BackupIdentifier> previous)
      throws Exception;

  /** One page of the listing (see {@link BackupStore#list}). */
  protected abstract BackupPage listNow(BackupIdentifierWildcard wildcard, PageRequest page)
      throws Exception;

  /** Deletes {@code id} (see {@link BackupStore#delete}). */
  protected abstract void deleteNow(BackupIdentifier id) throws Exception;

  /** Marks {@code id} FAILED by {@link ManifestRules#markFailed}, atomically; the status after. */
  protected abstract BackupStatus markFailedNow(BackupIdentifier id, String reason)
      throws Exception;

  /** Restores {@code id} (see {@link BackupStore#restore}). */
  protected abstract Backup restoreNow(
      BackupIdentifier id, Path targetDir, RestoreProgressListener listener) throws Exception;

  /** Verifies {@code id} (see {@link BackupStore#verify}). */
  protected abstract VerificationReport verifyNow(BackupIdentifier id) throws Exception;

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
          return saveNow(backup, previous);
        });
  }

  @Override
  public final CompletableFuture<BackupStatus> getStatus(BackupIdentifier id) {
    return operations.submit(
        "status",
        queries,
        () ->
            readManifest(id)
                .map(Manifest::toStatus)
                .orElseGet(() -> BackupStatus.doesNotExist(id)));
  }

  @Override
  public final CompletableFuture<BackupPage> list(
      BackupIdentifierWildcard wildcard, PageRequest page) {
    return operations.submit("list", queries, () -> listNow(wildcard, page));
  }

  @Override
  public final CompletableFuture<Void> delete(BackupIdentifier id) {
    return operations.submit(
        "delete",
        queries,
        () -> {
          deleteNow(id);
          return null;
        });
  }

  @Override
  public final CompletableFuture<BackupStatus> markFailed(BackupIdentifier id, String reason) {
    CompletableFuture<BackupStatus> invalid = ManifestRules.checkReason(id, reason);
    if (invalid != null) {
      return invalid;
    }
    return operations.submit("markFailed", queries, () -> markFailedNow(id, reason));
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
  public final void close() {
    if (operations.close()) {
      released();
    }
  }

  /** The COMPLETED manifest of {@code id}, or the exception restore and verify specify. */
  public final Manifest readCompleted(BackupIdentifier id) throws IOException {
    return ManifestRules.requireCompleted(id, readManifest(id));
  }
}
