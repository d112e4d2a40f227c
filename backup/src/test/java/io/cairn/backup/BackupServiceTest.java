package io.cairn.backup;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.CheckpointPattern;
import io.cairn.backupapi.ClusterBackupStatus;
import io.cairn.backupapi.ClusterBackupStatusCode;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupfs.FilesystemBackupStoreConfig;
import io.cairn.scheduler.SimClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cluster statuses aggregated from the partitions' backups in a real filesystem store. */
final class BackupServiceTest {

  @TempDir Path directory;
  private final ExecutorService executor = Executors.newFixedThreadPool(2);
  private FilesystemBackupStore store;
  private BackupService service;

  @BeforeEach
  void open() throws IOException {
    Files.createDirectories(directory.resolve("store"));
    store =
        FilesystemBackupStore.open(
            FilesystemBackupStoreConfig.of(directory.resolve("store")),
            new SimClock(1_700_000_000_000L),
            executor,
            executor,
            new SimpleMeterRegistry());
    service = new BackupService(store, 3);
  }

  @AfterEach
  void close() {
    store.close();
    executor.shutdownNow();
  }

  @Test
  void shouldAggregateTheStatusesOfEveryPartitionOfAnId() throws IOException {
    // given backup 5 completed on partitions 1 (twice, by two nodes) and 2, failed on 3 by an
    // old leader and completed there by the new one; backup 6 on partition 1 only; backup 7
    // completed on 1 and failed on 2
    save(0, 1, 5);
    store.markFailed(new BackupIdentifier(1, 1, 5), "leader changed").join();
    save(2, 2, 5);
    store.markFailed(new BackupIdentifier(0, 3, 5), "leader changed").join();
    save(1, 3, 5);
    save(0, 1, 6);
    save(0, 1, 7);
    store.markFailed(new BackupIdentifier(2, 2, 7), "disk full").join();
    save(0, 4, 7); // a partition the cluster no longer has

    // then
    assertThat(service.status(5).join().statusCode()).isEqualTo(ClusterBackupStatusCode.COMPLETED);
    ClusterBackupStatus incomplete = service.status(6).join();
    assertThat(incomplete.statusCode()).isEqualTo(ClusterBackupStatusCode.INCOMPLETE);
    assertThat(incomplete.reason())
        .hasValueSatisfying(r -> assertThat(r).contains("partitions 2, 3"));
    ClusterBackupStatus failed = service.status(7).join();
    assertThat(failed.statusCode()).isEqualTo(ClusterBackupStatusCode.FAILED);
    assertThat(failed.reason()).contains("partition 2 failed: disk full");
    assertThat(failed.partitions().get(1).statusCode()).isEqualTo(BackupStatusCode.COMPLETED);
    assertThat(service.status(8).join().statusCode())
        .isEqualTo(ClusterBackupStatusCode.DOES_NOT_EXIST);
    List<ClusterBackupStatus> all = service.list(CheckpointPattern.any()).join();
    assertThat(all)
        .extracting(ClusterBackupStatus::checkpointId, ClusterBackupStatus::statusCode)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(5L, ClusterBackupStatusCode.COMPLETED),
            org.assertj.core.groups.Tuple.tuple(6L, ClusterBackupStatusCode.INCOMPLETE),
            org.assertj.core.groups.Tuple.tuple(7L, ClusterBackupStatusCode.FAILED));
  }

  private void save(int node, int partition, long id) throws IOException {
    Path file = directory.resolve("segment-" + node + "-" + partition + "-" + id);
    Files.write(file, new byte[] {1, 2, 3});
    store
        .save(
            Backup.builder(new BackupIdentifier(node, partition, id))
                .checkpointPosition(10)
                .numberOfPartitions(partition)
                .brokerVersion("0.1.0")
                .stateDigest("0a")
                .segments(NamedFileSet.of(new BackupFile("1.log", file, 3)))
                .build())
        .join();
  }
}
