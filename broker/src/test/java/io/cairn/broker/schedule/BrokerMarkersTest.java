package io.cairn.broker.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.backup.schedule.BackupScheduleMetrics;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.PageRequest;
import io.cairn.backupapi.archive.LogArchive;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupfs.FilesystemBackupStoreConfig;
import io.cairn.broker.Broker;
import io.cairn.broker.BrokerTestCluster;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers with an hourly backup schedule, a marker every second and the log archive: the
 * markers are restore points in every partition's archive, and the store holds no backup of them —
 * only the hour's.
 */
final class BrokerMarkersTest {

  private static final int PARTITIONS = 2;

  @Test
  void shouldTakeMarkersAsRestorePointsWithoutBackups(@TempDir Path root) throws Exception {
    try (BrokerTestCluster cluster =
        BrokerTestCluster.builder(root)
            .brokers(3)
            .partitions(PARTITIONS)
            .replicationFactor(3)
            .backupStore(root.resolve("backups"))
            .setting("backup.archive.enabled", "true")
            .setting("backup.archive.interval", "200ms")
            .setting("backup.schedule.interval", "1h")
            .setting("backup.schedule.markerInterval", "1s")
            .build()) {
      cluster.awaitReady();
      ExecutorService executor = Executors.newFixedThreadPool(2);
      try (FilesystemBackupStore store =
          FilesystemBackupStore.open(
              FilesystemBackupStoreConfig.of(cluster.backups()),
              Clock.system(),
              executor,
              executor,
              new SimpleMeterRegistry())) {
        await("three markers archived as restore points on every partition")
            .atMost(BrokerTestCluster.TIMEOUT)
            .pollInterval(Duration.ofMillis(250))
            .until(
                () -> commonPoints(store).stream().filter(id -> id % 3_600_000 != 0).count() >= 3);

        List<BackupStatus> backups =
            store.list(BackupIdentifierWildcard.all(), PageRequest.first(100)).get().statuses();
        Set<Long> backupIds = new HashSet<>();
        backups.forEach(status -> backupIds.add(status.id().checkpointId()));
        assertThat(backupIds)
            .as("backups in the store: the hour's slot only, no marker")
            .hasSize(1)
            .allMatch(id -> id % 3_600_000 == 0);
      } finally {
        executor.shutdownNow();
      }
      double taken = 0;
      for (Broker broker : cluster.brokers()) {
        taken +=
            broker
                .meterRegistry()
                .get(BackupScheduleMetrics.MARKERS)
                .tag("result", "taken")
                .counter()
                .count();
      }
      assertThat(taken).isGreaterThanOrEqualTo(3);
    }
  }

  /** The restore point ids every partition's archive holds. */
  private static Set<Long> commonPoints(FilesystemBackupStore store) throws Exception {
    Set<Long> common = null;
    for (int partition = 1; partition <= PARTITIONS; partition++) {
      Set<Long> ids =
          new HashSet<>(new LogArchive(store.archive(), partition).pointIds(0, 1000).get());
      if (common == null) {
        common = ids;
      } else {
        common.retainAll(ids);
      }
    }
    return common;
  }
}
