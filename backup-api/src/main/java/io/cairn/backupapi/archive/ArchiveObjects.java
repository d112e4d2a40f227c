package io.cairn.backupapi.archive;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The continuous log archive's objects in a backup store: small (a few MiB at most), written once,
 * named by keys under the store's archive root, listed in key order. The archive's format, its
 * chain and its checks are {@link LogArchive}'s; a store only keeps the bytes.
 *
 * <p>Keys are relative object names ({@link io.cairn.backupapi.ObjectNames}); a listing names a
 * directory: a key prefix ending in {@code '/'}. Like every store call, each method returns at once
 * and its future fails with a {@link io.cairn.backupapi.BackupStoreException} when the store cannot
 * do it, or {@link IllegalArgumentException} for a bad key.
 */
public interface ArchiveObjects {

  /**
   * Writes {@code content} as the object {@code key} unless it exists; durable when the future
   * completes. Of two writers of one key, in any processes, exactly one creates it where the store
   * can arbitrate (conditional writes, atomic links); the other learns it lost.
   *
   * @return true if this call created the object, false if it existed (it is left as it was)
   */
  CompletableFuture<Boolean> create(String key, byte[] content);

  /** The object's content; empty if it does not exist. */
  CompletableFuture<Optional<byte[]>> read(String key);

  /**
   * Up to {@code limit} keys of the objects directly in {@code directory}, in key order, each
   * greater than {@code startAfter}.
   *
   * @param directory a key prefix ending in {@code '/'}
   * @param startAfter a full key, or null for the first page
   * @param limit 1 to 1000
   */
  CompletableFuture<List<String>> list(String directory, String startAfter, int limit);

  /** Deletes the object; succeeds when it does not exist. */
  CompletableFuture<Void> delete(String key);
}
