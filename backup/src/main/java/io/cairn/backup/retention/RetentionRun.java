package io.cairn.backup.retention;

import java.util.List;
import java.util.Objects;

/**
 * One pass of retention over the cluster's backups.
 *
 * @param startedMillis when it began (epoch ms)
 * @param finishedMillis when every partition had answered
 * @param kept the backups it left, newest first: the completed ones the policy keeps and any still
 *     running
 * @param requested the ids whose deletion every partition accepted (done by each partition's leader
 *     in the background)
 * @param failure why a listing or a request failed; empty if none did (the next pass decides again)
 */
public record RetentionRun(
    long startedMillis, long finishedMillis, int kept, List<Long> requested, String failure) {
  public RetentionRun {
    requested = List.copyOf(requested);
    Objects.requireNonNull(failure, "failure");
  }
}
