package io.cairn.restore.catalog;

import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.archive.ArchivedCheckpoint;
import io.cairn.backupapi.archive.LogArchive;
import io.cairn.restore.BackupSelector;
import io.cairn.restore.PartitionPlan;
import io.cairn.restore.RestoreException;
import io.cairn.restore.RestoreProblem;
import io.cairn.scheduler.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * Finds the restore point a point-in-time restore goes to (DESIGN.md §10, "Point in time"): a
 * checkpoint whose {@code CREATED} event the log archive holds on every partition. By id, it must
 * be on every partition; by time, it is the newest point whose checkpoint was taken at or before
 * that time on every partition. A point counts once the archive holds its records on every
 * partition (its point object is written before them, so a point can name records the archive does
 * not hold: past its tail while it is behind, or inside a gap when they were lost before they were
 * archived; {@link ArchiveCoverage}). Reads the archive's restore point objects, last links and the
 * links that hold the points asked about, never its chunks.
 */
public final class RestorePoints {

  /** How many points below the newest candidate a time search tries before it gives up. */
  static final int MAX_CANDIDATES = 1000;

  private static final int PAGE = 1000;

  /**
   * The restore point chosen.
   *
   * @param checkpointId its id
   * @param points the point on each partition {@code 1..partitionCount}, by partition id
   */
  public record Resolved(long checkpointId, Map<Integer, ArchivedCheckpoint> points) {
    public Resolved {
      points = Map.copyOf(points);
    }

    /** Every copy of the backup's plans, continued from the archive to this point. */
    public Map<Integer, List<PartitionPlan>> continuing(Map<Integer, List<PartitionPlan>> plans) {
      Map<Integer, List<PartitionPlan>> continued = new TreeMap<>();
      plans.forEach(
          (partitionId, copies) ->
              continued.put(
                  partitionId,
                  copies.stream().map(c -> c.toPoint(points.get(partitionId))).toList()));
      return continued;
    }
  }

  private final BackupStore store;
  private final Duration timeout;
  private final Clock clock;

  public RestorePoints(BackupStore store, Duration timeout, Clock clock) {
    this.store = store;
    this.timeout = timeout;
    this.clock = clock;
  }

  /**
   * @param selector {@link BackupSelector.ToCheckpoint} or {@link BackupSelector.ToTime}
   * @throws RestoreException RESTORE_POINT_NOT_FOUND when the point is not on every partition,
   *     RESTORE_POINT_NOT_ARCHIVED when an archive has not reached it yet, ARCHIVE_DAMAGED when it
   *     lies in a gap of an archive; for a time NO_RESTORE_POINTS, NO_RESTORE_POINT_AT_TIME or
   *     TIME_IN_FUTURE
   */
  public Resolved resolve(BackupSelector selector, int partitionCount) {
    if (selector instanceof BackupSelector.ToCheckpoint to) {
      Map<Integer, ArchivedCheckpoint> points = new TreeMap<>();
      for (int partitionId = 1; partitionId <= partitionCount; partitionId++) {
        int p = partitionId;
        points.put(
            partitionId,
            point(partitionId, to.checkpointId())
                .orElseThrow(
                    () ->
                        new RestoreException(
                            RestoreProblem.RESTORE_POINT_NOT_FOUND,
                            OptionalInt.of(p),
                            Optional.empty(),
                            "Expected restore point "
                                + to.checkpointId()
                                + " in the log archive of every partition, but partition "
                                + p
                                + " has none. The archive records a restore point for each"
                                + " checkpoint taken while backup.archive.enabled was on; list"
                                + " the backups, or restore to a time.",
                            null)));
      }
      Map<Integer, ArchiveCoverage> coverages = new TreeMap<>();
      points.forEach(
          (partitionId, point) -> {
            ArchiveCoverage coverage = coverage(partitionId, coverages);
            long archivedTo = coverage.tail(point.index());
            if (archivedTo < point.index()) {
              throw notHeld(
                  RestoreProblem.RESTORE_POINT_NOT_ARCHIVED,
                  partitionId,
                  point,
                  "it holds records up to index "
                      + archivedTo
                      + " only: the point is recorded, its records are not archived yet (the"
                      + " archive is behind, see the broker's log and cairn_backup_archive_archived_index)."
                      + " Wait for the archive, or restore to an earlier point.");
            }
            coverage
                .missing(point.index())
                .ifPresent(
                    why -> {
                      throw notHeld(
                          RestoreProblem.ARCHIVE_DAMAGED,
                          partitionId,
                          point,
                          "the point is "
                              + why
                              + ": its records were not archived before the members lost them."
                              + " Restore to another point (cairn backup restore-points lists"
                              + " which are restorable).");
                    });
          });
      return new Resolved(to.checkpointId(), points);
    }
    if (selector instanceof BackupSelector.ToTime to) {
      return atOrBefore(to.time(), partitionCount);
    }
    throw new IllegalArgumentException("Expected a restore point selector, but got " + selector);
  }

