package io.cairn.backup.retention;

import io.cairn.backup.upload.StoreQueries;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusAggregator;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.ClusterBackupStatus;
import io.cairn.scheduler.Futures;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass of retention: lists every backup in the store, aggregates each id over the cluster's
 * partitions, lets the {@link RetentionPolicy} decide, and asks every partition to delete each
 * backup it gave up ({@code CHECKPOINT DELETE_BACKUP} through the partitions' logs, so every
 * replica agrees and each partition's leader finishes the deletion even across crashes). Ids are
 * asked oldest first, one after the other; a failed request ends the pass (the next pass decides
 * again).
 *
 * <p>With the store's objects under an object lock, a backup the policy gave up is deleted only
 * once the lock of its newest object ended ({@code lastUpdatedAt + lockHold}: the lock period plus
 * what a manifest's upload may add after its timestamp): until then the pass keeps it and says
 * until when ({@link RetentionRun#locked()}). On a versioned bucket an early delete would not fail
 * — it would hide the backup behind delete markers while its locked versions stay and cost.
 */
public final class Retention {

  private static final Logger LOG = LoggerFactory.getLogger(Retention.class);

  private final RetentionPolicy policy;
  private final BackupStore store;
  private final int partitionCount;
  private final LongFunction<CompletableFuture<String>> requestDeletion;
  private final ArchivePruning archive;
  private final Duration lockHold;

  /**
   * @param requestDeletion writes {@code DELETE_BACKUP(id)} to every partition; completes with what
   *     failed, or an empty string when every partition accepted
   * @param lockHold how long after its recorded write time an object of the store may stay locked
   *     (the lock period plus the store's retry and clock margins); {@link Duration#ZERO} without a
   *     lock
   */
  public Retention(
      RetentionPolicy policy,
      BackupStore store,
      int partitionCount,
      LongFunction<CompletableFuture<String>> requestDeletion,
      Duration lockHold) {
    this.policy = Objects.requireNonNull(policy, "policy");
    this.store = Objects.requireNonNull(store, "store");
    this.partitionCount = partitionCount;
    this.requestDeletion = Objects.requireNonNull(requestDeletion, "requestDeletion");
    this.lockHold = Objects.requireNonNull(lockHold, "lockHold");
    if (lockHold.isNegative()) {
      throw new IllegalArgumentException("Expected a lock hold >= 0, but was " + lockHold);
    }
    this.archive = new ArchivePruning(store, partitionCount, lockHold);
  }

  public RetentionPolicy policy() {
    return policy;
  }

  /** Runs one pass at {@code nowMillis}; never fails exceptionally (see {@link RetentionRun}). */
  public CompletableFuture<RetentionRun> run(long nowMillis) {
    CompletableFuture<List<BackupStatus>> listed;
    try {
      listed = StoreQueries.listAll(store, BackupIdentifierWildcard.all());
    } catch (RuntimeException e) {
      listed = CompletableFuture.failedFuture(e);
    }
    return listed
        .handle(
            (statuses, error) -> {
              if (error != null) {
                return CompletableFuture.completedFuture(
                    failed(nowMillis, 0, List.of(), "listing the backups failed", error));
              }
              List<RetentionPolicy.Candidate> candidates;
              List<Long> doomed = new ArrayList<>();
              List<RetentionRun.Locked> locked = new ArrayList<>();
              try {
                candidates = candidates(statuses);
                Map<Long, Long> lockEnds = lockEnds(statuses, nowMillis);
                for (long id : policy.toDelete(candidates, nowMillis)) {
                  long lockEnd = lockEnds.getOrDefault(id, 0L);
                  if (lockEnd > nowMillis) {
                    locked.add(new RetentionRun.Locked(id, lockEnd));
                  } else {
                    doomed.add(id);
                  }
                }
              } catch (RuntimeException e) {
                return CompletableFuture.completedFuture(
                    failed(nowMillis, 0, List.of(), "deciding what to keep failed", e));
              }
              int kept = candidates.size() - doomed.size();
              if (!doomed.isEmpty()) {
                LOG.info("Retention ({}): deleting backups {}", policy, doomed);
              }
              if (!locked.isEmpty()) {
                LOG.info(
                    "Retention ({}): backups {} are due but their objects are locked for {}; each"
                        + " is deleted by the first pass after its lock ends",
                    policy,
                    locked,
                    lockHold);
              }
              Map<Integer, long[]> oldestKept =
                  ArchivePruning.oldestKept(
                      statuses.stream()
                          .filter(s -> !doomed.contains(s.id().checkpointId()))
                          .toList());
              return requestAll(doomed, 0, new ArrayList<>(), nowMillis, kept)
                  .thenApply(run -> run.withLocked(locked))
                  .thenCompose(run -> pruneArchive(run, oldestKept, nowMillis));
            })
        .thenCompose(pass -> pass);
  }

  /**
   * After a pass that requested every deletion, the log archive before the oldest kept backup of
   * each partition goes too; a failure there is logged and left to the next pass.
   */
  private CompletableFuture<RetentionRun> pruneArchive(
      RetentionRun run, Map<Integer, long[]> oldestKept, long nowMillis) {
    if (!run.failure().isEmpty()) {
      return CompletableFuture.completedFuture(run);
    }
    CompletableFuture<Integer> pruned;
    try {
      pruned = archive.prune(oldestKept, nowMillis);
    } catch (RuntimeException e) {
      pruned = CompletableFuture.failedFuture(e);
    }
    return pruned.handle(
        (deleted, error) -> {
          if (error != null) {
            LOG.warn(
                "Retention: removing old parts of the log archive failed (the next pass tries"
                    + " again): {}",
                Futures.unwrap(error).getMessage());
          }
          return run;
        });
  }

  private static RetentionRun failed(
      long startedMillis, int kept, List<Long> requested, String what, Throwable error) {
    return new RetentionRun(
        startedMillis,
        startedMillis,
        kept,
        requested,
        what + ": " + Futures.unwrap(error).getMessage());
  }

  private CompletableFuture<RetentionRun> requestAll(
      List<Long> doomed, int next, List<Long> requested, long startedMillis, int kept) {
    if (next == doomed.size()) {
      return CompletableFuture.completedFuture(
          new RetentionRun(startedMillis, startedMillis, kept, requested, ""));
    }
    long id = doomed.get(next);
    CompletableFuture<String> asked;
    try {
      asked = requestDeletion.apply(id);
    } catch (RuntimeException e) {
      asked = CompletableFuture.failedFuture(e);
    }
    return asked
        .handle((failure, error) -> error == null ? failure : String.valueOf(Futures.unwrap(error)))
        .thenCompose(
            failure -> {
              if (!failure.isEmpty()) {
                LOG.warn("Retention: deleting backup {} was refused: {}", id, failure);
                return CompletableFuture.completedFuture(
                    new RetentionRun(
                        startedMillis,
                        startedMillis,
                        kept,
                        requested,
                        "deleting backup " + id + ": " + failure));
              }
              requested.add(id);
              return requestAll(doomed, next + 1, requested, startedMillis, kept);
            });
  }

  /**
   * When the lock of each backup's newest object ends: its manifest's last write on any partition
   * (everything else of it was written before) plus the lock hold; nothing without a lock. A copy
   * without a write time (none is listed so) counts as written now.
   */
  private Map<Long, Long> lockEnds(List<BackupStatus> statuses, long nowMillis) {
    Map<Long, Long> ends = new TreeMap<>();
    if (lockHold.isZero()) {
      return ends;
    }
    for (BackupStatus status : statuses) {
      long written = status.lastUpdatedAt().map(Instant::toEpochMilli).orElse(nowMillis);
      ends.merge(status.id().checkpointId(), written + lockHold.toMillis(), Math::max);
    }
    return ends;
  }

  private List<RetentionPolicy.Candidate> candidates(List<BackupStatus> statuses) {
    Map<Long, List<BackupStatus>> byId = new TreeMap<>();
    for (BackupStatus status : statuses) {
      byId.computeIfAbsent(status.id().checkpointId(), id -> new ArrayList<>()).add(status);
    }
    List<RetentionPolicy.Candidate> candidates = new ArrayList<>();
    byId.forEach(
        (id, ofId) -> {
          ClusterBackupStatus cluster = BackupStatusAggregator.aggregate(id, partitionCount, ofId);
          long created =
              ofId.stream()
                  .flatMap(status -> status.createdAt().stream())
                  .mapToLong(Instant::toEpochMilli)
                  .min()
                  .orElse(Long.MAX_VALUE);
          candidates.add(new RetentionPolicy.Candidate(id, cluster.statusCode(), created));
        });
    return candidates;
  }
}
