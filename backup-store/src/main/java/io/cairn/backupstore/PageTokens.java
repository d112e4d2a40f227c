package io.cairn.backupstore;

import io.cairn.backupapi.BackupIdentifier;

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
}
