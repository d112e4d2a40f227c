package io.cairn.restore.catalog;

import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupPage;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusAggregator;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.CheckpointPattern;
import io.cairn.backupapi.ClusterBackupStatus;
import io.cairn.backupapi.ClusterBackupStatusCode;
import io.cairn.backupapi.PageRequest;
import io.cairn.restore.BackupSelector;
import io.cairn.restore.PartitionPlan;
import io.cairn.restore.RestoreException;
import io.cairn.restore.RestoreProblem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Finds the backup to restore in a store and checks it before anything is written: it must be
 * COMPLETED on every partition of the cluster (a cluster restore needs them all), and each copy
 * used must have been taken by a cluster of the same partition count and a compatible broker
 * version.
 */
public final class BackupCatalog {

  private final BackupStore store;
  private final Duration timeout;

  public BackupCatalog(BackupStore store, Duration timeout) {
    this.store = store;
    this.timeout = timeout;
  }

  /**
   * The id {@code selector} names: the exact id, or the highest id COMPLETED on every partition
   * {@code 1..partitionCount}.
   *
   * @throws RestoreException NOT_FOUND if {@code latest} finds no such backup
   */
  public long resolve(BackupSelector selector, int partitionCount) {
    if (selector.isPointInTime()) {
      throw new IllegalArgumentException(
          "Expected a backup id or 'latest', but got " + selector + " (see RestorePoints)");
    }
    if (selector instanceof BackupSelector.Exact exact) {
      return exact.backupId();
    }
    return newestCompleted(
        Long.MAX_VALUE, partitionCount, "Take a backup, or restore a specific id.");
  }

  /**
   * The highest backup id at or below {@code maxId} that is COMPLETED on every partition {@code
   * 1..partitionCount}: where a point-in-time restore to {@code maxId} starts.
   *
   * @throws RestoreException NOT_FOUND if there is none
   */
  public long newestCompletedAtMost(long maxId, int partitionCount) {
    return newestCompleted(
        maxId,
        partitionCount,
        "A point-in-time restore starts from a backup taken at or before its restore point:"
            + " choose a later restore point.");
  }

  private long newestCompleted(long maxId, int partitionCount, String advice) {
    Map<Long, List<BackupStatus>> byId = new TreeMap<>(Comparator.reverseOrder());
    for (BackupStatus status : list(BackupIdentifierWildcard.all(), "listing every backup")) {
      if (status.id().partitionId() <= partitionCount && status.id().checkpointId() <= maxId) {
        byId.computeIfAbsent(status.id().checkpointId(), id -> new ArrayList<>()).add(status);
      }
    }
    List<String> skipped = new ArrayList<>();
    for (Map.Entry<Long, List<BackupStatus>> entry : byId.entrySet()) {
      ClusterBackupStatus cluster =
          BackupStatusAggregator.aggregate(entry.getKey(), partitionCount, entry.getValue());
      if (cluster.statusCode() == ClusterBackupStatusCode.COMPLETED) {
        return entry.getKey();
      }
      if (skipped.size() < 5) {
        skipped.add(
            entry.getKey()
                + " "
                + cluster.statusCode()
                + cluster.reason().map(r -> " (" + r + ")").orElse(""));
      }
    }
    throw new RestoreException(
        RestoreProblem.NO_COMPLETED_BACKUP,
        "Expected a backup"
            + (maxId == Long.MAX_VALUE ? "" : " with an id at or below " + maxId)
            + " COMPLETED on every one of the "
            + partitionCount
            + " partitions, but "
            + (byId.isEmpty()
                ? "the store holds no " + (maxId == Long.MAX_VALUE ? "backup" : "such backup")
                : "none is; the newest: " + String.join("; ", skipped))
            + ". "
            + advice);
  }

  /**
   * A backup id and the partition count of the cluster that took it.
   *
   * @param backupId the backup id
   * @param partitionCount the partition count its descriptors record
   */
  public record Resolved(long backupId, int partitionCount) {}