  /**
   * One restore point as {@link #newest} lists it.
   *
   * @param checkpointId its checkpoint id
   * @param takenAt when its checkpoint was taken: the latest of the partitions' timestamps
   * @param restorable recorded on every partition, and its records held by every partition's
   *     archive (a restore also needs a COMPLETED backup at or below it, with no gap in the archive
   *     between them, to start from)
   * @param detail why it is not restorable (the first partition that lacks it); empty otherwise
   */
  public record Listed(long checkpointId, Instant takenAt, boolean restorable, String detail) {}

  /**
   * The newest {@code limit} restore points of partition 1's archive, newest first, each checked on
   * every partition as {@link #resolve} would. Reads the ids of partition 1, per point one small
   * object per partition, and per partition the links that hold them: a view for people, not a
   * search.
   *
   * @param limit in [1, {@value #MAX_CANDIDATES}]
   */
  public List<Listed> newest(int partitionCount, int limit) {
    if (limit < 1 || limit > MAX_CANDIDATES) {
      throw new IllegalArgumentException(
          "Expected a limit in [1, " + MAX_CANDIDATES + "], but was " + limit);
    }
    List<Long> ids = pointIds(1);
    // each of the newest points as every partition recorded it (partition id to point)
    Map<Long, Map<Integer, ArchivedCheckpoint>> recorded = new TreeMap<>(Comparator.reverseOrder());
    for (int i = ids.size() - 1; i >= 0 && recorded.size() < limit; i--) {
      long id = ids.get(i);
      Map<Integer, ArchivedCheckpoint> onPartitions = new TreeMap<>();
      for (int partitionId = 1; partitionId <= partitionCount; partitionId++) {
        int p = partitionId;
        point(partitionId, id).ifPresent(point -> onPartitions.put(p, point));
      }
      recorded.put(id, onPartitions);
    }
    // then whether each archive holds them, in ascending index order so that its links are listed
    // once
    Map<Integer, Map<Long, Optional<String>>> held = new TreeMap<>();
    Map<Integer, ArchiveCoverage> coverages = new TreeMap<>();
    for (int partitionId = 1; partitionId <= partitionCount; partitionId++) {
      ArchiveCoverage coverage = coverage(partitionId, coverages);
      Map<Long, Optional<String>> byIndex = new TreeMap<>();
      int p = partitionId;
      recorded.values().stream()
          .map(onPartitions -> onPartitions.get(p))
          .filter(Objects::nonNull)
          .mapToLong(ArchivedCheckpoint::index)
          .sorted()
          .forEach(index -> byIndex.computeIfAbsent(index, coverage::missing));
      held.put(partitionId, byIndex);
    }
    List<Listed> listed = new ArrayList<>();
    recorded.forEach(
        (id, onPartitions) -> {
          long takenAt =
              onPartitions.values().stream()
                  .mapToLong(ArchivedCheckpoint::timestamp)
                  .max()
                  .orElse(0);
          String missing = "";
          for (int partitionId = 1;
              partitionId <= partitionCount && missing.isEmpty();
              partitionId++) {
            ArchivedCheckpoint point = onPartitions.get(partitionId);
            missing =
                point == null
                    ? "not recorded on partition " + partitionId
                    : held.get(partitionId).get(point.index()).orElse("");
          }
          listed.add(new Listed(id, Instant.ofEpochMilli(takenAt), missing.isEmpty(), missing));
        });
    return listed;
  }

