package io.cairn.backup.retention;

import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.archive.ArchiveKeys;
import io.cairn.backupapi.archive.LogArchive;
import java.time.Duration;
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
 * <p>Under an object lock each link goes only once its own lock ended ({@code archivedAt +
 * lockHold}; its chunk was written before it), and the restore points go with the link that holds
 * them rather than first: a point was written before its link, so its lock ended too. Pruning stops
 * at the first link still locked; the rest waits for a later pass.
 */
final class ArchivePruning {

  private static final Logger LOG = LoggerFactory.getLogger(ArchivePruning.class);
  private static final int PAGE = 1000;

  private final BackupStore store;
  private final int partitionCount;
  private final Duration lockHold;

  ArchivePruning(BackupStore store, int partitionCount, Duration lockHold) {
    this.store = Objects.requireNonNull(store, "store");
    this.partitionCount = partitionCount;
    this.lockHold = Objects.requireNonNull(lockHold, "lockHold");
  }

  /**
   * On each partition, the oldest COMPLETED backup among {@code kept}: its id and checkpoint
   * position. A partition without one is absent (nothing of its archive may go).
   */
  static Map<Integer, long[]> oldestKept(Collection<BackupStatus> kept) {
    Map<Integer, long[]> oldest = new TreeMap<>();
    for (BackupStatus status : kept) {
      if (status.statusCode() != BackupStatusCode.COMPLETED || status.descriptor().isEmpty()) {
        continue;
      }
      long id = status.id().checkpointId();
      long position = status.descriptor().get().checkpointPosition();
      oldest.merge(
          status.id().partitionId(), new long[] {id, position}, (a, b) -> a[0] <= b[0] ? a : b);
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
      int p = partitionId;
      deleted =
          deleted.thenCompose(
              sum -> prunePartition(p, oldest[0], oldest[1], nowMillis).thenApply(n -> sum + n));
    }
    return deleted;
  }

  private CompletableFuture<Integer> prunePartition(
      int partitionId, long keptId, long keptPosition, long nowMillis) {
    LogArchive archive = new LogArchive(store.archive(), partitionId);
    Pass pass = new Pass(archive, keptId, keptPosition, nowMillis);
    CompletableFuture<List<Long>> pointIds =
        lockHold.isZero()
            ? archive.pointIds(0, PAGE)
            : CompletableFuture.completedFuture(List.of());
    return pointIds
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
                archive.linkKeys(null, PAGE).thenCompose(keys -> pruneLinks(pass, keys, 0, points)))
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

  /** One partition's pruning: its archive, the oldest kept backup and the pass's time. */
  private record Pass(LogArchive archive, long keptId, long keptPosition, long nowMillis) {}

  /**
   * Deletes links (and their chunks) oldest first while the link after each starts at or before the
   * kept checkpoint's position: then the entry holding it (the highest first position at or below
   * it, where a restore continues the backup's log) is in a later link. Under a lock, stops at a
   * link still locked, and takes the restore points a link holds (below the kept backup's id) with
   * it.
   */
  private CompletableFuture<Integer> pruneLinks(
      Pass pass, List<String> keys, int next, int deleted) {
    if (next + 1 >= keys.size()) {
      return CompletableFuture.completedFuture(deleted);
    }
    return pass.archive()
        .readLink(keys.get(next + 1))
        .thenCompose(
            following -> {
              long from = following.link().fromPosition();
              if (from < 0 || from > pass.keptPosition()) {
                return CompletableFuture.completedFuture(deleted);
              }
              return pass.archive()
                  .readLink(keys.get(next))
                  .thenCompose(
                      doomed -> {
                        if (!lockHold.isZero()
                            && doomed.link().archivedAt().toEpochMilli() + lockHold.toMillis()
                                > pass.nowMillis()) {
                          LOG.debug(
                              "Retention: partition {}'s archive from index {} on stays until its"
                                  + " object lock ends",
                              pass.archive().partitionId(),
                              doomed.link().fromIndex());
                          return CompletableFuture.completedFuture(-1);
                        }
                        List<String> objects = new ArrayList<>();
                        objects.add(doomed.link().chunkKey());
                        if (!lockHold.isZero()) {
                          doomed.link().checkpoints().stream()
                              .filter(point -> point.id() < pass.keptId())
                              .forEach(
                                  point ->
                                      objects.add(
                                          ArchiveKeys.point(
                                              pass.archive().partitionId(), point.id())));
                        }
                        objects.add(doomed.key());
                        return deleteAll(objects);
                      })
                  .thenCompose(
                      n ->
                          n < 0
                              ? CompletableFuture.completedFuture(deleted)
                              : pruneLinks(pass, keys, next + 1, deleted + n));
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
