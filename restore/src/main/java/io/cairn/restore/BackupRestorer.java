package io.cairn.restore;

import io.cairn.backupapi.Backup;
import io.cairn.files.DurableFiles;
import io.cairn.restore.RestoreException.Kind;
import io.cairn.restore.catalog.RestorePoints;
import io.cairn.restore.catalog.StoreCalls;
import io.cairn.restore.install.PartitionInstaller;
import io.cairn.restore.layout.DataDirectoryLayout;
import io.cairn.restore.progress.ProgressTracker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restores a node's data directory from a backup, offline (DESIGN.md §10); what {@code cairn
 * restore} and {@code cairn cluster restore} call.
 *
 * <pre>{@code
 * BackupRestorer restorer = BackupRestorer.builder()
 *     .store(backupStore)                       // fs or s3, opened from the broker's configuration
 *     .listener(progress -> ...)                // optional: plan and per-partition progress
 *     .meterRegistry(registry)
 *     .build();
 * RestoreResult result = restorer.restore(
 *     new RestoreTarget(dataDir, clusterId, nodeId, new ClusterShape(N, P, R), BrokerVersion.current()),
 *     BackupSelector.parse("latest"));
 * }</pre>
 *
 * <p><b>What it does.</b> Refuses a data directory that is not empty. Resolves the backup id
 * ({@code latest}: the newest backup COMPLETED on every partition) and checks, before writing
 * anything, that the backup is COMPLETED on every partition, was taken by a cluster of the same
 * partition count, and by a compatible broker version. Then, for each partition the node hosts,
 * {@link RestoreConfig#partitionConcurrency()} at once: downloads that partition's completed copy
 * (from whichever node took it; the store checks every file's size and CRC32C), installs it ({@link
 * PartitionInstaller}: segments cut at the checkpoint, snapshot through the snapshot store, raft
 * meta, restore marker), and — when a copy turns out corrupted and another node's copy exists —
 * tries that one. Writes {@code node.json} last.
 *
 * <p><b>Partial restore.</b> With {@link RestoreConfig#allowPartial()}, a partition none of whose
 * copies verifies ({@link Kind#CORRUPTED}: a file corrupted or missing in every copy) is skipped
 * instead of failing the restore: its directory is removed (a broker starts such a partition as a
 * new replica: from the other replicas if one holds its data, else empty), it is listed in {@link
 * RestoreResult#skipped()} with the reason, and the other partitions are restored as usual. The
 * checks of the whole backup (empty directory, id, COMPLETED, partition count, version) and any
 * other failure still fail the whole restore.
 *
 * <p><b>On failure</b> the data directory is left as it was found — empty (or absent) — so the
 * restore can simply be run again, and the {@link RestoreException} names the partition, the file
 * and the cause.
 *
 * <p>Blocking; one restore per call, calls may run concurrently on different directories.
 */
public final class BackupRestorer {

  private static final Logger LOG = LoggerFactory.getLogger(BackupRestorer.class);

  private final RestoreSetup setup;

  private BackupRestorer(RestoreSetup setup) {
    this.setup = setup;
  }

  public static RestoreSetup.Builder<BackupRestorer> builder() {
    return new RestoreSetup.Builder<>("BackupRestorer", BackupRestorer::new);
  }

  /**
   * Restores one node.
   *
   * @return the result; with {@link RestoreConfig#allowPartial()} it may list skipped partitions
   * @throws RestoreException REFUSED (directory not empty, partition count, version), NOT_FOUND,
   *     NOT_COMPLETED — nothing written; CORRUPTED (unless partial restores are allowed) or FAILED
   *     — the directory is empty again
   */
  public RestoreResult restore(RestoreTarget target, BackupSelector selector) {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(selector, "selector");
    checkEmpty(target.dataDirectory());
    return restoreResolved(target, resolve(selector, target.shape().partitionCount()));
  }

  /** What a selector resolved to: a backup, and the restore point after it, if one was asked. */
  private record Resolution(long backupId, Optional<RestorePoints.Resolved> point) {}

  private Resolution resolve(BackupSelector selector, int partitionCount) {
    if (!selector.isPointInTime()) {
      return new Resolution(setup.catalog().resolve(selector, partitionCount), Optional.empty());
    }
    RestorePoints.Resolved point = setup.points().resolve(selector, partitionCount);
    long backupId = setup.catalog().newestCompletedAtMost(point.checkpointId(), partitionCount);
    LOG.info(
        "Restore point {} (asked: {}) is reached from backup {} and the log archive",
        point.checkpointId(),
        selector,
        backupId);
    return new Resolution(
        backupId, backupId == point.checkpointId() ? Optional.empty() : Optional.of(point));
  }

  /**
   * Restores every node of a cluster from the same backup, one node after the other ({@code cairn
   * cluster restore}). Every directory must be empty before any is written; if one node fails,
   * every node restored before it is emptied again.
   *
   * @param targets one per node, all of the same cluster id and shape, distinct node ids and
   *     directories
   */
  public List<RestoreResult> restoreCluster(List<RestoreTarget> targets, BackupSelector selector) {
    if (targets.isEmpty()) {
      throw new IllegalArgumentException("Expected at least one node to restore, but got none");
    }
    RestoreTarget first = targets.get(0);
    Set<Integer> nodes = new HashSet<>();
    Set<Path> directories = new HashSet<>();
    for (RestoreTarget target : targets) {
      if (!target.clusterId().equals(first.clusterId()) || !target.shape().equals(first.shape())) {
        throw new IllegalArgumentException(
            "Expected every node of one cluster ("
                + first.clusterId()
                + ", "
                + first.shape()
                + "), but node "
                + target.nodeId()
                + " is of "
                + target.clusterId()
                + ", "
                + target.shape());
      }
      if (!nodes.add(target.nodeId()) || !directories.add(target.dataDirectory())) {
        throw new IllegalArgumentException(
            "Expected distinct node ids and data directories, but node "
                + target.nodeId()
                + " or "
                + target.dataDirectory()
                + " is given twice");
      }
    }
    targets.forEach(target -> checkEmpty(target.dataDirectory()));
    Resolution resolution = resolve(selector, first.shape().partitionCount());
    List<RestoreResult> results = new ArrayList<>();
    List<Boolean> created = new ArrayList<>();
    for (RestoreTarget target : targets) {
      created.add(!Files.exists(target.dataDirectory()));
    }
    for (RestoreTarget target : targets) {
      try {
        results.add(restoreResolved(target, resolution));
      } catch (RuntimeException e) {
        for (int i = 0; i < results.size(); i++) {
          undo(new DataDirectoryLayout(results.get(i).dataDirectory()), created.get(i), e);
        }
        throw e;
      }
    }
    return results;
  }

  private RestoreResult restoreResolved(RestoreTarget target, Resolution resolution) {
    long backupId = resolution.backupId();
    ClusterShape shape = target.shape();
    List<Integer> partitions = shape.partitionsOf(target.nodeId());
    Map<Integer, List<PartitionPlan>> planned =
        setup
            .catalog()
            .plan(
                backupId, partitions, shape.partitionCount(), Optional.of(target.brokerVersion()));
    Map<Integer, List<PartitionPlan>> copies =
        resolution.point().map(p -> p.continuing(planned)).orElse(planned);
    Optional<Long> restorePoint = resolution.point().map(RestorePoints.Resolved::checkpointId);
    List<PartitionPlan> chosen = copies.values().stream().map(list -> list.get(0)).toList();
    DataDirectoryLayout layout = new DataDirectoryLayout(target.dataDirectory());
    setup.notifyPlan(
        new RestorePlan(backupId, Optional.of(target.nodeId()), layout.dataDirectory(), chosen),
        "restore");
    LOG.info(
        "Restoring backup {}{} into {} for node {} of cluster '{}': partitions {}",
        backupId,
        restorePoint.map(id -> " continued to restore point " + id).orElse(""),
        layout.dataDirectory(),
        target.nodeId(),
        target.clusterId(),
        partitions);
    long startNanos = setup.clock().nanos();
    boolean created = !Files.exists(layout.dataDirectory());
    try {
      Files.createDirectories(layout.dataDirectory());
      PartitionInstaller installer =
          new PartitionInstaller(
              layout,
              setup.clock(),
              resolution.point().map(p -> setup.store().archive()),
              setup.config().storeRequestTimeout());
      Map<Integer, Outcome> outcomes =
          setup.withExecutor(
              partitions.size(),
              executor ->
                  PartitionWork.run(
                      partitions,
                      setup.config().partitionConcurrency(),
                      executor,
                      partitionId -> restorePartition(layout, installer, copies.get(partitionId))));
      DurableFiles.deleteRecursively(layout.staging());
      List<PartitionRestoreResult> restored =
          outcomes.values().stream().flatMap(o -> o.restored().stream()).toList();
      List<SkippedPartition> skipped =
          outcomes.values().stream().flatMap(o -> o.skipped().stream()).toList();
      layout.writeNodeDescriptor(target.clusterId(), target.nodeId(), shape.partitionCount());
      Duration took = Duration.ofNanos(setup.clock().nanos() - startNanos);
      RestoreResult result =
          new RestoreResult(
              backupId,
              target.nodeId(),
              layout.dataDirectory(),
              restored,
              took,
              skipped,
              restorePoint);
      LOG.info(
          "Restored backup {}{} into {}: {} partitions, {} bytes in {}",
          backupId,
          restorePoint.map(id -> " continued to restore point " + id).orElse(""),
          layout.dataDirectory(),
          restored.size(),
          result.totalBytes(),
          took);
      skipped.forEach(
          s ->
              LOG.warn(
                  "Partial restore of backup {} into {}: partition {} skipped, it starts without"
                      + " data ({})",
                  backupId,
                  layout.dataDirectory(),
                  s.partitionId(),
                  s.reason()));
      return result;
    } catch (IOException e) {
      RestoreException failure =
          new RestoreException(
              RestoreProblem.LOCAL_IO_FAILED,
              OptionalInt.empty(),
              Optional.empty(),
              "Expected to write into "
                  + layout.dataDirectory()
                  + ", but: "
                  + e
                  + ". Check its free space and permissions, then run the restore again.",
              e);
      undo(layout, created, failure);
      throw failure;
    } catch (RuntimeException e) {
      undo(layout, created, e);
      throw e;
    }
  }

  /** One partition's outcome: restored, or skipped by a partial restore. */
  private record Outcome(
      Optional<PartitionRestoreResult> restored, Optional<SkippedPartition> skipped) {}

  /**
   * Restores one partition from its first copy; a corrupted copy makes it try the next. When every
   * copy is corrupted, a partial restore skips the partition (its directory removed).
   */
  private Outcome restorePartition(
      DataDirectoryLayout layout, PartitionInstaller installer, List<PartitionPlan> copies) {
    RestoreException corrupted = null;
    for (PartitionPlan plan : copies) {
      try {
        return new Outcome(Optional.of(restoreCopy(layout, installer, plan)), Optional.empty());
      } catch (RestoreException e) {
        if (e.kind() != Kind.CORRUPTED) {
          throw e;
        }
        if (corrupted == null) {
          corrupted = e;
        } else {
          corrupted.addSuppressed(e);
        }
        LOG.warn("{}; trying another copy if there is one", e.getMessage());
        clearPartition(layout, plan.partitionId(), corrupted);
      }
    }
    if (corrupted != null && setup.config().allowPartial() && onlyRestoreFailures(corrupted)) {
      return new Outcome(
          Optional.empty(),
          Optional.of(SkippedPartition.of(copies.get(0).partitionId(), corrupted)));
    }
    throw corrupted;
  }

  private PartitionRestoreResult restoreCopy(
      DataDirectoryLayout layout, PartitionInstaller installer, PartitionPlan plan) {
    int partitionId = plan.partitionId();
    ProgressTracker progress =
        new ProgressTracker(
            partitionId,
            plan.sizeBytes(),
            plan.fileCount(),
            setup.config().progressIntervalBytes(),
            setup.clock(),
            setup.listener());
    long startNanos = setup.clock().nanos();
    progress.phase(RestorePhase.DOWNLOADING);
    try {
      Backup downloaded =
          StoreCalls.await(
              setup.store().restore(plan.source(), layout.staging(partitionId), progress),
              setup.config().partitionTimeout(),
              "downloading " + plan.source(),
              OptionalInt.of(partitionId));
      progress.phase(RestorePhase.INSTALLING);
      PartitionInstaller.Installed installed = installer.install(plan, downloaded);
      DurableFiles.deleteRecursively(layout.staging(partitionId));
      progress.phase(RestorePhase.DONE);
      setup
          .metrics()
          .partitionDone(
              RestoreMetrics.Operation.RESTORE,
              true,
              plan.sizeBytes(),
              Duration.ofNanos(setup.clock().nanos() - startNanos));
      return new PartitionRestoreResult(
          partitionId,
          plan.source(),
          plan.checkpointPosition(),
          installed.snapshot().map(s -> s.id().toString()),
          plan.fileCount(),
          plan.sizeBytes(),
          installed.cut().firstIndex(),
          installed.cut().checkpointIndex(),
          installed.cut().droppedRecords());
    } catch (IOException e) {
      progress.phase(RestorePhase.FAILED);
      setup
          .metrics()
          .partitionDone(
              RestoreMetrics.Operation.RESTORE,
              false,
              0,
              Duration.ofNanos(setup.clock().nanos() - startNanos));
      throw new RestoreException(
          RestoreProblem.LOCAL_IO_FAILED,
          OptionalInt.of(partitionId),
          Optional.empty(),
          "Expected to remove the staging directory of partition " + partitionId + ", but: " + e,
          e);
    } catch (RuntimeException e) {
      progress.phase(RestorePhase.FAILED);
      setup
          .metrics()
          .partitionDone(
              RestoreMetrics.Operation.RESTORE,
              false,
              0,
              Duration.ofNanos(setup.clock().nanos() - startNanos));
      throw e instanceof RestoreException
          ? e
          : StoreCalls.translate(e, "restoring " + plan.source(), OptionalInt.of(partitionId));
    }
  }

  /** True unless removing a bad copy's files failed too (then the directory is not as expected). */
  private static boolean onlyRestoreFailures(RestoreException failure) {
    for (Throwable suppressed : failure.getSuppressed()) {
      if (!(suppressed instanceof RestoreException)) {
        return false;
      }
    }
    return true;
  }

  private static void clearPartition(
      DataDirectoryLayout layout, int partitionId, RestoreException failure) {
    try {
      DurableFiles.deleteRecursively(layout.partition(partitionId));
      DurableFiles.deleteRecursively(layout.staging(partitionId));
    } catch (IOException e) {
      failure.addSuppressed(e);
    }
  }

  private void checkEmpty(Path dataDirectory) {
    try {
      if (!DurableFiles.isMissingOrEmpty(dataDirectory)) {
        String found =
            Files.isDirectory(dataDirectory)
                ? "it holds " + DurableFiles.someEntries(dataDirectory, 5)
                : "it is not a directory";
        throw new RestoreException(
            RestoreProblem.TARGET_NOT_EMPTY,
            "Expected an empty data directory to restore into, but "
                + dataDirectory
                + ": "
                + found
                + ". Nothing was written. Restore into an empty directory, or empty this one"
                + " (its data is lost).");
      }
    } catch (IOException e) {
      throw new RestoreException(
          RestoreProblem.LOCAL_IO_FAILED,
          OptionalInt.empty(),
          Optional.empty(),
          "Expected to read " + dataDirectory + ", but: " + e,
          e);
    }
  }

  private void undo(DataDirectoryLayout layout, boolean created, RuntimeException failure) {
    try {
      if (created) {
        DurableFiles.deleteRecursively(layout.dataDirectory());
      } else {
        DurableFiles.deleteContents(layout.dataDirectory());
      }
      LOG.info("Emptied {} after a failed restore", layout.dataDirectory());
    } catch (IOException e) {
      LOG.error(
          "Could not empty {} after a failed restore ({}); empty it by hand before restoring"
              + " again",
          layout.dataDirectory(),
          e.toString());
      failure.addSuppressed(e);
    }
  }
}