  private Resolved atOrBefore(Instant time, int partitionCount) {
    Instant now = clock.instant();
    if (time.isAfter(now)) {
      throw new RestoreException(
          RestoreProblem.TIME_IN_FUTURE,
          "Expected a time at or before now ("
              + now
              + ") to restore to, but "
              + time
              + " is in the future. Restore to the newest restore point with the current time.");
    }
    List<Long> ids = pointIds(1);
    if (ids.isEmpty()) {
      throw new RestoreException(
          RestoreProblem.NO_RESTORE_POINTS,
          "Expected restore points in the log archive, but partition 1 has none. Turn on"
              + " backup.archive.enabled and take a backup (each checkpoint is a restore point).");
    }
    long limit = time.toEpochMilli();
    // on one partition, checkpoint ids and their timestamps grow together: search by halves
    int low = 0;
    int high = ids.size() - 1;
    int newest = -1;
    while (low <= high) {
      int middle = (low + high) >>> 1;
      ArchivedCheckpoint point = point(1, ids.get(middle)).orElseThrow();
      if (point.timestamp() <= limit) {
        newest = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    if (newest < 0) {
      ArchivedCheckpoint first = point(1, ids.get(0)).orElseThrow();
      throw new RestoreException(
          RestoreProblem.NO_RESTORE_POINT_AT_TIME,
          "Expected a restore point at or before "
              + time
              + ", but the first one the archive holds (checkpoint "
              + first.id()
              + ") was taken at "
              + Instant.ofEpochMilli(first.timestamp())
              + ". Restore to a later time.");
    }
    List<String> tried = new ArrayList<>();
    Map<Integer, ArchiveCoverage> coverages = new TreeMap<>();
    for (int i = newest; i >= 0 && newest - i < MAX_CANDIDATES; i--) {
      long id = ids.get(i);
      Map<Integer, ArchivedCheckpoint> points = new TreeMap<>();
      String missing = null;
      for (int partitionId = 1; partitionId <= partitionCount && missing == null; partitionId++) {
        Optional<ArchivedCheckpoint> point = point(partitionId, id);
        if (point.isEmpty()) {
          missing = "not on partition " + partitionId;
        } else if (point.get().timestamp() > limit) {
          missing =
              "taken on partition "
                  + partitionId
                  + " at "
                  + Instant.ofEpochMilli(point.get().timestamp());
        } else {
          missing = coverage(partitionId, coverages).missing(point.get().index()).orElse(null);
          points.put(partitionId, point.get());
        }
      }
      if (missing == null) {
        return new Resolved(id, points);
      }
      if (tried.size() < 5) {
        tried.add(id + " (" + missing + ")");
      }
    }
    throw new RestoreException(
        RestoreProblem.NO_RESTORE_POINT_AT_TIME,
        "Expected a restore point at or before "
            + time
            + " on every one of the "
            + partitionCount
            + " partitions, but none is; the newest tried: "
            + String.join(", ", tried)
            + ". Restore to another time.");
  }

  private static RestoreException notHeld(
      RestoreProblem problem, int partitionId, ArchivedCheckpoint point, String but) {
    return new RestoreException(
        problem,
        OptionalInt.of(partitionId),
        Optional.empty(),
        "Expected the log archive of partition "
            + partitionId
            + " to hold restore point "
            + point.id()
            + " (index "
            + point.index()
            + "), but "
            + but,
        null);
  }

  /** Partition {@code partitionId}'s archive coverage, made once per resolution. */
  private ArchiveCoverage coverage(int partitionId, Map<Integer, ArchiveCoverage> coverages) {
    return coverages.computeIfAbsent(
        partitionId, p -> new ArchiveCoverage(new LogArchive(store.archive(), p), timeout));
  }

  private Optional<ArchivedCheckpoint> point(int partitionId, long checkpointId) {
    return StoreCalls.await(
        new LogArchive(store.archive(), partitionId).point(checkpointId),
        timeout,
        "reading restore point " + checkpointId + " of partition " + partitionId,
        OptionalInt.of(partitionId));
  }

  private List<Long> pointIds(int partitionId) {
    LogArchive archive = new LogArchive(store.archive(), partitionId);
    List<Long> ids = new ArrayList<>();
    long after = 0;
    while (true) {
      List<Long> page =
          StoreCalls.await(
              archive.pointIds(after, PAGE),
              timeout,
              "listing the restore points of partition " + partitionId,
              OptionalInt.of(partitionId));
      ids.addAll(page);
      if (page.size() < PAGE) {
        return ids;
      }
      after = page.get(page.size() - 1);
    }
  }
}
