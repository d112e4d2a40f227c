package io.cairn.qa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cairn.backupstore.BackupEncryption;
import io.cairn.client.CairnClient;
import io.cairn.qa.support.Checkpoints;
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
  private static final String MASTER_KEYS =
      "qa-marker=" + java.util.Base64.getEncoder().encodeToString(new byte[32]).replace('A', 'M');

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
            .brokerSetting("backup.encryption.keys", MASTER_KEYS)
            .brokerSetting("backup.archive.enabled", "true")
            .brokerSetting("backup.archive.interval", "200ms")
            .brokerSetting("backup.schedule.interval", "1h")
            .brokerSetting("backup.schedule.markerInterval", "1s")
            .gatewayRequestTimeout(Duration.ofSeconds(5))
            .build()) {
      cluster.start().awaitHealthy();
      clusterId = cluster.config().clusterId();
      CairnClient client = cluster.client();
      accounts = LedgerOracle.accounts(cluster, "plainacct", 1);
      LedgerOracle.fund(client, accounts, 1_000);
      // an id ahead of the markers' (their slots' starts in epoch ms)
      backupId = Instant.now().toEpochMilli() + 2_000;
      Checkpoints.completedBackup(client, backupId, TIMEOUT);
      for (String account : accounts) {
        client.deposit(account, 250);
        expected.put(account, 1_250L);
      }
      // markers after the backup's id, taken after the deposits, archived on every partition
      Instant depositsDone = Instant.now();
      awaitMarkerArchivedAfter(store, backupId, depositsDone);
      afterDeposits = Instant.now();
    }

    try (var objects = Files.walk(store.resolve("archive"))) {
      List<Path> files = objects.filter(Files::isRegularFile).toList();
      assertThat(files).as("archive objects").isNotEmpty();
      for (Path file : files) {
        byte[] stored = Files.readAllBytes(file);
        assertThat(new String(stored, 0, 4, java.nio.charset.StandardCharsets.ISO_8859_1))
            .as("%s sealed", store.relativize(file))
            .isEqualTo("CAE1");
        assertThat(new String(stored, java.nio.charset.StandardCharsets.ISO_8859_1))
            .as("%s holds no plaintext", store.relativize(file))
            .doesNotContain("stateDigest")
            .doesNotContain("plainacct");
      }
    }
    Path refused = directory.resolve("without-keys");
    assertThatThrownBy(
            () ->
                ClusterRestore.restore(
                    ClusterRestore.filesystem(store, BackupEncryption.off()),
                    refused,
                    clusterId,
                    SHAPE,
                    new BackupSelector.ToTime(afterDeposits)))
        .hasMessageContaining("master key 'qa-marker'");

    Path restored = directory.resolve("restored");
    List<RestoreResult> results =
        ClusterRestore.restore(
            ClusterRestore.filesystem(store, encryption()),
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
      LedgerOracle.awaitBalances(client, expected, "the marker", TIMEOUT);
    }
  }

  /**
   * Waits until every partition's archive holds a restore point after backup {@code backupId} taken
   * at or after {@code time} (markers may be skipped while the machine is busy).
   */
  private static void awaitMarkerArchivedAfter(Path store, long backupId, Instant time) {
    java.util.concurrent.ExecutorService executor =
        java.util.concurrent.Executors.newFixedThreadPool(2);
    try (var fs = ClusterRestore.filesystem(store, encryption()).apply(executor, executor)) {
      await("a marker after the deposits archived on every partition")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(200))
          .until(
              () -> {
                for (int partition = 1; partition <= 3; partition++) {
                  io.cairn.backupapi.archive.LogArchive archive =
                      new io.cairn.backupapi.archive.LogArchive(fs.archive(), partition);
                  List<Long> ids = archive.pointIds(backupId, 1000).get();
                  if (ids.isEmpty()
                      || archive.point(ids.get(ids.size() - 1)).get().orElseThrow().timestamp()
                          < time.toEpochMilli()) {
                    return false;
                  }
                }
                return true;
              });
    } finally {
      executor.shutdownNow();
    }
  }

  private static BackupEncryption encryption() {
    return BackupEncryption.with(
        io.cairn.backupapi.content.MasterKeyRing.parse(MASTER_KEYS, "test keys"), "qa-marker");
  }
}
