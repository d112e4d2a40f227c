package io.cairn.qa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.client.BackupInfo;
import io.cairn.client.BackupState;
import io.cairn.client.BackupTaken;
import io.cairn.client.CairnClient;
import io.cairn.client.ErrorCode;
import io.cairn.client.PartitionBackupInfo;
import io.cairn.qa.support.Calls;
import io.cairn.qa.support.Checkpoints;
import io.cairn.qa.support.LedgerOracle;
import io.cairn.qa.support.Phases;
import io.cairn.qa.support.S3ProxyProcess;
import io.cairn.qa.support.Seeds;
import io.cairn.qa.support.TransferLoad;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The leader of a partition is killed while it uploads that partition's backup: the backup must end
 * FAILED with the reason, and the next backup id must complete on the new leaders. The store is S3
 * (S3Proxy on loopback) with a bytes/s limit, so an upload lasts seconds and the kill reliably
 * lands in the middle of it; transfers run until the backup's upload has begun.
 */
// mostly waits for uploads throttled to 64 KB/s: it runs beside the other classes
@Execution(ExecutionMode.CONCURRENT)
final class LeaderKillDuringBackupIT {

  private static final Duration TIMEOUT = Duration.ofSeconds(90);

  /**
   * About 0.3 MB of log per partition after 1,000 transfers: 4+ s per upload at this rate, the
   * store's lowest. At twice the rate the upload could be about to complete when the victim's
   * leadership ended, and its completion then raced the FAILED marks of the victim and of the new
   * leader at the server; a completion that overlapped a mark was seen to overwrite it (S3Proxy's
   * If-Match check and write are evidently not one step).
   */
  private static final String UPLOAD_RATE = "64KB";

  @Test
  void shouldFailTheBackupWhoseLeaderIsKilledAndCompleteTheNextId(@TempDir Path directory)
      throws Exception {
    long seed = Seeds.seed("LeaderKillDuringBackupIT");
    Phases phases = new Phases("LeaderKillDuringBackupIT");
    try (S3ProxyProcess s3 = S3ProxyProcess.start(directory.resolve("s3"));
        EmbeddedCluster cluster =
            EmbeddedCluster.builder()
                .brokers(3)
                .partitions(3)
                .replicationFactor(3)
                .backupStore(BackupStoreSpec.s3(withRate(s3.storeSettings())))
                // the S3 store runs status queries on the same threads as its throttled uploads
                .brokerSetting("backup.uploadConcurrency", "4")
                .dataDirectory(directory.resolve("cluster"))
                .build()) {
      phases.mark("S3Proxy started");
      cluster.start().awaitHealthy();
      CairnClient client = cluster.client();
      phases.mark("cluster healthy");

      // given state on every partition and transfers running
      List<String> accounts = LedgerOracle.accounts(cluster, "kill", 3);
      LedgerOracle oracle = LedgerOracle.fund(client, accounts, 1_000_000);
      TransferLoad load = new TransferLoad(client, accounts, seed, 12, 100);
      load.start();
      load.awaitAcknowledged(1_000, TIMEOUT);
      phases.mark("1,000 transfers");

      // when backup 1 is taken and the leader uploading one partition's backup is killed
      BackupTaken taken = client.takeBackup(1);
      // (every partition at checkpoint 1: written by this request, or through a stamped credit)
      Checkpoints.assertTakenOnEveryPartition(taken, 1, 3);
      PartitionBackupInfo uploading = awaitUploading(client, 1);
      int victim = uploading.nodeId();
      assertThat(cluster.leaderOf(uploading.partitionId())).hasValue(victim);
      // killed at once: anything done first (such as waiting for the load's transfers in flight)
      // could outlast the upload on a slow machine
      cluster.kill(victim);
      phases.mark("backup 1 uploading, node " + victim + " killed");
      // (the load stops here so that the next backup, a full one at the limited rate, stays short)
      load.stop(TIMEOUT);

      // then that partition's backup ends FAILED with the reason, and so does the cluster's
      BackupInfo failed = awaitPartitionFailed(client, 1, uploading.partitionId());
      assertThat(failed.state()).isEqualTo(BackupState.FAILED);
      assertThat(failed.failureReason()).isNotBlank();
      PartitionBackupInfo failedPartition = partition(failed, uploading.partitionId());
      assertThat(failedPartition.failureReason()).startsWith("LEADER_CHANGED: ");
      assertThat(failedPartition.nodeId()).isEqualTo(victim);
      phases.mark("backup 1 FAILED");

      // and the next id completes on every partition, led by the survivors
      cluster.awaitLeaders();
      int newLeader = cluster.awaitNewLeader(uploading.partitionId(), victim);
      assertThat(newLeader).isNotEqualTo(victim);
      client.takeBackup(2);
      BackupInfo next = awaitCompleted(client, 2);
      phases.mark("backup 2 COMPLETED");
      assertThat(next.partitions())
          .extracting(PartitionBackupInfo::partitionId)
          .containsExactly(1, 2, 3);
      assertThat(next.partitions())
          .allSatisfy(
              p -> {
                assertThat(p.state()).isEqualTo(BackupState.COMPLETED);
                assertThat(p.nodeId()).isNotEqualTo(victim);
                assertThat(p.sizeBytes()).isPositive();
              });
      // backup 1 stays FAILED, and a lower id than 2 is refused
      assertThat(client.getBackup(1).state()).isEqualTo(BackupState.FAILED);
      assertThat(
              Calls.clientFailure(ErrorCode.ALREADY_EXISTS, () -> client.takeBackup(1))
                  .getMessage())
          .contains("2");

      // and no money was made or lost, no acknowledged transfer lost
      System.out.println(
          "[LeaderKillDuringBackupIT] killed node "
              + victim
              + " leading partition "
              + uploading.partitionId()
              + "; "
              + load);
      oracle.awaitConserved(client, load, TIMEOUT);
      phases.mark("money conserved");
    }
  }

