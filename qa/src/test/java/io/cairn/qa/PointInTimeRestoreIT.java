package io.cairn.qa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.PageRequest;
import io.cairn.backupapi.archive.ArchiveKeys;
import io.cairn.backupapi.archive.LogArchive;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.client.CairnClient;
import io.cairn.client.RestorePoint;
import io.cairn.qa.support.Checkpoints;
import io.cairn.qa.support.ClusterRestore;
import io.cairn.qa.support.LedgerOracle;
import io.cairn.qa.support.Phases;
import io.cairn.qa.support.Seeds;
import io.cairn.qa.support.TransferLoad;
import io.cairn.restore.BackupSelector;
import io.cairn.restore.BackupVerifier;
import io.cairn.restore.ClusterShape;
import io.cairn.restore.RestoreException;
import io.cairn.restore.RestoreResult;
import io.cairn.restore.VerifyReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Point-in-time restore from a backup and the log archive: a cluster with {@code
 * backup.archive.enabled} takes backup 1, then three more checkpoints under cross-partition
 * transfer load (each after the load settled, so every balance at it is known), and the backups of
 * those three are deleted: they exist only as restore points of the archive. Each is restored into
 * a fresh cluster by id, one by time; each restored cluster passes its digest check and has the
 * balances of its own moment. A time before the first point and one in the future are refused, and
 * a link removed from the archive is a gap that fails the restore naming the partition and the
 * index, leaving the directories empty.
 */
