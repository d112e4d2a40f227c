package io.cairn.backup.retention;

import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.archive.ArchiveKeys;
import io.cairn.backupapi.archive.LogArchive;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes what no restore point can use any more from the log archive, after retention (DESIGN.md
 * §9, "Retention"): a point-in-time restore starts from the newest backup at or before its point,
 * so on each partition the archive before the oldest backup retention keeps is unreachable — its
 * restore points (ids below that backup's) and every link, with its chunk, that ends before that
 * backup's checkpoint position. Everything from the link holding the checkpoint on stays. Objects
 * are deleted oldest first; a crash in the middle leaves older objects only, which nothing reads.
 *
 * <p>Under an object lock a partition's archive is pruned only once the oldest kept backup is older
 * than the lock period: what goes was archived before that backup was taken (the archive follows
 * the commit position closely), so its lock has ended by then.
 */
final class ArchivePruning {

  private static final Logger LOG = LoggerFactory.getLogger(ArchivePruning.class);
  private static final int PAGE = 1000;

  private final BackupStore store;
  private final int partitionCount;
  private final Duration lockPeriod;

  ArchivePruning(BackupStore store, int partitionCount, Duration lockPeriod) {
    this.store = Objects.requireNonNull(store, "store");
    this.partitionCount = partitionCount;
    this.lockPeriod = Objects.requireNonNull(lockPeriod, "lockPeriod");
  }

  /**
   * On each partition, the oldest COMPLETED backup among {@code kept}: its id, checkpoint position
   * and creation time (epoch ms). A partition without one is absent (nothing of its archive may
   * go).
   */
  static Map<Integer, long[]> oldestKept(Collection<BackupStatus> kept) {
    Map<Integer, long[]> oldest = new TreeMap<>();
    for (BackupStatus status : kept) {
      if (status.statusCode() != BackupStatusCode.COMPLETED || status.descriptor().isEmpty()) {
        continue;
      }
      long id = status.id().checkpointId();
      long position = status.descriptor().get().checkpointPosition();
      long created = status.createdAt().map(Instant::toEpochMilli).orElse(Long.MAX_VALUE);
      oldest.merge(
          status.id().partitionId(),
          new long[] {id, position, created},
          (a, b) -> a[0] <= b[0] ? a : b);
    }
    return oldest;
  }

  /** Prunes every partition that has a kept backup; completes with the objects deleted. */
  CompletableFuture<Integer> prune(Map<Integer, long[]> oldestKept, long nowMillis) {
    CompletableFuture<Integer> deleted = CompletableFuture.completedFuture(0);
    for (int partitionId = 1; partitionId <= partitionCount; partitionId++) {
      long[] oldest = oldestKept.get(partitionId);
      if (oldest == null) {
        continue;
      }
      if (!lockPeriod.isZero() && oldest[2] > nowMillis - lockPeriod.toMillis()) {
        LOG.debug(
            "Retention: partition {}'s log archive before backup {} stays until its object lock"
                + " ends",
            partitionId,
            oldest[0]);
        continue;
      }
      int p = partitionId;
      deleted =
          deleted.thenCompose(
              sum -> prunePartition(p, oldest[0], oldest[1]).thenApply(n -> sum + n));
    }
    return deleted;
  }

  private CompletableFuture<Integer> prunePartition(
      int partitionId, long keptId, long keptPosition) {
    LogArchive archive = new LogArchive(store.archive(), partitionId);
    return archive
        .pointIds(0, PAGE)
        .thenCompose(
            ids -> {
              List<String> doomed = new ArrayList<>();
              for (long id : ids) {
                if (id < keptId) {
                  doomed.add(ArchiveKeys.point(partitionId, id));
                }
              }
              return deleteAll(doomed);
            })
        .thenCompose(
            points ->
                store
                    .archive()
                    .list(ArchiveKeys.linksDirectory(partitionId), null, PAGE)
                    .thenCompose(keys -> pruneLinks(archive, keys, 0, keptPosition, points)))
        .thenApply(
            n -> {
              if (n > 0) {
                LOG.info(
                    "Retention: removed {} objects of partition {}'s log archive from before"
                        + " backup {} (checkpoint position {}), the oldest kept",
                    n,
                    partitionId,
                    keptId,
                    keptPosition);
              }
              return n;
            });
  }

  /**
   * Deletes links (and their chunks) oldest first while the link after each starts at or before
   * {@code keptPosition}: then the entry holding the kept checkpoint (the highest first position at
   * or below it, where a restore continues the backup's log) is in a later link.
   */
  private CompletableFuture<Integer> pruneLinks(
      LogArchive archive, List<String> keys, int next, long keptPosition, int deleted) {
    if (next + 1 >= keys.size()) {
      return CompletableFuture.completedFuture(deleted);
    }
    return archive
        .readLink(keys.get(next + 1))
        .thenCompose(
            following -> {
              long from = following.link().fromPosition();
              if (from < 0 || from > keptPosition) {
                return CompletableFuture.completedFuture(deleted);
              }
              return archive
                  .readLink(keys.get(next))
                  .thenCompose(doomed -> deleteAll(List.of(doomed.link().chunkKey(), doomed.key())))
                  .thenCompose(n -> pruneLinks(archive, keys, next + 1, keptPosition, deleted + n));
            });
  }

  private CompletableFuture<Integer> deleteAll(List<String> keys) {
    CompletableFuture<Integer> deleted = CompletableFuture.completedFuture(0);
    for (String key : keys) {
      deleted = deleted.thenCompose(n -> store.archive().delete(key).thenApply(ignored -> n + 1));
    }
    return deleted;
  }
}
