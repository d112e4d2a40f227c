package io.cairn.broker.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.backup.BackupMetrics;
import io.cairn.backup.schedule.BackupScheduleMetrics;
import io.cairn.broker.Broker;
import io.cairn.broker.BrokerTestCluster;
import io.micrometer.core.instrument.Counter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.TreeSet;
import java.util.stream.Stream;
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
          .until(() -> deletions(cluster) >= 2 && taken(cluster) >= 5);
      assertKeepsOnlyTheNewest(store);

      int running = cluster.leaderReplica(1).partition().nodeId();
      double deletionsBefore = deletions(cluster);
      cluster.stop(running);
      await("retention going on after node " + running + " stopped")
          .atMost(BrokerTestCluster.TIMEOUT)
          .pollInterval(Duration.ofMillis(200))
          .until(() -> deletions(cluster) > deletionsBefore + 2);
      assertKeepsOnlyTheNewest(store);
      for (int partitionId = 1; partitionId <= PARTITIONS; partitionId++) {
        assertThat(deletedFromStore(cluster, partitionId))
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
                assertThat(backupIds(store, partitionId))
                    .as("backups of partition %d in the store", partitionId)
                    .hasSizeBetween(2, 4);
              }
            });
  }

  /** Backups whose deletion retention asked of every partition, over the running brokers. */
  private static double deletions(BrokerTestCluster cluster) {
    double sum = 0;
    for (Broker broker : cluster.brokers()) {
      sum +=
          broker.meterRegistry().get(BackupScheduleMetrics.RETENTION_DELETIONS).counter().count();
    }
    return sum;
  }

  private static double taken(BrokerTestCluster cluster) {
    double sum = 0;
    for (Broker broker : cluster.brokers()) {
      sum +=
          broker
              .meterRegistry()
              .get(BackupScheduleMetrics.RUNS)
              .tag("result", "taken")
              .counter()
              .count();
    }
    return sum;
  }

  private static double deletedFromStore(BrokerTestCluster cluster, int partitionId) {
    double sum = 0;
    for (Broker broker : cluster.brokers()) {
      sum +=
          broker
              .meterRegistry()
              .find(BackupMetrics.OPERATIONS)
              .tag("partition", Integer.toString(partitionId))
              .tag("operation", "delete")
              .tag("result", "success")
              .counters()
              .stream()
              .mapToDouble(Counter::count)
              .sum();
    }
    return sum;
  }

  private static TreeSet<Long> backupIds(Path store, int partitionId) {
    Path partition = store.resolve("manifests").resolve(Integer.toString(partitionId));
    TreeSet<Long> ids = new TreeSet<>();
    if (!Files.isDirectory(partition)) {
      return ids;
    }
    try (Stream<Path> children = Files.list(partition)) {
      children.forEach(child -> ids.add(Long.parseLong(child.getFileName().toString())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ids;
  }
}