  private static Map<String, String> withRate(Map<String, String> settings) {
    Map<String, String> limited = new TreeMap<>(settings);
    limited.put("maxBytesPerSecond", UPLOAD_RATE);
    return limited;
  }

  /** Waits until some partition's backup {@code id} is IN_PROGRESS in the store. */
  private static PartitionBackupInfo awaitUploading(CairnClient client, long id) {
    AtomicReference<PartitionBackupInfo> uploading = new AtomicReference<>();
    await("a partition of backup " + id + " IN_PROGRESS")
        .atMost(TIMEOUT)
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(20))
        .ignoreExceptionsMatching(Calls::notYet)
        .until(
            () -> {
              Optional<PartitionBackupInfo> running =
                  client.getBackup(id).partitions().stream()
                      .filter(p -> p.state() == BackupState.IN_PROGRESS)
                      .findFirst();
              running.ifPresent(uploading::set);
              return running.isPresent();
            });
    return uploading.get();
  }

  private static BackupInfo awaitPartitionFailed(CairnClient client, long id, int partitionId) {
    AtomicReference<BackupInfo> info = new AtomicReference<>();
    await("partition " + partitionId + "'s backup " + id + " FAILED")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(100))
        .ignoreExceptionsMatching(Calls::notYet)
        .until(
            () -> {
              info.set(client.getBackup(id));
              return info.get().partitions().stream()
                      .anyMatch(
                          p -> p.partitionId() == partitionId && p.state() == BackupState.FAILED)
                  && info.get().state() == BackupState.FAILED;
            });
    return info.get();
  }

  private static BackupInfo awaitCompleted(CairnClient client, long id) {
    AtomicReference<BackupInfo> info = new AtomicReference<>();
    await("backup " + id + " COMPLETED")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptionsMatching(Calls::notYet)
        .until(
            () -> {
              info.set(client.getBackup(id));
              assertThat(info.get().state()).isNotEqualTo(BackupState.FAILED);
              return info.get().state() == BackupState.COMPLETED;
            });
    return info.get();
  }

  private static PartitionBackupInfo partition(BackupInfo info, int partitionId) {
    return info.partitions().stream()
        .filter(p -> p.partitionId() == partitionId)
        .findFirst()
        .orElseThrow();
  }
}
