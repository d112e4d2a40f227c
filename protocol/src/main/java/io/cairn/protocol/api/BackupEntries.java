package io.cairn.protocol.api;

import java.util.List;
import java.util.Objects;

/**
 * The OK body of a {@code cairn-backup} response.
 *
 * @param entries for STATUS every partition status of the id the store holds (any node, possibly
 *     several per partition; none when nothing exists); for LIST one page in the store's order;
 *     empty for DELETE. At most {@link ApiDescriptor#BACKUP_ENTRIES_MAX}.
 * @param nextPageToken for LIST the token of the next page, empty when this was the last; empty
 *     otherwise (at most {@link ApiDescriptor#PAGE_TOKEN_MAX_BYTES} bytes)
 */
public record BackupEntries(List<BackupStatusEntry> entries, String nextPageToken) {
  public BackupEntries {
    entries = List.copyOf(entries);
    Objects.requireNonNull(nextPageToken, "nextPageToken");
    if (entries.size() > ApiDescriptor.BACKUP_ENTRIES_MAX) {
      throw new IllegalArgumentException(
          "Expected at most "
              + ApiDescriptor.BACKUP_ENTRIES_MAX
              + " entries, but was "
              + entries.size()
              + " (backup entries)");
    }
  }

  /** A body without entries and without a next page (the answer to DELETE). */
  public static BackupEntries none() {
    return new BackupEntries(List.of(), "");
  }
}
