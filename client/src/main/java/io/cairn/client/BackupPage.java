package io.cairn.client;

import java.util.List;

/**
 * One page of backups, newest first.
 *
 * @param backups the backups on this page
 * @param nextPageToken the token of the next page; empty on the last page
 */
public record BackupPage(List<BackupInfo> backups, String nextPageToken) {
  public BackupPage {
    backups = List.copyOf(backups);
  }

  /** Whether no page follows. */
  public boolean isLast() {
    return nextPageToken.isEmpty();
  }
}
