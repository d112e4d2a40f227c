package io.cairn.backup.retention;

import io.cairn.backupapi.ClusterBackupStatusCode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Which backups a cluster keeps: the newest {@code maxCount} completed ones and/or those younger
 * than {@code maxAge}, but never fewer than {@code minCount} completed ones, whatever their age.
 * Elasticsearch's snapshot lifecycle retention ({@code expire_after}, {@code min_count}, {@code
 * max_count}) is the model.
 *
 * <p>Rules, in order, over the cluster's backups ({@link #toDelete}):
 *
 * <ol>
 *   <li>A backup that is still running ({@code IN_PROGRESS}) is never deleted.
 *   <li>The newest {@code minCount} (at least 1) {@code COMPLETED} backups are kept: the newest
 *       restorable backup is never deleted.
 *   <li>An older {@code COMPLETED} backup is deleted when it is beyond the newest {@code maxCount}
 *       or older than {@code maxAge}.
 *   <li>A backup that cannot be restored ({@code FAILED}, {@code INCOMPLETE}) is deleted once a
 *       newer one completed; a newer one is kept, so its failure can still be looked at.
 *   <li>Without a completed backup, nothing is deleted.
 * </ol>
 *
 * @param maxCount keep at most this many completed backups (beyond {@code minCount}); empty: no
 *     count limit
 * @param maxAge delete completed backups older than this (beyond {@code minCount}); empty: no age
 *     limit
 * @param minCount completed backups kept whatever the other limits say, at least 1
 */
public record RetentionPolicy(OptionalInt maxCount, Optional<Duration> maxAge, int minCount) {

  public RetentionPolicy {
    Objects.requireNonNull(maxCount, "maxCount");
    Objects.requireNonNull(maxAge, "maxAge");
    if (minCount < 1) {
      throw new IllegalArgumentException(
          "Expected a retention minCount >= 1 (the newest restorable backup is always kept), but"
              + " was "
              + minCount);
    }
    if (maxCount.isPresent() && maxCount.getAsInt() < minCount) {
      throw new IllegalArgumentException(
          "Expected a retention maxCount >= minCount ("
              + minCount
              + "), but was "
              + maxCount.getAsInt());
    }
    if (maxCount.isEmpty() && maxAge.isEmpty()) {
      throw new IllegalArgumentException(
          "Expected a retention maxCount or maxAge (or both), but neither is set");
    }
    if (maxAge.isPresent() && (maxAge.get().isNegative() || maxAge.get().isZero())) {
      throw new IllegalArgumentException(
          "Expected a retention maxAge > 0, but was " + maxAge.get());
    }
  }

  /**
   * One backup as retention sees it.
   *
   * @param backupId its id
   * @param state its state across the cluster
   * @param createdMillis when it was taken (epoch ms): the earliest of its partitions' creation
   */
  public record Candidate(long backupId, ClusterBackupStatusCode state, long createdMillis) {
    public Candidate {
      Objects.requireNonNull(state, "state");
    }
  }

  /** The ids to delete now, ascending. */
  public List<Long> toDelete(List<Candidate> backups, long nowMillis) {
    List<Candidate> newestFirst =
        backups.stream().sorted(Comparator.comparingLong(Candidate::backupId).reversed()).toList();
    long newestCompleted =
        newestFirst.stream()
            .filter(backup -> backup.state() == ClusterBackupStatusCode.COMPLETED)
            .mapToLong(Candidate::backupId)
            .findFirst()
            .orElse(-1);
    if (newestCompleted < 0) {
      return List.of();
    }
    List<Long> delete = new ArrayList<>();
    int completedSeen = 0;
    for (Candidate backup : newestFirst) {
      switch (backup.state()) {
        case COMPLETED -> {
          completedSeen++;
          if (completedSeen > minCount && expired(backup, completedSeen, nowMillis)) {
            delete.add(backup.backupId());
          }
        }
        case FAILED, INCOMPLETE -> {
          if (backup.backupId() < newestCompleted) {
            delete.add(backup.backupId());
          }
        }
        case IN_PROGRESS, DOES_NOT_EXIST -> {
          // running: never; absent: nothing to delete
        }
      }
    }
    delete.sort(Comparator.naturalOrder());
    return delete;
  }

  /** Whether the {@code rank}-th newest completed backup is beyond a limit. */
  private boolean expired(Candidate backup, int rank, long nowMillis) {
    boolean beyondCount = maxCount.isPresent() && rank > maxCount.getAsInt();
    boolean tooOld =
        maxAge.isPresent() && nowMillis - backup.createdMillis() > maxAge.get().toMillis();
    return beyondCount || tooOld;
  }
}
