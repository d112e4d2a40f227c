package io.cairn.broker.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.backup.BackupMetrics;
import io.cairn.backup.schedule.BackupScheduleMetrics;
import io.cairn.broker.BrokerTestCluster;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers taking a backup every second with {@code backup.retention.maxCount: 2}: after each
 * scheduled run the leader of partition 1 asks every partition, through its log, to delete what the
 * policy gives up, and each partition's leader deletes its part from the store. The store holds the
 * newest backups only, also after the broker running the schedule stopped.
 */
final class BrokerBackupRetentionTest {

  private static final int PARTITIONS = 2;

  @Test
  void shouldKeepOnlyTheNewestBackupsThroughALeaderChange(@TempDir Path root) {
    try (BrokerTestCluster cluster =
        BrokerTestCluster.builder(root)
            .brokers(3)
            .partitions(PARTITIONS)
            .replicationFactor(3)
            .backupStore(root.resolve("backups"))
            .setting("backup.schedule.interval", "1s")
            .setting("backup.retention.maxCount", "2")
            .build()) {
      cluster.awaitReady();
      Path store = cluster.backups();
      await("backups deleted by retention")
          .atMost(BrokerTestCluster.TIMEOUT)
          .pollInterval(Duration.ofMillis(200))
          .until(
              () ->
                  ScheduledBackupsSeen.sum(cluster, BackupScheduleMetrics.RETENTION_DELETIONS) >= 2
                      && ScheduledBackupsSeen.runs(cluster, "taken") >= 5);
      assertKeepsOnlyTheNewest(store);

      int running = cluster.leaderReplica(1).partition().nodeId();
      double deletionsBefore =
          ScheduledBackupsSeen.sum(cluster, BackupScheduleMetrics.RETENTION_DELETIONS);
      cluster.stop(running);
      await("retention going on after node " + running + " stopped")
          .atMost(BrokerTestCluster.TIMEOUT)
          .pollInterval(Duration.ofMillis(200))
          .until(
              () ->
                  ScheduledBackupsSeen.sum(cluster, BackupScheduleMetrics.RETENTION_DELETIONS)
                      > deletionsBefore + 2);
      assertKeepsOnlyTheNewest(store);
      for (int partitionId = 1; partitionId <= PARTITIONS; partitionId++) {
        assertThat(
                ScheduledBackupsSeen.sum(
                    cluster,
                    BackupMetrics.OPERATIONS,
                    "partition",
                    Integer.toString(partitionId),
                    "operation",
                    "delete",
                    "result",
                    "success"))
            .as("backups of partition %d deleted by its leaders", partitionId)
            .isPositive();
      }
    }
  }

  /**
   * Every partition keeps at most the two completed backups the policy keeps, plus the newest ones
   * still being taken or deleted (a pass runs after each run; deletions finish in the background).
   */
  private static void assertKeepsOnlyTheNewest(Path store) {
    await("the store trimmed to the newest backups")
        .atMost(BrokerTestCluster.TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () -> {
              for (int partitionId = 1; partitionId <= PARTITIONS; partitionId++) {
                assertThat(ScheduledBackupsSeen.backupIds(store, partitionId))
                    .as("backups of partition %d in the store", partitionId)
                    .hasSizeBetween(2, 4);
              }
            });
  }
}
