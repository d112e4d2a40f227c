package io.cairn.qa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.backupapi.content.MasterKeyRing;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.client.BackupInfo;
import io.cairn.client.BackupState;
import io.cairn.client.BackupTaken;
import io.cairn.client.CairnClient;
import io.cairn.client.PartitionBackupInfo;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backup taken under cross-partition transfer load, restored into a new cluster: the restored
 * balances add up to the deposits once the pending credits of the cut have been re-sent. Every
 * safeguard is on: TLS on every listener and between the nodes, authentication at the gateway and
 * encrypted backups.
 *
 * <p>The test makes the hard case of the consistent cut certain instead of a matter of timing (the
 * {@code cairn demo} run that restored 112 short hit it by chance): partition 2 (broker 1,
 * replication factor 1) takes the checkpoint only through a stamped command, and receives many
 * stamped commands at once before its processor has taken it. Broker 1 is cut from the other
 * brokers while transfers run (many debited on partition 2: their credits stay pending); what the
 * gateway sends broker 1 is held while backup 1 is taken, so partitions 1 and 3 take checkpoint 1
 * and partition 2 does not; then the cut heals: partitions 1 and 3 apply partition 2's credits
 * after their checkpoint and answer with {@code ACK}s stamped 1, which reach partition 2 as a
 * burst. The first makes it write {@code [CREATE(1), copy]}; the others are in its log before that
 * {@code CREATE} already and are deferred behind it too: commands the restore keeps, that took
 * effect after the cut.
 */
