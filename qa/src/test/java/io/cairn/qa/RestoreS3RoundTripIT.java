package io.cairn.qa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cairn.backup.BackupMetrics;
import io.cairn.backup.BackupMetrics.RestoreCheckResult;
import io.cairn.backupapi.content.MasterKeyRing;
import io.cairn.backups3.S3BackupStore;
import io.cairn.backups3.S3BackupStoreConfig;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.client.BackupInfo;
import io.cairn.client.BackupState;
import io.cairn.client.BackupTaken;
import io.cairn.client.CairnClient;
import io.cairn.client.ErrorCode;
import io.cairn.client.PartitionBackupInfo;
import io.cairn.qa.support.Calls;
import io.cairn.qa.support.Checkpoints;
import io.cairn.qa.support.ClusterRestore;
import io.cairn.qa.support.LedgerOracle;
import io.cairn.qa.support.Phases;
import io.cairn.qa.support.S3ProxyProcess;
import io.cairn.qa.support.Seeds;
import io.cairn.qa.support.TransferLoad;
import io.cairn.restore.BackupSelector;
import io.cairn.restore.ClusterShape;
import io.cairn.restore.RestoreResult;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The S3 round trip (S3Proxy on loopback), with every safeguard on — TLS on every listener and
 * between the nodes, authentication at the gateway, client-side encryption: a backup taken while
 * transfers run across every partition of a replicated cluster, restored from S3 into new data
 * directories, and a cluster started on them. The restored cluster holds the state of the cut:
 * money is conserved once the credits pending at the cut are re-sent, every partition's leader
 * reproduced the backup's state digest, accounts outside the load have exactly their balances at
 * the cut, and what was written after the cut (a new account, a deposit) is not there. The stored
 * backup is encrypted: its manifests name the master key, and a store without that key refuses to
 * restore it.
 */
