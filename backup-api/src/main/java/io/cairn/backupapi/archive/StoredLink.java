package io.cairn.backupapi.archive;

import java.util.Objects;

/**
 * A link as read from or written to the store, with the CRC32C of its stored bytes (what the next
 * link records as its previous).
 */
public record StoredLink(ArchiveLink link, String key, long storedCrc32c) {

  public StoredLink {
    Objects.requireNonNull(link, "link");
    Objects.requireNonNull(key, "key");
  }
}