  /**
   * Like {@link #resolve(BackupSelector, int)} for a caller that knows no cluster (a verification):
   * the partition count is the one the backup's descriptors record.
   *
   * @throws RestoreException NOT_FOUND if there is no such backup, REFUSED if its descriptors
   *     disagree on the partition count
   */
  public Resolved resolve(BackupSelector selector) {
    if (selector.isPointInTime()) {
      throw new RestoreException(
          RestoreProblem.VERIFY_RESTORE_POINT_UNSUPPORTED,
          "Expected a backup id or 'latest' to verify, but got "
              + selector
              + ": verifying a restore point is not supported yet. Verify the backup it starts"
              + " from, or restore it into a scratch cluster (the restore checks its digest).");
    }
    if (selector instanceof BackupSelector.Exact exact) {
      List<BackupStatus> statuses =
          list(
              BackupIdentifierWildcard.ofCheckpoints(CheckpointPattern.exact(exact.backupId())),
              "listing backup " + exact.backupId());
      List<Integer> counts =
          statuses.stream()
              .flatMap(s -> s.descriptor().stream())
              .map(d -> d.numberOfPartitions())
              .distinct()
              .sorted()
              .toList();
      if (counts.isEmpty()) {
        throw new RestoreException(
            RestoreProblem.BACKUP_NOT_FOUND,
            "Expected backup "
                + exact.backupId()
                + " in the store, but "
                + (statuses.isEmpty()
                    ? "no partition has it"
                    : "no partition recorded its" + " descriptor (it never started)")
                + ". List the backups to find the id.");
      }
      if (counts.size() > 1) {
        throw new RestoreException(
            RestoreProblem.PARTITION_COUNTS_DIFFER,
            "Expected every partition of backup "
                + exact.backupId()
                + " to record the same partition count, but they record "
                + counts
                + ". Delete the copies of the other cluster, or verify another backup.");
      }
      return new Resolved(exact.backupId(), counts.get(0));
    }
    return resolveAtMost(Long.MAX_VALUE);
  }

  /**
   * The highest backup id at or below {@code maxId} COMPLETED on every partition, with the
   * partition count its descriptors record: where verifying a restore point {@code maxId} starts.
   *
   * @throws RestoreException NOT_FOUND if there is none
   */
  public Resolved resolveAtMost(long maxId) {
    Map<Long, List<BackupStatus>> byId = new TreeMap<>(Comparator.reverseOrder());
    for (BackupStatus status : list(BackupIdentifierWildcard.all(), "listing every backup")) {
      if (status.id().checkpointId() <= maxId) {
        byId.computeIfAbsent(status.id().checkpointId(), id -> new ArrayList<>()).add(status);
      }
    }
    for (Map.Entry<Long, List<BackupStatus>> entry : byId.entrySet()) {
      int count =
          entry.getValue().stream()
              .flatMap(s -> s.descriptor().stream())
              .mapToInt(d -> d.numberOfPartitions())
              .max()
              .orElse(0);
      if (count == 0) {
        continue;
      }
      List<BackupStatus> inRange =
          entry.getValue().stream().filter(s -> s.id().partitionId() <= count).toList();
      if (BackupStatusAggregator.aggregate(entry.getKey(), count, inRange).statusCode()
          == ClusterBackupStatusCode.COMPLETED) {
        return new Resolved(entry.getKey(), count);
      }
    }
    throw new RestoreException(
        RestoreProblem.NO_COMPLETED_BACKUP,
        "Expected a backup"
            + (maxId == Long.MAX_VALUE ? "" : " with an id at or below " + maxId)
            + " COMPLETED on every partition, but "
            + (byId.isEmpty()
                ? "the store holds no " + (maxId == Long.MAX_VALUE ? "backup" : "such backup")
                : "none is")
            + ". Take a backup, or name a specific id.");
  }