final class RestoreUnderLoadIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final Duration SETTLE = Duration.ofSeconds(30);
  private static final long BACKUP_ID = 1;
  private static final int PARTITION_TWO_BROKER = 1;

  @TempDir Path directory;

  @Test
  void shouldConserveMoneyInAClusterRestoredFromABackupTakenUnderCrossPartitionLoad()
      throws Exception {
    long seed = Seeds.seed("RestoreUnderLoadIT");
    Phases phases = new Phases("RestoreUnderLoadIT");
    Path store = Files.createDirectories(directory.resolve("backups"));
    security = SecuritySpec.local(directory.resolve("security"), java.time.Instant.now());
    Path source = directory.resolve("source");
    Path restored = directory.resolve("restored");
    long deposited;
    String clusterId;
    try (EmbeddedCluster cluster = cluster(source, store)) {
      cluster.start().awaitHealthy();
      clusterId = cluster.config().clusterId();
      assertThat(cluster.awaitLeader(2)).isEqualTo(PARTITION_TWO_BROKER);
      CairnClient client = cluster.client();
      phases.mark("cluster healthy");

      // given funded accounts on every partition and transfers between all of them
      List<String> accounts = LedgerOracle.accounts(cluster, "restore", 4);
      LedgerOracle oracle = LedgerOracle.fund(client, accounts, 100_000);
      deposited = oracle.total();
      TransferLoad load = new TransferLoad(client, accounts, seed, 12, 100);
      load.start();
      List<String> onPartitionTwo =
          accounts.stream().filter(a -> cluster.partitionOf(a) == 2).toList();
      List<String> elsewhere = accounts.stream().filter(a -> cluster.partitionOf(a) != 2).toList();
      TransferLoad fromPartitionTwo =
          TransferLoad.directed(client, onPartitionTwo, elsewhere, seed + 1, 8, 100);
      try {
        load.awaitAcknowledged(200, TIMEOUT);
        // and partition 2 cut from the other partitions: credits to and from it pile up pending,
        // many of them debited on partition 2
        cluster.partition(PARTITION_TWO_BROKER, 0);
        cluster.partition(PARTITION_TWO_BROKER, 2);
        load.awaitAcknowledged(load.acknowledged() + 100, TIMEOUT);
        fromPartitionTwo.start();
        fromPartitionTwo.awaitAcknowledged(100, TIMEOUT);
      } finally {
        load.stop(TIMEOUT);
        fromPartitionTwo.stop(TIMEOUT);
      }
      phases.mark("load, partition 2 cut off");

      // when backup 1 is taken while the gateway's CREATE to partition 2 is held back
      cluster.holdLink(EmbeddedCluster.GATEWAY_NODE_ID, PARTITION_TWO_BROKER);
      CompletableFuture<BackupTaken> take = client.takeBackupAsync(BACKUP_ID);
      await("partitions 1 and 3 to take checkpoint " + BACKUP_ID)
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(20))
          .until(() -> partitionBackupExists(store, 1) && partitionBackupExists(store, 3));
      assertThat(partitionBackupExists(store, 2)).isFalse();
      // and the cut heals: partitions 1 and 3 apply partition 2's credits after their checkpoint
      // and acknowledge them stamped with its id, partition 2 gets those ACKs in a burst
      cluster.heal();
      await("partition 2 to take checkpoint " + BACKUP_ID + " through stamped commands")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(20))
          .until(() -> partitionBackupExists(store, 2));
      cluster.releaseLink(EmbeddedCluster.GATEWAY_NODE_ID, PARTITION_TWO_BROKER);
      // the call may have timed out on partition 2 (held): the backup's status is what counts
      String takeOutcome =
          take.handle((t, e) -> e == null ? "taken" : "answered " + e.getMessage())
              .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      phases.mark("backup " + BACKUP_ID + " " + takeOutcome);

      // then the backup completes on every partition, and the running cluster conserves money
      BackupInfo completed = awaitCompleted(client);
      assertThat(completed.partitions())
          .extracting(PartitionBackupInfo::partitionId)
          .containsExactly(1, 2, 3);
      System.out.println(
          "[RestoreUnderLoadIT] " + load + "; from partition 2: " + fromPartitionTwo);
      LedgerOracle.awaitTotal(client, accounts, deposited, "the running cluster", SETTLE);
      phases.mark("backup completed, money conserved in the running cluster");
    }

    // when the backup is restored into new data directories and that cluster starts
    List<RestoreResult> results =
        ClusterRestore.restore(
            ClusterRestore.filesystem(
                store,
                BackupEncryption.with(MasterKeyRing.parse(MASTER_KEYS, "test keys"), "qa-fs")),
            restored,
            clusterId,
            new ClusterShape(3, 3, 1),
            BackupSelector.exact(BACKUP_ID));
    assertThat(results).hasSize(3);
    phases.mark("restored");
    try (EmbeddedCluster cluster = cluster(restored, store)) {
      cluster.start().awaitHealthy();
      phases.mark("restored cluster healthy");

      // then once the credits pending at the cut are re-sent, the balances add up to the deposits
      LedgerOracle.awaitTotal(
          cluster.client(), accountsOf(cluster), deposited, "the restored cluster", SETTLE);
      phases.mark("money conserved in the restored cluster");
    }
    phases.mark("closed");
  }

  // ---- the clusters ----------------------------------------------------------------------------

  private SecuritySpec security;

  private static final String MASTER_KEYS =
      "qa-fs=" + java.util.Base64.getEncoder().encodeToString(new byte[32]).replace('A', 'F');

  private EmbeddedCluster cluster(Path dataDirectory, Path store) {
    return EmbeddedCluster.builder()
        .security(security)
        .brokerSetting("backup.encryption.keys", MASTER_KEYS)
        .brokers(3)
        .partitions(3)
        .replicationFactor(1) // partition p on broker p-1: the faults hit one partition each
        .backupStore(BackupStoreSpec.filesystem(store))
        .dataDirectory(dataDirectory)
        .brokerSetting("processing.creditRetryInterval", "100ms")
        .brokerSetting("processing.creditRetryIntervalMax", "200ms")
        .gatewayRequestTimeout(Duration.ofSeconds(5))
        .build();
  }

  private static List<String> accountsOf(EmbeddedCluster cluster) {
    return LedgerOracle.accounts(cluster, "restore", 4);
  }

  // ---- checks ----------------------------------------------------------------------------------

  private static boolean partitionBackupExists(Path store, int partitionId) {
    return Files.isDirectory(
        store.resolve("manifests").resolve(Integer.toString(partitionId)).resolve("" + BACKUP_ID));
  }

  private static BackupInfo awaitCompleted(CairnClient client) {
    BackupInfo[] last = new BackupInfo[1];
    await("backup " + BACKUP_ID + " COMPLETED on every partition")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(100))
        .ignoreExceptions()
        .until(
            () -> {
              last[0] = client.getBackup(BACKUP_ID);
              assertThat(last[0].state()).isNotEqualTo(BackupState.FAILED);
              return last[0].state() == BackupState.COMPLETED;
            });
    return last[0];
  }
}