final class PointInTimeRestoreIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final ClusterShape SHAPE = new ClusterShape(3, 3, 1);

  @TempDir Path directory;

  @Test
  void shouldRestoreEveryRestorePointWithTheBalancesOfItsMoment() throws Exception {
    long seed = Seeds.seed("PointInTimeRestoreIT");
    Phases phases = new Phases("PointInTimeRestoreIT");
    Path store = Files.createDirectories(directory.resolve("backups"));
    Map<Long, Map<String, Long>> balancesAt = new TreeMap<>();
    Instant beforeAnyPoint;
    Instant betweenThreeAndFour;
    String clusterId;
    List<String> accounts;
    try (EmbeddedCluster cluster = cluster(directory.resolve("source"), store, true)) {
      cluster.start().awaitHealthy();
      clusterId = cluster.config().clusterId();
      CairnClient client = cluster.client();
      accounts = LedgerOracle.accounts(cluster, "pitr", 3);
      beforeAnyPoint = Instant.now();
      Thread.sleep(20);
      LedgerOracle oracle = LedgerOracle.fund(client, accounts, 10_000);
      balancesAt.put(1L, Checkpoints.settledBackup(client, 1, oracle, TIMEOUT));
      phases.mark("backup 1");

      Instant between = null;
      for (long id = 2; id <= 4; id++) {
        if (id == 4) {
          Thread.sleep(20);
          between = Instant.now();
          Thread.sleep(20);
        }
        TransferLoad load = new TransferLoad(client, accounts, seed + id, 6, 50);
        load.start();
        try {
          load.awaitAcknowledged(60, TIMEOUT);
        } finally {
          load.stop(TIMEOUT);
        }
        client.deposit(accounts.get((int) id), id * 1_000);
        oracle = oracle.plus(accounts.get((int) id), id * 1_000);
        balancesAt.put(id, Checkpoints.settledBackup(client, id, oracle, TIMEOUT));
        phases.mark("checkpoint " + id + " after " + load);
      }
      betweenThreeAndFour = between;
      // the archive holds each point on every partition before the backups 2 to 4 go
      ExecutorService executor = Executors.newFixedThreadPool(2);
      try (var fs =
          ClusterRestore.filesystem(store, BackupEncryption.off()).apply(executor, executor)) {
        await("restore points 1 to 4 archived on every partition")
            .atMost(TIMEOUT)
            .pollInterval(Duration.ofMillis(200))
            .until(
                () -> {
                  for (int partition = 1; partition <= 3; partition++) {
                    if (new LogArchive(fs.archive(), partition).point(4).get().isEmpty()) {
                      return false;
                    }
                  }
                  return true;
                });
        for (long id = 2; id <= 4; id++) {
          for (int partition = 1; partition <= 3; partition++) {
            // replication factor 1: partition p's only copy is node p-1's
            fs.delete(new BackupIdentifier(partition - 1, partition, id)).get();
          }
        }
        assertThat(fs.list(BackupIdentifierWildcard.all(), PageRequest.first(100)).get().statuses())
            .extracting(status -> status.id().checkpointId())
            .containsOnly(1L);
      } finally {
        executor.shutdownNow();
      }
      phases.mark("backups 2 to 4 deleted: restore points only");
      // the gateway lists them from the archive, newest first, each restorable
      List<RestorePoint> listed = client.restorePoints(10);
      assertThat(listed).extracting(RestorePoint::checkpointId).containsExactly(4L, 3L, 2L, 1L);
      assertThat(listed).allSatisfy(p -> assertThat(p.restorable()).as(p.detail()).isTrue());
      assertThat(listed.get(0).takenAt()).isAfter(betweenThreeAndFour);
      assertThat(listed.get(1).takenAt()).isBefore(betweenThreeAndFour);
      assertThat(client.restorePoints(2))
          .extracting(RestorePoint::checkpointId)
          .containsExactly(4L, 3L);
    }

    for (long point = 2; point <= 4; point++) {
      long id = point;
      Path restored = directory.resolve("restored-" + id);
      List<RestoreResult> results =
          restore(store, restored, clusterId, new BackupSelector.ToCheckpoint(id));
      assertThat(results).allSatisfy(r -> assertThat(r.backupId()).isEqualTo(1));
      assertThat(results).allSatisfy(r -> assertThat(r.restorePoint()).contains(id));
      assertBalances(restored, balancesAt.get(id), "restore point " + id);
      phases.mark("restore point " + id + " restored");
    }

    Path byTime = directory.resolve("restored-by-time");
    List<RestoreResult> timed =
        restore(store, byTime, clusterId, new BackupSelector.ToTime(betweenThreeAndFour));
    assertThat(timed).allSatisfy(r -> assertThat(r.checkpointId()).isEqualTo(3));
    assertBalances(byTime, balancesAt.get(3L), "the time " + betweenThreeAndFour);
    phases.mark("restored to a time");

    assertThatThrownBy(
            () ->
                restore(
                    store,
                    directory.resolve("too-early"),
                    clusterId,
                    new BackupSelector.ToTime(beforeAnyPoint)))
        .isInstanceOf(RestoreException.class)
        .hasMessageContaining("Expected a restore point at or before " + beforeAnyPoint)
        .hasMessageContaining("the first one the archive holds (checkpoint 1)");
    Instant future = Instant.now().plusSeconds(3600);
    assertThatThrownBy(
            () ->
                restore(
                    store,
                    directory.resolve("future"),
                    clusterId,
                    new BackupSelector.ToTime(future)))
        .isInstanceOf(RestoreException.class)
        .hasMessageContaining(future + " is in the future");

    // the restore points verify offline as they restore: the digest rebuilt at the point
    VerifyReport verified = verify(store, new BackupSelector.ToCheckpoint(3));
    assertThat(verified.isClean()).as(verified.describe()).isTrue();
    assertThat(verified.restorePoint()).contains(3L);
    assertThat(verified.partitions()).allSatisfy(p -> assertThat(p.digest()).isPresent());

    // a gap: partition 2's archive loses a link between backup 1's checkpoint and point 4
    Files.delete(linkBetweenBackupOneAndPointFour(store));
    Path gapped = directory.resolve("gapped");
    assertThatThrownBy(() -> restore(store, gapped, clusterId, new BackupSelector.ToCheckpoint(4)))
        .isInstanceOf(RestoreException.class)
        .hasMessageContaining("partition 2")
        .hasMessageContaining("has a gap");
    VerifyReport gappedReport = verify(store, new BackupSelector.ToCheckpoint(4));
    assertThat(gappedReport.isClean()).isFalse();
    assertThat(gappedReport.describe()).contains("partition 2").contains("has a gap");
    for (int node = 0; node < 3; node++) {
      Path nodeDirectory = gapped.resolve("node-" + node);
      assertThat(!Files.exists(nodeDirectory) || isEmpty(nodeDirectory))
          .as("%s left empty", nodeDirectory)
          .isTrue();
    }
    phases.mark("refusals");
  }

  /** A link file of partition 2 wholly after backup 1's checkpoint and before point 4's record. */
  private static Path linkBetweenBackupOneAndPointFour(Path store) throws Exception {
    ExecutorService executor = Executors.newFixedThreadPool(2);
    try (var fs =
        ClusterRestore.filesystem(store, BackupEncryption.off()).apply(executor, executor)) {
      LogArchive archive = new LogArchive(fs.archive(), 2);
      long backupPosition =
          fs.getStatus(new BackupIdentifier(1, 2, 1))
              .get()
              .descriptor()
              .orElseThrow()
              .checkpointPosition();
      long pointIndex = archive.point(4).get().orElseThrow().index();
      for (String key : fs.archive().list(ArchiveKeys.linksDirectory(2), null, 1000).get()) {
        var link = archive.readLink(key).get().link();
        if (link.fromPosition() > backupPosition && link.toIndex() < pointIndex) {
          return store.resolve("archive").resolve(key);
        }
      }
      throw new AssertionError(
          "Expected a link of partition 2 between backup 1 (position "
              + backupPosition
              + ") and restore point 4 (index "
              + pointIndex
              + ")");
    } finally {
      executor.shutdownNow();
    }
  }

  private static boolean isEmpty(Path directory) throws Exception {
    try (var entries = Files.list(directory)) {
      return entries.findAny().isEmpty();
    }
  }

  private VerifyReport verify(Path store, BackupSelector selector) throws Exception {
    ExecutorService executor = Executors.newFixedThreadPool(2);
    try (var fs =
        ClusterRestore.filesystem(store, BackupEncryption.off()).apply(executor, executor)) {
      return BackupVerifier.builder()
          .store(fs)
          .meterRegistry(new io.micrometer.core.instrument.simple.SimpleMeterRegistry())
          .build()
          .verify(selector, directory.resolve("verify-" + System.nanoTime()), false);
    } finally {
      executor.shutdownNow();
    }
  }

  private static List<RestoreResult> restore(
      Path store, Path restored, String clusterId, BackupSelector selector) {
    return ClusterRestore.restore(
        ClusterRestore.filesystem(store, BackupEncryption.off()),
        restored,
        clusterId,
        SHAPE,
        selector);
  }

  private void assertBalances(Path restored, Map<String, Long> expected, String what)
      throws Exception {
    // the restored clusters write into a store of their own: processing the kept CREATE again
    // takes that checkpoint's backup, and their logs leave the archived history after the point
    try (EmbeddedCluster cluster =
        cluster(restored, Files.createDirectories(restored.resolve("own-backups")), false)) {
      cluster.start().awaitHealthy();
      CairnClient client = cluster.client();
      LedgerOracle.awaitBalances(client, expected, what, TIMEOUT);
    }
  }

  private static EmbeddedCluster cluster(Path dataDirectory, Path store, boolean archive) {
    return EmbeddedCluster.builder()
        .brokers(3)
        .partitions(3)
        .replicationFactor(1)
        .backupStore(BackupStoreSpec.filesystem(store))
        .dataDirectory(dataDirectory)
        .brokerSetting("backup.archive.enabled", Boolean.toString(archive))
        .brokerSetting("backup.archive.interval", "200ms")
        .brokerSetting("processing.creditRetryInterval", "100ms")
        .brokerSetting("processing.creditRetryIntervalMax", "200ms")
        .gatewayRequestTimeout(Duration.ofSeconds(5))
        .build();
  }
}
