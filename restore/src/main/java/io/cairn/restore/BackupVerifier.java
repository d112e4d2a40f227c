package io.cairn.restore;

import io.cairn.backup.restore.DigestCheck;
import io.cairn.backup.restore.RestoreMarker;
import io.cairn.backupapi.Backup;
import io.cairn.backupapi.FileProblem;
import io.cairn.backupapi.VerificationReport;
import io.cairn.files.DurableFiles;
import io.cairn.restore.RestoreException.Kind;
import io.cairn.restore.catalog.BackupCatalog;
import io.cairn.restore.catalog.RestorePoints;
import io.cairn.restore.catalog.StoreCalls;
import io.cairn.restore.install.PartitionInstaller;
import io.cairn.restore.layout.DataDirectoryLayout;
import io.cairn.restore.progress.ProgressTracker;
import io.cairn.restore.rebuild.StateRebuild;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies a backup without a cluster ({@code cairn backup verify}): for every partition of the
 * backup, downloads its completed copy into a scratch directory (every file's size and CRC32C
 * checked; on a mismatch every bad file is listed), installs it exactly as a restore does (log cut
 * at the checkpoint, snapshot through the snapshot store), rebuilds the state offline ({@link
 * StateRebuild}: snapshot + replay + processing up to the checkpoint, no side effects) and compares
 * the state digest at the checkpoint with the one the backup recorded. {@code quick} checks the
 * stored files only, without downloading them.
 *
 * <p>A restore point ({@link BackupSelector.ToCheckpoint}, {@link BackupSelector.ToTime}) is
 * verified as a point-in-time restore installs it: the newest backup at or before it, its log
 * continued from the archive to the point, the state rebuilt to the point and compared with the
 * digest the point recorded; a gap in the archive makes the partition not clean.
 *
 * <pre>{@code
 * VerifyReport report = BackupVerifier.builder().store(store).meterRegistry(registry).build()
 *     .verify(BackupSelector.exact(7), scratchDir, false);
 * System.out.println(report.describe());
 * int exitCode = report.isClean() ? 0 : 1;
 * }</pre>
 *
 * <p>Partitions run {@link RestoreConfig#partitionConcurrency()} at once; each partition's files
 * are removed from the scratch directory once it is verified, and the scratch directory is left as
 * it was found. The partition count is the one the backup's descriptors record. Blocking.
 */
public final class BackupVerifier {

  private static final Logger LOG = LoggerFactory.getLogger(BackupVerifier.class);

  private final RestoreSetup setup;

  private BackupVerifier(RestoreSetup setup) {
    this.setup = setup;
  }

  public static RestoreSetup.Builder<BackupVerifier> builder() {
    return new RestoreSetup.Builder<>("BackupVerifier", BackupVerifier::new);
  }

  /**
   * @param scratchDirectory where partitions are downloaded and rebuilt; must be empty or not exist
   *     (unused when {@code quick})
   * @param quick check the stored files only
   * @return the report; {@link VerifyReport#isClean()} is the verdict
   * @throws RestoreException NOT_FOUND, NOT_COMPLETED, REFUSED (scratch directory not empty, the
   *     descriptors disagree), or FAILED (the store or the file system failed)
   */
  public VerifyReport verify(BackupSelector selector, Path scratchDirectory, boolean quick) {
    Objects.requireNonNull(selector, "selector");
    DataDirectoryLayout layout = new DataDirectoryLayout(scratchDirectory);
    if (!quick) {
      checkEmpty(layout.dataDirectory());
    }
    Optional<RestorePoints.Resolved> point = Optional.empty();
    BackupCatalog.Resolved resolved;
    if (selector.isPointInTime()) {
      // the partition count is the newest backup's; the point then names the backup it starts from
      int count = setup.catalog().resolveAtMost(Long.MAX_VALUE).partitionCount();
      RestorePoints.Resolved found = setup.points().resolve(selector, count);
      resolved = setup.catalog().resolveAtMost(found.checkpointId());
      if (resolved.backupId() != found.checkpointId()) {
        point = Optional.of(found);
      }
    } else {
      resolved = setup.catalog().resolve(selector);
    }
    int partitionCount = resolved.partitionCount();
    List<Integer> partitions = IntStream.rangeClosed(1, partitionCount).boxed().toList();
    Map<Integer, List<PartitionPlan>> planned =
        setup.catalog().plan(resolved.backupId(), partitions, partitionCount, Optional.empty());
    Map<Integer, List<PartitionPlan>> copies =
        point.map(p -> p.continuing(planned)).orElse(planned);
    Optional<Long> restorePoint = point.map(RestorePoints.Resolved::checkpointId);
    List<PartitionPlan> chosen = copies.values().stream().map(list -> list.get(0)).toList();
    setup.notifyPlan(
        new RestorePlan(resolved.backupId(), Optional.empty(), layout.dataDirectory(), chosen),
        "verification");
    LOG.info(
        "Verifying backup {} ({} partitions, {})",
        resolved.backupId(),
        partitionCount,
        quick ? "files only" : "files and state digests");
    boolean created = !quick && !Files.exists(layout.dataDirectory());
    try {
      Map<Integer, PartitionVerification> results =
          setup.withExecutor(
              partitions.size(),
              pool ->
                  PartitionWork.run(
                      partitions,
                      setup.config().partitionConcurrency(),
                      pool,
                      partitionId -> {
                        PartitionPlan plan = copies.get(partitionId).get(0);
                        return quick
                            ? verifyFiles(plan)
                            : verifyPartition(layout, plan, partitionCount);
                      }));
      VerifyReport report =
          new VerifyReport(
              resolved.backupId(),
              partitionCount,
              quick,
              List.copyOf(results.values()),
              restorePoint);
      if (report.isClean()) {
        LOG.info("Backup {} is clean", resolved.backupId());
      } else {
        LOG.warn("{}", report.describe());
      }
      return report;
    } finally {
      if (!quick) {
        cleanUp(layout, created);
      }
    }
  }

  private PartitionVerification verifyFiles(PartitionPlan plan) {
    long start = setup.clock().nanos();
    VerificationReport report =
        StoreCalls.await(
            setup.store().verify(plan.source()),
            setup.config().partitionTimeout(),
            "verifying " + plan.source(),
            OptionalInt.of(plan.partitionId()));
    setup
        .metrics()
        .partitionDone(
            RestoreMetrics.Operation.VERIFY,
            report.isClean(),
            report.checkedBytes(),
            Duration.ofNanos(setup.clock().nanos() - start));
    return new PartitionVerification(
        plan.partitionId(),
        plan.source(),
        report.checkedFileCount(),
        report.checkedBytes(),
        report.problems(),
        plan.descriptor().stateDigest(),
        Optional.empty(),
        Optional.empty());
  }

  private PartitionVerification verifyPartition(
      DataDirectoryLayout layout, PartitionPlan plan, int partitionCount) {
    int partitionId = plan.partitionId();
    ProgressTracker progress =
        new ProgressTracker(
            partitionId,
            plan.sizeBytes(),
            plan.fileCount(),
            setup.config().progressIntervalBytes(),
            setup.clock(),
            setup.listener());
    long start = setup.clock().nanos();
    progress.phase(RestorePhase.DOWNLOADING);
    PartitionVerification result;
    try {
      result = downloadAndRebuild(layout, plan, partitionCount, progress);
    } finally {
      try {
        DurableFiles.deleteRecursively(layout.partition(partitionId));
        DurableFiles.deleteRecursively(layout.staging(partitionId));
      } catch (IOException e) {
        LOG.warn(
            "Could not remove the scratch files of partition {}: {}", partitionId, e.toString());
      }
    }
    boolean clean = result.isClean(false);
    progress.phase(clean ? RestorePhase.DONE : RestorePhase.FAILED);
    setup
        .metrics()
        .partitionDone(
            RestoreMetrics.Operation.VERIFY,
            clean,
            result.bytesChecked(),
            Duration.ofNanos(setup.clock().nanos() - start));
    return result;
  }

  private PartitionVerification downloadAndRebuild(
      DataDirectoryLayout layout,
      PartitionPlan plan,
      int partitionCount,
      ProgressTracker progress) {
    int partitionId = plan.partitionId();
    Backup downloaded;
    try {
      downloaded =
          StoreCalls.await(
              setup.store().restore(plan.source(), layout.staging(partitionId), progress),
              setup.config().partitionTimeout(),
              "downloading " + plan.source(),
              OptionalInt.of(partitionId));
    } catch (RestoreException e) {
      if (e.kind() != Kind.CORRUPTED) {
        throw e;
      }
      return filesDoNotMatch(plan, e);
    }
    try {
      progress.phase(RestorePhase.INSTALLING);
      new PartitionInstaller(
              layout,
              setup.clock(),
              plan.restorePoint().map(p -> setup.store().archive()),
              setup.config().storeRequestTimeout())
          .install(plan, downloaded);
      progress.phase(RestorePhase.REBUILDING);
      RestoreMarker marker = RestoreMarker.read(layout.partition(partitionId)).orElseThrow();
      StateRebuild.Outcome outcome = StateRebuild.rebuild(layout, marker, partitionCount);
      return verified(plan, outcome.check(), outcome.failure());
    } catch (RestoreException e) {
      if (e.kind() != Kind.CORRUPTED) {
        throw e;
      }
      return verified(plan, Optional.empty(), Optional.of(e.getMessage()));
    } catch (RuntimeException e) { // NOPMD - a rebuild that throws is a finding to report
      LOG.warn("Rebuilding partition {} of {} failed", partitionId, plan.source(), e);
      return verified(
          plan,
          Optional.empty(),
          Optional.of("Expected to rebuild the partition's state, but: " + StoreCalls.describe(e)));
    }
  }

  /** The download found a bad file: list every bad file of the copy (the store's full check). */
  private PartitionVerification filesDoNotMatch(
      PartitionPlan plan, RestoreException downloadFailure) {
    List<FileProblem> problems = List.of();
    Optional<String> failure = Optional.empty();
    int files = plan.fileCount();
    try {
      VerificationReport report =
          StoreCalls.await(
              setup.store().verify(plan.source()),
              setup.config().partitionTimeout(),
              "verifying " + plan.source(),
              OptionalInt.of(plan.partitionId()));
      problems = report.problems();
      files = report.checkedFileCount();
    } catch (RestoreException e) {
      failure = Optional.of(e.getMessage());
    }
    if (problems.isEmpty() && failure.isEmpty()) {
      failure = Optional.of(downloadFailure.getMessage());
    }
    return new PartitionVerification(
        plan.partitionId(),
        plan.source(),
        files,
        plan.sizeBytes(),
        problems,
        plan.descriptor().stateDigest(),
        Optional.empty(),
        failure);
  }

  private static PartitionVerification verified(
      PartitionPlan plan, Optional<DigestCheck> digest, Optional<String> failure) {
    return new PartitionVerification(
        plan.partitionId(),
        plan.source(),
        plan.fileCount(),
        plan.sizeBytes(),
        List.of(),
        plan.restorePoint()
            .map(io.cairn.backupapi.archive.ArchivedCheckpoint::stateDigest)
            .orElse(plan.descriptor().stateDigest()),
        digest,
        failure);
  }

  private static void checkEmpty(Path directory) {
    try {
      if (!DurableFiles.isMissingOrEmpty(directory)) {
        throw new RestoreException(
            RestoreProblem.SCRATCH_NOT_EMPTY,
            "Expected an empty scratch directory for the verification, but "
                + directory
                + " is not. Name an empty or new directory.");
      }
    } catch (IOException e) {
      throw new RestoreException(
          RestoreProblem.LOCAL_IO_FAILED,
          OptionalInt.empty(),
          Optional.empty(),
          "Expected to read " + directory + ", but: " + e,
          e);
    }
  }

  private static void cleanUp(DataDirectoryLayout layout, boolean created) {
    try {
      if (created) {
        DurableFiles.deleteRecursively(layout.dataDirectory());
      } else {
        DurableFiles.deleteContents(layout.dataDirectory());
      }
    } catch (IOException e) {
      LOG.warn(
          "Could not clean the scratch directory {}: {}", layout.dataDirectory(), e.toString());
    }
  }
}
