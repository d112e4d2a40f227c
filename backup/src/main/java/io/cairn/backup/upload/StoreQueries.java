package io.cairn.backup.upload;

import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupPage;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.PageRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Listings that need every page. */
public final class StoreQueries {

  /** The most pages one listing reads ({@value} × {@link PageRequest#MAX_SIZE} statuses). */
  public static final int MAX_PAGES = 1000;

  private StoreQueries() {}

  /**
   * Every status matching {@code wildcard}, in the store's order.
   *
   * @return fails like {@link BackupStore#list}, or with {@link IllegalStateException} beyond
   *     {@link #MAX_PAGES} pages
   */
  public static CompletableFuture<List<BackupStatus>> listAll(
      BackupStore store, BackupIdentifierWildcard wildcard) {
    List<BackupStatus> statuses = new ArrayList<>();
    return page(store, wildcard, PageRequest.first(PageRequest.MAX_SIZE), statuses, 1)
        .thenApply(done -> statuses);
  }

  private static CompletableFuture<Void> page(
      BackupStore store,
      BackupIdentifierWildcard wildcard,
      PageRequest request,
      List<BackupStatus> statuses,
      int pageNumber) {
    if (pageNumber > MAX_PAGES) {
      return CompletableFuture.failedFuture(
          new IllegalStateException(
              "Expected at most "
                  + MAX_PAGES
                  + " pages of backups matching "
                  + wildcard
                  + ", but there are more; delete old backups"));
    }
    return store
        .list(wildcard, request)
        .thenCompose(
            (BackupPage page) -> {
              statuses.addAll(page.statuses());
              return page.nextPageToken().isEmpty()
                  ? CompletableFuture.completedFuture(null)
                  : page(store, wildcard, request.next(page), statuses, pageNumber + 1);
            });
  }
}
