package io.cairn.backupstore;

import io.cairn.backupapi.ObjectNames;
import io.cairn.backupapi.archive.ArchiveObjects;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The {@link ArchiveObjects} of a store: each call one {@link StoreOperations} operation ({@code
 * archiveCreate}, {@code archiveRead}, {@code archiveList}, {@code archiveDelete}) over the store's
 * {@link ObjectLayer}, its key checked first. Creates and reads move chunks of up to a few MiB and
 * run on the transfer executor; listings and deletes on the query executor. With the store's
 * encryption on, objects are sealed ({@link ArchiveSealing}).
 */
final class ArchiveOperations implements ArchiveObjects {

  static final int MAX_LIST_LIMIT = 1000;

  private final StoreOperations operations;
  private final Executor transfers;
  private final Executor queries;
  private final ObjectLayer layer;
  private final ArchiveSealing sealing;

  ArchiveOperations(
      StoreOperations operations,
      Executor transfers,
      Executor queries,
      ObjectLayer layer,
      BackupEncryption encryption) {
    this.operations = operations;
    this.transfers = transfers;
    this.queries = queries;
    this.layer = layer;
    this.sealing = new ArchiveSealing(encryption);
  }

  @Override
  public CompletableFuture<Boolean> create(String key, byte[] content) {
    Optional<IllegalArgumentException> bad = badKey(key);
    if (bad.isPresent()) {
      return CompletableFuture.failedFuture(bad.get());
    }
    return operations.submit(
        "archiveCreate",
        transfers,
        () -> layer.createArchiveObject(key, sealing.seal(key, content)));
  }

  @Override
  public CompletableFuture<Optional<byte[]>> read(String key) {
    Optional<IllegalArgumentException> bad = badKey(key);
    if (bad.isPresent()) {
      return CompletableFuture.failedFuture(bad.get());
    }
    return operations.submit(
        "archiveRead",
        transfers,
        () -> layer.readArchiveObject(key).map(stored -> sealing.open(key, stored)));
  }

  @Override
  public CompletableFuture<List<String>> list(String directory, String startAfter, int limit) {
    if (directory == null
        || !directory.endsWith("/")
        || ObjectNames.violation(directory.substring(0, directory.length() - 1)).isPresent()) {
      return CompletableFuture.failedFuture(
          new IllegalArgumentException(
              "Expected an archive directory: a relative object name ending in '/', but was '"
                  + directory
                  + "'"));
    }
    if (limit < 1 || limit > MAX_LIST_LIMIT) {
      return CompletableFuture.failedFuture(
          new IllegalArgumentException(
              "Expected a listing limit of 1 to " + MAX_LIST_LIMIT + ", but was " + limit));
    }
    return operations.submit(
        "archiveList", queries, () -> layer.listArchiveObjects(directory, startAfter, limit));
  }

  @Override
  public CompletableFuture<Void> delete(String key) {
    Optional<IllegalArgumentException> bad = badKey(key);
    if (bad.isPresent()) {
      return CompletableFuture.failedFuture(bad.get());
    }
    return operations.submit(
        "archiveDelete",
        queries,
        () -> {
          layer.deleteArchiveObject(key);
          return null;
        });
  }

  /** Why {@code key} is refused, if it is. */
  private static Optional<IllegalArgumentException> badKey(String key) {
    return ObjectNames.violation(key)
        .map(
            why ->
                new IllegalArgumentException(
                    "Expected an archive key: a relative object name, but '"
                        + key
                        + "' is not: "
                        + why));
  }
}