  /**
   * Checks that backup {@code backupId} is COMPLETED on every partition and chooses, for each of
   * {@code partitions}, its completed copies (lowest node id first) after checking their
   * descriptors.
   *
   * @param targetVersion the version of the broker that will open the restored data (empty: no
   *     version check, for a verification)
   * @return the copies of each partition, the first one to use first
   * @throws RestoreException NOT_FOUND, NOT_COMPLETED or REFUSED, naming the partitions at fault
   */
  public Map<Integer, List<PartitionPlan>> plan(
      long backupId, List<Integer> partitions, int partitionCount, Optional<String> targetVersion) {
    List<BackupStatus> statuses =
        list(
            BackupIdentifierWildcard.ofCheckpoints(CheckpointPattern.exact(backupId)),
            "listing backup " + backupId);
    // A store lists a manifest it cannot read as FAILED; for the backup asked for by id that is
    // corruption to name, not merely "not completed".
    for (BackupStatus status : statuses) {
      if (status.isManifestUnreadable()) {
        int partitionId = status.id().partitionId();
        throw new RestoreException(
            RestoreProblem.MANIFEST_UNTRUSTWORTHY,
            OptionalInt.of(partitionId),
            Optional.empty(),
            "Partition "
                + partitionId
                + ": Expected a trustworthy manifest while listing backup "
                + backupId
                + ", but: "
                + status.failureReason().orElse("(no reason)"),
            null);
      }
    }
    List<String> otherShape =
        statuses.stream()
            .filter(
                s ->
                    s.id().partitionId() > partitionCount
                        || s.descriptor()
                            .map(d -> d.numberOfPartitions() != partitionCount)
                            .orElse(false))
            .map(
                s ->
                    s.id()
                        + s.descriptor()
                            .map(d -> " of a cluster of " + d.numberOfPartitions() + " partitions")
                            .orElse(""))
            .limit(5)
            .toList();
    if (!otherShape.isEmpty()) {
      throw new RestoreException(
          RestoreProblem.PARTITION_COUNT_MISMATCH,
          "Expected backup "
              + backupId
              + " to be taken by a cluster of "
              + partitionCount
              + " partitions, as configured, but the store holds "
              + String.join(", ", otherShape)
              + ". A cluster's partition count cannot change: restore into a cluster configured"
              + " with the backup's cluster.partitionCount.");
    }
    ClusterBackupStatus cluster =
        BackupStatusAggregator.aggregate(backupId, partitionCount, statuses);
    switch (cluster.statusCode()) {
      case DOES_NOT_EXIST ->
          throw new RestoreException(
              RestoreProblem.BACKUP_NOT_FOUND,
              "Expected backup "
                  + backupId
                  + " in the store, but no partition has it. List the backups to find the id.");
      case COMPLETED -> {
        // checked per partition below
      }
      default ->
          throw new RestoreException(
              RestoreProblem.BACKUP_NOT_COMPLETED,
              "Expected backup "
                  + backupId
                  + " to be COMPLETED on every one of the "
                  + partitionCount
                  + " partitions, but it is "
                  + cluster.statusCode()
                  + cluster.reason().map(r -> ": " + r).orElse("")
                  + ". Restore another backup.");
    }
    Map<Integer, List<PartitionPlan>> plans = new TreeMap<>();
    List<String> refusals = new ArrayList<>();
    for (int partitionId : partitions) {
      List<PartitionPlan> copies = new ArrayList<>();
      for (BackupStatus status : statuses) {
        if (status.id().partitionId() == partitionId
            && status.statusCode() == BackupStatusCode.COMPLETED) {
          var descriptor = status.descriptor().orElseThrow();
          Optional<String> versionProblem =
              targetVersion.flatMap(
                  version -> VersionCompatibility.problem(descriptor.brokerVersion(), version));
          if (versionProblem.isPresent()) {
            refusals.add(
                "partition "
                    + partitionId
                    + ": "
                    + versionProblem.get()
                    + " ("
                    + status.id()
                    + ")");
            continue;
          }
          copies.add(new PartitionPlan(partitionId, status.id(), descriptor));
        }
      }
      copies.sort(Comparator.comparingInt(plan -> plan.source().nodeId()));
      plans.put(partitionId, copies);
    }
    List<Integer> unusable =
        plans.entrySet().stream()
            .filter(e -> e.getValue().isEmpty())
            .map(Map.Entry::getKey)
            .collect(Collectors.toList());
    if (!unusable.isEmpty()) {
      throw new RestoreException(
          RestoreProblem.VERSION_INCOMPATIBLE,
          unusable.size() == 1 ? OptionalInt.of(unusable.get(0)) : OptionalInt.empty(),
          Optional.empty(),
          "Expected a usable completed copy of backup "
              + backupId
              + " for partitions "
              + unusable
              + ", but: "
              + String.join("; ", refusals)
              + ". Restore with a broker of a version compatible with the one that took the"
              + " backup.",
          null);
    }
    return plans;
  }

  private List<BackupStatus> list(BackupIdentifierWildcard wildcard, String what) {
    List<BackupStatus> statuses = new ArrayList<>();
    PageRequest request = PageRequest.first(PageRequest.MAX_SIZE);
    while (true) {
      BackupPage page =
          StoreCalls.await(store.list(wildcard, request), timeout, what, OptionalInt.empty());
      statuses.addAll(page.statuses());
      if (page.nextPageToken().isEmpty()) {
        return statuses;
      }
      request = request.next(page);
    }
  }
}
