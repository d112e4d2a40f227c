package io.cairn.qa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.backupstore.BackupEncryption;
import io.cairn.client.BackupState;
import io.cairn.client.CairnClient;
import io.cairn.qa.support.ClusterRestore;
import io.cairn.qa.support.LedgerOracle;
import io.cairn.restore.BackupSelector;
import io.cairn.restore.ClusterShape;
import io.cairn.restore.RestoreResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restore point taken by a marker ({@code backup.schedule.markerInterval}): a cluster archiving
 * its log takes a marker every second; after a backup and then deposits, a point-in-time restore to
 * a time after them lands on a marker — a {@code CHECKPOINT MARK}, not a {@code CREATE}, at the cut
 * — and the restored cluster passes its digest check and holds the deposits. (Restores to a marker
 * were refused before the cut and the digest check accepted {@code MARK}.)
 */
final class MarkerRestorePointIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final ClusterShape SHAPE = new ClusterShape(3, 3, 1);

  @TempDir Path directory;

  @Test
  void shouldRestoreToARestorePointTakenByAMarker() throws Exception {
    Path store = Files.createDirectories(directory.resolve("backups"));
    String clusterId;
    List<String> accounts;
    Map<String, Long> expected = new TreeMap<>();
    Instant afterDeposits;
    long backupId;
    try (EmbeddedCluster cluster =
        EmbeddedCluster.builder()
            .brokers(3)
            .partitions(3)
            .replicationFactor(1)
            .backupStore(BackupStoreSpec.filesystem(store))
            .dataDirectory(directory.resolve("source"))
            .brokerSetting("backup.archive.enabled", "true")
            .brokerSetting("backup.archive.interval", "200ms")
            .brokerSetting("backup.schedule.interval", "1h")
            .brokerSetting("backup.schedule.markerInterval", "1s")
            .gatewayRequestTimeout(Duration.ofSeconds(5))
            .build()) {
      cluster.start().awaitHealthy();
      clusterId = cluster.config().clusterId();
      CairnClient client = cluster.client();
      accounts = LedgerOracle.accounts(cluster, "marker", 1);
      LedgerOracle.fund(client, accounts, 1_000);
      // an id ahead of the markers' (their slots' starts in epoch ms)
      backupId = Instant.now().toEpochMilli() + 2_000;
      client.takeBackup(backupId);
      await("backup " + backupId + " COMPLETED")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(100))
          .ignoreExceptions()
          .until(() -> client.getBackup(backupId).state() == BackupState.COMPLETED);
      for (String account : accounts) {
        client.deposit(account, 250);
        expected.put(account, 1_250L);
      }
      // markers after the backup's id, taken after the deposits, archived on every partition
      Thread.sleep(Duration.ofSeconds(3).toMillis());
      afterDeposits = Instant.now();
      Thread.sleep(Duration.ofMillis(1_500).toMillis());
    }

    Path restored = directory.resolve("restored");
    List<RestoreResult> results =
        ClusterRestore.restore(
            ClusterRestore.filesystem(store, BackupEncryption.off()),
            restored,
            clusterId,
            SHAPE,
            new BackupSelector.ToTime(afterDeposits));
    assertThat(results).allSatisfy(r -> assertThat(r.backupId()).isEqualTo(backupId));
    assertThat(results)
        .allSatisfy(
            r ->
                assertThat(r.restorePoint())
                    .as("a marker's restore point after the backup")
                    .hasValueSatisfying(point -> assertThat(point).isGreaterThan(backupId)));

    try (EmbeddedCluster cluster =
        EmbeddedCluster.builder()
            .brokers(3)
            .partitions(3)
            .replicationFactor(1)
            .backupStore(
                BackupStoreSpec.filesystem(
                    Files.createDirectories(restored.resolve("own-backups"))))
            .dataDirectory(restored)
            .gatewayRequestTimeout(Duration.ofSeconds(5))
            .build()) {
      cluster.start().awaitHealthy();
      CairnClient client = cluster.client();
      await("the balances at the marker")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(200))
          .ignoreExceptions()
          .untilAsserted(
              () -> {
                Map<String, Long> balances = new TreeMap<>();
                for (String account : accounts) {
                  balances.put(account, client.getAccount(account).balance());
                }
                assertThat(balances).isEqualTo(expected);
              });
    }
  }
}