final class RestoreS3RoundTripIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final Duration SETTLE = Duration.ofSeconds(30);
  private static final long BACKUP_ID = 1;
  private static final int BROKERS = 3;
  private static final int PARTITIONS = 3;
  private static final int REPLICATION_FACTOR = 3;
  private static final long LOADED_FUNDS = 100_000;
  private static final long QUIET_FUNDS = 7_000;
  private static final String MASTER_KEYS =
      "qa-1=" + java.util.Base64.getEncoder().encodeToString(new byte[32]).replace('A', 'Q');

  @TempDir Path directory;

  @Test
  void shouldRestoreTheStateOfTheCutFromAnS3BackupTakenUnderLoad() throws Exception {
    long seed = Seeds.seed("RestoreS3RoundTripIT");
    Phases phases = new Phases("RestoreS3RoundTripIT");
    try (S3ProxyProcess s3 = S3ProxyProcess.start(directory.resolve("s3"))) {
      phases.mark("S3Proxy started");
      Path restored = directory.resolve("restored");
      long deposited;
      String clusterId;
      List<String> loaded;
      Map<String, Long> quietAtCut = new TreeMap<>();
      String createdAfterCut = "after-cut";
      SecuritySpec security =
          SecuritySpec.local(directory.resolve("security"), java.time.Instant.now());
      try (EmbeddedCluster cluster = cluster(directory.resolve("source"), s3, security)) {
        cluster.start().awaitHealthy();
        clusterId = cluster.config().clusterId();
        CairnClient client = cluster.client();
        phases.mark("cluster healthy");

        // given funded accounts on every partition, some under transfer load and some quiet
        loaded = LedgerOracle.accounts(cluster, "s3-restore", 3);
        LedgerOracle oracle = LedgerOracle.fund(client, loaded, LOADED_FUNDS);
        deposited = oracle.total();
        for (String quiet : LedgerOracle.accounts(cluster, "s3-quiet", 1)) {
          long amount = QUIET_FUNDS + quietAtCut.size();
          client.createAccount(quiet);
          client.deposit(quiet, amount);
          quietAtCut.put(quiet, amount);
        }
        TransferLoad load = new TransferLoad(client, loaded, seed, 8, 100);
        load.start();
        try {
          load.awaitAcknowledged(300, TIMEOUT);
          phases.mark("300 transfers");

          // when backup 1 is taken while the transfers run
          BackupTaken taken = client.takeBackup(BACKUP_ID);
          // (every partition at the checkpoint: written by this request, or through a stamped
          // credit that came first)
          Checkpoints.assertTakenOnEveryPartition(taken, BACKUP_ID, 3);
          // and more is written after the cut: transfers, a new account, a deposit
          load.awaitAcknowledged(load.acknowledged() + 100, TIMEOUT);
          client.createAccount(createdAfterCut);
          client.deposit(createdAfterCut, 5);
          client.deposit(quietAtCut.keySet().iterator().next(), 1);
        } finally {
          load.stop(TIMEOUT);
        }
        phases.mark("backup " + BACKUP_ID + " taken under load; " + load);

        // then the backup completes on every partition, and the running cluster conserves money
        BackupInfo completed = awaitCompleted(client);
        assertThat(completed.partitions())
            .extracting(PartitionBackupInfo::partitionId)
            .containsExactly(1, 2, 3);
        assertThat(completed.partitions())
            .allSatisfy(p -> assertThat(p.stateDigest()).isNotBlank());
        oracle.awaitConserved(client, load, SETTLE);
        phases.mark("backup COMPLETED, money conserved in the running cluster");
      }
      phases.mark("source cluster closed");

      // then the stored backup is encrypted: without the master key it cannot be restored
      assertThatThrownBy(
              () -> restore(s3, directory.resolve("no-key"), clusterId, BackupEncryption.off()))
          .hasMessageContaining("'qa-1'");

      // when every node is restored from S3 into new data directories and a cluster starts there
      List<RestoreResult> results =
          restore(
              s3,
              restored,
              clusterId,
              BackupEncryption.with(MasterKeyRing.parse(MASTER_KEYS, "test keys"), "qa-1"));
      assertThat(results).hasSize(BROKERS);
      assertThat(results)
          .allSatisfy(
              r -> {
                assertThat(r.isComplete()).isTrue();
                assertThat(r.partitions())
                    .hasSize(PARTITIONS); // RF 3: every node hosts every partition
                assertThat(r.totalBytes()).isPositive();
              });
      phases.mark("restored from S3");

      try (EmbeddedCluster cluster = cluster(restored, s3, security)) {
        cluster.start().awaitHealthy();
        CairnClient client = cluster.client();
        phases.mark("restored cluster healthy");

        // then once the credits pending at the cut are re-sent, the balances add up to the deposits
        LedgerOracle.awaitTotal(client, loaded, deposited, "the restored cluster", SETTLE);
        // and every partition's leader reproduced the backup's state digest, none differed
        awaitDigestsMatched(cluster);
        // and the accounts outside the load have their balances of the cut, not later ones
        for (Map.Entry<String, Long> quiet : quietAtCut.entrySet()) {
          assertThat(client.getAccount(quiet.getKey()).balance())
              .as("balance of %s at the cut", quiet.getKey())
              .isEqualTo(quiet.getValue());
        }
        // and what was created after the cut does not exist
        Calls.clientFailure(ErrorCode.NOT_FOUND, () -> client.getAccount(createdAfterCut));
        phases.mark("state of the cut checked in the restored cluster");
      }
      phases.mark("closed");
    }
  }

  // ---- the clusters ----------------------------------------------------------------------------

  private static EmbeddedCluster cluster(
      Path dataDirectory, S3ProxyProcess s3, SecuritySpec security) {
    return EmbeddedCluster.builder()
        .brokers(BROKERS)
        .partitions(PARTITIONS)
        .replicationFactor(REPLICATION_FACTOR)
        .backupStore(BackupStoreSpec.s3(s3.storeSettings()))
        .brokerSetting("backup.encryption.keys", MASTER_KEYS)
        .security(security)
        .dataDirectory(dataDirectory)
        .brokerSetting("processing.creditRetryInterval", "100ms")
        .brokerSetting("processing.creditRetryIntervalMax", "200ms")
        .gatewayRequestTimeout(Duration.ofSeconds(5))
        .build();
  }

  /**
   * Restores every node from the S3 store, opened as {@code cairn cluster restore} opens it: the
   * brokers' {@code backup.s3.*} settings, threads of its own.
   */
  private static List<RestoreResult> restore(
      S3ProxyProcess s3, Path restored, String clusterId, BackupEncryption encryption) {
    return ClusterRestore.restore(
        (transfers, queries) ->
            S3BackupStore.open(
                S3BackupStoreConfig.fromProperties(s3.storeSettings()),
                encryption,
                Clock.system(),
                transfers,
                queries,
                new SimpleMeterRegistry()),
        restored,
        clusterId,
        new ClusterShape(BROKERS, PARTITIONS, REPLICATION_FACTOR),
        BackupSelector.exact(BACKUP_ID));
  }

  // ---- checks ----------------------------------------------------------------------------------

  private static BackupInfo awaitCompleted(CairnClient client) {
    AtomicReference<BackupInfo> info = new AtomicReference<>();
    await("backup " + BACKUP_ID + " COMPLETED on every partition")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(100))
        .ignoreExceptionsMatching(Calls::notYet)
        .until(
            () -> {
              info.set(client.getBackup(BACKUP_ID));
              assertThat(info.get().state()).isNotEqualTo(BackupState.FAILED);
              return info.get().state() == BackupState.COMPLETED;
            });
    return info.get();
  }

  /**
   * Waits until some broker counted a matching state digest check for every partition ({@code
   * cairn.backup.restore.checks}), and asserts no broker counted a mismatch or an invalid check.
   */
  private static void awaitDigestsMatched(EmbeddedCluster cluster) {
    await("every restored partition's digest check to match")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(100))
        .untilAsserted(
            () -> {
              for (int partition = 1; partition <= PARTITIONS; partition++) {
                assertThat(restoreChecks(cluster, partition, RestoreCheckResult.MISMATCH))
                    .as("digest mismatches of partition %d", partition)
                    .isZero();
                assertThat(restoreChecks(cluster, partition, RestoreCheckResult.INVALID))
                    .as("invalid digest checks of partition %d", partition)
                    .isZero();
                assertThat(restoreChecks(cluster, partition, RestoreCheckResult.MATCH))
                    .as("matching digest checks of partition %d", partition)
                    .isGreaterThanOrEqualTo(1);
              }
            });
  }

  private static double restoreChecks(
      EmbeddedCluster cluster, int partitionId, RestoreCheckResult result) {
    double count = 0;
    for (int node : cluster.runningBrokerIds()) {
      Counter counter =
          cluster
              .broker(node)
              .meterRegistry()
              .find(BackupMetrics.RESTORE_CHECKS)
              .tag("partition", Integer.toString(partitionId))
              .tag("result", result.name().toLowerCase(Locale.ROOT))
              .counter();
      count += counter == null ? 0 : counter.count();
    }
    return count;
  }
}
