package io.cairn.qa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.backupapi.archive.LogArchive;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.client.CairnClient;
import io.cairn.qa.support.Checkpoints;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The continuous log archive under cross-partition transfer load while partition leaders are
 * killed, on an embedded cluster of three brokers with replication 3: every partition leader
 * archives every 200 ms and markers (restore points) are taken every second. One backup first; then
 * two rounds, each killing the leader of another partition in the middle of the load (the new
 * leader continues the archive's chain from the committed position; in the first round the killed
 * broker also runs the markers' schedule) and restarting it. After each round the load stops, the
 * pending credits settle (money conserved, every balance within what the acknowledged and unknown
 * transfers allow) and a marker after that is archived on every partition. Each round's moment,
 * restored by time into a fresh cluster from the one backup and the archive, passes every
 * partition's digest check and holds exactly that round's balances.
 */
final class ArchiveUnderLeaderKillsIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final ClusterShape SHAPE = new ClusterShape(3, 3, 3);

  @TempDir Path directory;

  @Test
  void shouldRestoreEachMomentAfterLeaderKillsUnderLoad() throws Exception {
    long seed = Seeds.seed("ArchiveUnderLeaderKillsIT");
    Phases phases = new Phases("ArchiveUnderLeaderKillsIT");
    Path store = Files.createDirectories(directory.resolve("backups"));
    String clusterId;
    long backupId;
    List<Instant> moments = new ArrayList<>();
    List<Map<String, Long>> balances = new ArrayList<>();
    try (EmbeddedCluster cluster = cluster(directory.resolve("source"), store, true)) {
      cluster.start().awaitHealthy();
      clusterId = cluster.config().clusterId();
      CairnClient client = cluster.client();
      List<String> accounts = LedgerOracle.accounts(cluster, "kills", 2);
      LedgerOracle oracle = LedgerOracle.fund(client, accounts, 10_000);
      // an id ahead of the markers' (their slots' starts in epoch ms)
      backupId = Instant.now().toEpochMilli() + 2_000;
      Checkpoints.completedBackup(client, backupId, TIMEOUT);
      phases.mark("backup " + backupId);

      for (int round = 1; round <= 3; round++) {
        TransferLoad load = new TransferLoad(client, accounts, seed + round, 8, 50);
        load.start();
        try {
          load.awaitAcknowledged(60, TIMEOUT);
          int partition = round;
          int leader = cluster.awaitLeader(partition);
          cluster.kill(leader);
          int next = cluster.awaitNewLeader(partition, leader);
          phases.mark(
              "round "
                  + round
                  + ": partition "
                  + partition
                  + "'s leader "
                  + leader
                  + " killed, "
                  + next
                  + " leads");
          cluster.restart(leader);
          load.awaitAcknowledged(load.acknowledged() + 60, TIMEOUT);
        } finally {
          load.stop(TIMEOUT);
        }
        oracle.awaitConserved(client, load, TIMEOUT);
        Map<String, Long> settled = oracle.balances(client);
        oracle = LedgerOracle.settledAt(settled);
        Instant quiet = Instant.now();
        // a marker taken after the load settled, and after the backup in id order (its id, ahead
        // of the clock when taken, may still lie ahead of a quick first round)
        awaitCommonPointFrom(store, Math.max(quiet.toEpochMilli(), backupId + 1));
        moments.add(Instant.now());
        balances.add(settled);
        phases.mark("round " + round + " settled and archived after " + load);
      }
    }

    for (int round = 1; round <= 3; round++) {
      Path restored = directory.resolve("restored-" + round);
      List<RestoreResult> results =
          ClusterRestore.restore(
              ClusterRestore.filesystem(store, BackupEncryption.off()),
              restored,
              clusterId,
              SHAPE,
              new BackupSelector.ToTime(moments.get(round - 1)));
      long base = backupId;
      assertThat(results).allSatisfy(r -> assertThat(r.backupId()).isEqualTo(base));
      assertThat(results)
          .allSatisfy(
              r ->
                  assertThat(r.restorePoint())
                      .hasValueSatisfying(point -> assertThat(point).isGreaterThan(base)));
      // the restored cluster writes into a store of its own; its partitions check the digest
      // recorded at the point before they serve (a mismatch: never healthy)
      try (EmbeddedCluster cluster =
          cluster(restored, Files.createDirectories(restored.resolve("own-backups")), false)) {
        cluster.start().awaitHealthy();
        LedgerOracle.awaitBalances(
            cluster.client(), balances.get(round - 1), "round " + round + "'s moment", TIMEOUT);
      }
      phases.mark("round " + round + "'s moment restored: digests checked, balances exact");
    }
  }

  /**
   * Waits until a marker with an id at or after {@code fromMillis} — taken after that moment — is
   * archived on every partition.
   */
  private static void awaitCommonPointFrom(Path store, long fromMillis) {
    ExecutorService executor = Executors.newFixedThreadPool(2);
    try (var fs =
        ClusterRestore.filesystem(store, BackupEncryption.off()).apply(executor, executor)) {
      await("a marker after " + Instant.ofEpochMilli(fromMillis) + " archived on every partition")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(200))
          .until(
              () -> {
                Set<Long> common = null;
                for (int partition = 1; partition <= SHAPE.partitionCount(); partition++) {
                  Set<Long> ids =
                      new HashSet<>(
                          new LogArchive(fs.archive(), partition)
                              .pointIds(fromMillis - 1, 1000)
                              .get());
                  if (common == null) {
                    common = ids;
                  } else {
                    common.retainAll(ids);
                  }
                }
                return common != null && !common.isEmpty();
              });
    } finally {
      executor.shutdownNow();
    }
  }

  private static EmbeddedCluster cluster(Path dataDirectory, Path store, boolean archive) {
    EmbeddedClusterBuilder builder =
        EmbeddedCluster.builder()
            .brokers(3)
            .partitions(3)
            .replicationFactor(3)
            .backupStore(BackupStoreSpec.filesystem(store))
            .dataDirectory(dataDirectory)
            .brokerSetting("processing.creditRetryInterval", "100ms")
            .brokerSetting("processing.creditRetryIntervalMax", "200ms")
            .gatewayRequestTimeout(Duration.ofSeconds(5));
    if (archive) {
      builder
          .brokerSetting("backup.archive.enabled", "true")
          .brokerSetting("backup.archive.interval", "200ms")
          .brokerSetting("backup.schedule.interval", "1h")
          .brokerSetting("backup.schedule.markerInterval", "1s");
    }
    return builder.build();
  }
}
