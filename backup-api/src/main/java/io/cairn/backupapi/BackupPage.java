package io.cairn.backupapi;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A page of a listing: statuses ordered by partition, checkpoint id, node.
 *
 * @param statuses at most the requested size
 * @param nextPageToken present iff more statuses may follow
 */
public record BackupPage(List<BackupStatus> statuses, Optional<String> nextPageToken) {

  public BackupPage {
    statuses = List.copyOf(statuses);
    Objects.requireNonNull(nextPageToken, "nextPageToken");
  }
}
