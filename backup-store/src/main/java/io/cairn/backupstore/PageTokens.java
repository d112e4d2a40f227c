package io.cairn.backupstore;

import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupPage;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.PageRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The page tokens of a store's listing: {@code <prefix><partition>:<checkpoint>:<node>} of the last
 * identifier on the page; the next page starts strictly after it, so backups added or deleted
 * between pages do not shift the rest. The prefix names the store kind and token version, so a
 * token of another store is refused.
 */
public final class PageTokens {

  private final String prefix;

  /**
   * @param prefix e.g. {@code fs1:}
   */
  public PageTokens(String prefix) {
    this.prefix = prefix;
  }

  public String token(BackupIdentifier last) {
    return prefix + last.partitionId() + ":" + last.checkpointId() + ":" + last.nodeId();
  }

  /**
   * @throws IllegalArgumentException for a token this store did not hand out
   */
  public BackupIdentifier parse(String token) {
    try {
      if (token.startsWith(prefix)) {
        String[] parts = token.substring(prefix.length()).split(":", -1);
        if (parts.length == 3) {
          return new BackupIdentifier(
              Integer.parseInt(parts[2]), Integer.parseInt(parts[0]), Long.parseLong(parts[1]));
        }
      }
    } catch (IllegalArgumentException e) {
      // falls through to the error below
    }
    throw new IllegalArgumentException(
        "Expected a page token handed out by this store, but was '" + token + "' (list)");
  }

  /** The listed status of one backup; empty if it was deleted since its id was listed. */
  @FunctionalInterface
  public interface ListedStatus {
    Optional<BackupStatus> read(BackupIdentifier id) throws Exception;
  }

  /**
   * One page of a listing whose matching ids a store has in order: those after the request's token,
   * up to its size, each read by {@code status}; the next token while ids remain.
   */
  public BackupPage page(List<BackupIdentifier> ids, PageRequest page, ListedStatus status)
      throws Exception {
    Optional<BackupIdentifier> after = page.token().map(this::parse);
    int index = 0;
    while (after.isPresent() && index < ids.size() && ids.get(index).compareTo(after.get()) <= 0) {
      index++;
    }
    List<BackupStatus> statuses = new ArrayList<>();
    BackupIdentifier last = null;
    for (; index < ids.size() && statuses.size() < page.size(); index++) {
      last = ids.get(index);
      status.read(last).ifPresent(statuses::add);
    }
    return new BackupPage(
        statuses, index < ids.size() && last != null ? Optional.of(token(last)) : Optional.empty());
  }
}
