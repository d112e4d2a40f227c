package io.cairn.backupapi;

import java.util.Objects;
import java.util.Optional;

/**
 * One page of a listing.
 *
 * @param token empty for the first page, else the {@link BackupPage#nextPageToken()} of the
 *     previous page (opaque; only valid with the same wildcard and store)
 * @param size the most statuses to return, {@code 1..}{@value #MAX_SIZE}
 */
public record PageRequest(Optional<String> token, int size) {

  public static final int MAX_SIZE = 1000;
  public static final int DEFAULT_SIZE = 100;

  public PageRequest {
    Objects.requireNonNull(token, "token");
    if (size < 1 || size > MAX_SIZE) {
      throw new IllegalArgumentException(
          "Expected a page size in 1.." + MAX_SIZE + ", but was " + size + " (page request)");
    }
  }

  public static PageRequest first(int size) {
    return new PageRequest(Optional.empty(), size);
  }

  public static PageRequest first() {
    return first(DEFAULT_SIZE);
  }

  /** The page after {@code page}; only call when it has a next token. */
  public PageRequest next(BackupPage page) {
    return new PageRequest(
        Optional.of(
            page.nextPageToken()
                .orElseThrow(
                    () ->
                        new IllegalArgumentException(
                            "Expected a next page, but " + "this was the last (page request)"))),
        size);
  }
}
