package io.cairn.qa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.backupstore.BackupEncryption;
import io.cairn.client.BackupInfo;
import io.cairn.client.BackupSchedule;
import io.cairn.client.BackupState;
import io.cairn.client.CairnClient;
import io.cairn.qa.support.ClusterRestore;
import io.cairn.qa.support.LedgerOracle;
import io.cairn.qa.support.Phases;
import io.cairn.qa.support.Seeds;
import io.cairn.qa.support.TransferLoad;
import io.cairn.restore.BackupSelector;
import io.cairn.restore.ClusterShape;
import io.cairn.restore.RestoreResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backups that run themselves, under cross-partition transfer load: three brokers take a backup
 * every 2 s and keep the newest 3 ({@code backup.retention.maxCount}); the broker running the
 * schedule (the leader of partition 1) is killed halfway and the schedule goes on on the new
 * leader. At the end the store holds only the newest backups, and the newest completed one,
 * restored into a new cluster, passes every partition's digest check and conserves money once the
 * credits pending at its cut are re-sent.
 */
final class ScheduledBackupsIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final long INTERVAL_MILLIS = 2_000;

  @TempDir Path directory;

  @Test
  void shouldTakeRetainAndRestoreScheduledBackupsAcrossALeaderKill() throws Exception {
    long seed = Seeds.seed("ScheduledBackupsIT");
    Phases phases = new Phases("ScheduledBackupsIT");
    Path store = Files.createDirectories(directory.resolve("backups"));
    long deposited;
    String clusterId;
    long newestCompleted;
    try (EmbeddedCluster cluster = cluster(directory.resolve("source"), store)) {
      cluster.start().awaitHealthy();
      clusterId = cluster.config().clusterId();
      CairnClient client = cluster.client();
      List<String> accounts = LedgerOracle.accounts(cluster, "scheduled", 4);
      deposited = LedgerOracle.fund(client, accounts, 100_000).total();
      TransferLoad load = new TransferLoad(client, accounts, seed, 8, 100);
      load.start();
      try {
        awaitScheduledBackups(client, 3, "three scheduled backups under load");
        phases.mark("three scheduled backups");

        // the broker running the schedule dies; partition 1's new leader takes the schedule over
        int running = cluster.awaitLeader(1);
        long before = client.backupSchedule().lastRun().backupId();
        cluster.kill(running);
        int next = cluster.awaitNewLeader(1, running);
        await("the schedule running on node " + next)
            .atMost(TIMEOUT)
            .pollInterval(Duration.ofMillis(200))
            .ignoreExceptions()
            .until(
                () -> {
                  BackupSchedule schedule = client.backupSchedule();
                  return schedule.nodeId() == next && schedule.lastRun().backupId() > before;
                });
        phases.mark("schedule on node " + next + " after node " + running + " was killed");
        cluster.restart(running);
        awaitScheduledBackups(client, 3, "three more scheduled backups");
      } finally {
        load.stop(TIMEOUT);
      }
      System.out.println("[ScheduledBackupsIT] " + load);
      phases.mark("load stopped");

      // then retention keeps the store to the newest backups, each id a slot's start
      newestCompleted = awaitRetained(client);
      phases.mark("retained; newest completed " + newestCompleted);
    }

    // when the newest completed backup is restored into a new cluster
    List<RestoreResult> results =
        ClusterRestore.restore(
            ClusterRestore.filesystem(store, BackupEncryption.off()),
            directory.resolve("restored"),
            clusterId,
            new ClusterShape(3, 3, 3),
            BackupSelector.exact(newestCompleted));
    assertThat(results).hasSize(3);
    try (EmbeddedCluster restored = cluster(directory.resolve("restored"), store)) {
      restored.start().awaitHealthy();
      // then every partition passed its digest check (a mismatch fails it: never healthy) and the
      // balances add up to the deposits once the pending credits are re-sent
      LedgerOracle.awaitTotal(
          restored.client(),
          LedgerOracle.accounts(restored, "scheduled", 4),
          deposited,
          "the restored balances",
          TIMEOUT);
      phases.mark("restored backup " + newestCompleted + ", money conserved");
    }
  }

  private EmbeddedCluster cluster(Path dataDirectory, Path store) {
    return EmbeddedCluster.builder()
        .brokers(3)
        .partitions(3)
        .replicationFactor(3)
        .backupStore(BackupStoreSpec.filesystem(store))
        .dataDirectory(dataDirectory)
        .brokerSetting("backup.schedule.interval", "2s")
        .brokerSetting("backup.retention.maxCount", "3")
        .brokerSetting("processing.creditRetryInterval", "100ms")
        .brokerSetting("processing.creditRetryIntervalMax", "200ms")
        .gatewayRequestTimeout(Duration.ofSeconds(5))
        .build();
  }

  /** Waits until {@code count} more scheduled backups were taken than when called. */
  private static void awaitScheduledBackups(CairnClient client, int count, String what) {
    long[] first = {-1};
    await(what)
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .until(
            () -> {
              long last = client.backupSchedule().lastRun().backupId();
              if (first[0] < 0) {
                first[0] = last;
              }
              return last >= first[0] + count * INTERVAL_MILLIS;
            });
  }

  /**
   * Waits until the store holds at most the three completed backups retention keeps plus the ones
   * still running or being deleted, and returns the newest completed one.
   */
  private static long awaitRetained(CairnClient client) {
    long[] newest = {-1};
    await("retention to keep the newest backups")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              List<BackupInfo> backups = client.listAllBackups();
              List<BackupInfo> completed =
                  backups.stream().filter(b -> b.state() == BackupState.COMPLETED).toList();
              assertThat(backups).as("backups in the store").hasSizeLessThanOrEqualTo(6);
              assertThat(completed).as("completed backups").hasSizeBetween(1, 4);
              assertThat(backups)
                  .allSatisfy(b -> assertThat(b.backupId() % INTERVAL_MILLIS).isZero());
              newest[0] = completed.get(0).backupId();
            });
    return newest[0];
  }
}
