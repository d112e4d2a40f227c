package io.cairn.gateway.admin;

import io.cairn.backupapi.ClusterBackupStatus;
import java.util.List;

/**
 * One page of backups, newest first.
 *
 * @param backups at most the page size
 * @param nextPageToken empty on the last page
 */
public record BackupListing(List<ClusterBackupStatus> backups, String nextPageToken) {
  public BackupListing {
    backups = List.copyOf(backups);
  }
}
