package io.cairn.backup.retention;

import java.time.Instant;
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
 * @param locked the backups the policy gave up that the store's object lock still holds, with when
 *     each lock ends (counted among {@code kept})
 */
public record RetentionRun(
    long startedMillis,
    long finishedMillis,
    int kept,
    List<Long> requested,
    String failure,
    List<Locked> locked) {

  /** A backup due for deletion whose objects are locked until {@code untilMillis} (epoch ms). */
  public record Locked(long backupId, long untilMillis) {
    @Override
    public String toString() {
      return backupId + " (locked until " + Instant.ofEpochMilli(untilMillis) + ")";
    }
  }

  public RetentionRun {
    requested = List.copyOf(requested);
    Objects.requireNonNull(failure, "failure");
    locked = List.copyOf(locked);
  }

  public RetentionRun(
      long startedMillis, long finishedMillis, int kept, List<Long> requested, String failure) {
    this(startedMillis, finishedMillis, kept, requested, failure, List.of());
  }

  /** This run with {@code value} as its locked backups. */
  public RetentionRun withLocked(List<Locked> value) {
    return new RetentionRun(startedMillis, finishedMillis, kept, requested, failure, value);
  }
}
