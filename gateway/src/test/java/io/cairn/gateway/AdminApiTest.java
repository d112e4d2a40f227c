package io.cairn.gateway;

import static io.cairn.gateway.LedgerApiTest.assertStatus;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.gateway.v1.Backup;
import io.cairn.gateway.v1.BackupState;
import io.cairn.gateway.v1.DeleteBackupRequest;
import io.cairn.gateway.v1.ExportingResponse;
import io.cairn.gateway.v1.GetBackupRequest;
import io.cairn.gateway.v1.GetTopologyRequest;
import io.cairn.gateway.v1.Health;
import io.cairn.gateway.v1.ListBackupsRequest;
import io.cairn.gateway.v1.ListBackupsResponse;
import io.cairn.gateway.v1.PartitionBackup;
import io.cairn.gateway.v1.PartitionCheckpoint;
import io.cairn.gateway.v1.PauseExportingRequest;
import io.cairn.gateway.v1.ReplicaRole;
import io.cairn.gateway.v1.ResumeExportingRequest;
import io.cairn.gateway.v1.TakeBackupRequest;
import io.cairn.gateway.v1.TakeBackupResponse;
import io.cairn.gateway.v1.Topology;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.ResponseStatus;
import io.grpc.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The admin API over real gRPC against fake brokers: backups, exporting, topology. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class AdminApiTest {
  private GatewayHarness harness;

  @BeforeAll
  void start() {
    harness = new GatewayHarness().awaitReady();
  }

  @AfterAll
  void stop() {
    harness.close();
  }

  @BeforeEach
  void reset() {
    harness.reset();
  }

  private TakeBackupResponse take(long id) {
    return harness.admin.takeBackup(TakeBackupRequest.newBuilder().setBackupId(id).build());
  }

  private Backup get(long id) {
    return harness.admin.getBackup(GetBackupRequest.newBuilder().setBackupId(id).build());
  }

  @Test
  void shouldTakeABackupOnEveryPartitionAndReportItCompleted() {
    TakeBackupResponse taken = take(5);

    assertThat(taken.getBackupId()).isEqualTo(5);
    assertThat(taken.getPartitionsList())
        .extracting(PartitionCheckpoint::getPartitionId)
        .containsExactly(1, 2, 3);
    assertThat(taken.getPartitionsList())
        .allSatisfy(
            p -> {
              assertThat(p.getCreated()).isTrue();
              assertThat(p.getCheckpointId()).isEqualTo(5);
              assertThat(p.getCheckpointPosition()).isPositive();
            });
    for (int p = 1; p <= 3; p++) {
      assertThat(harness.cluster.checkpoint(p)).isEqualTo(5);
    }

    Backup backup = get(5);
    assertThat(backup.getState()).isEqualTo(BackupState.BACKUP_STATE_COMPLETED);
    assertThat(backup.getFailureReason()).isEmpty();
    assertThat(backup.getPartitionsList()).hasSize(3);
    PartitionBackup partition2 = backup.getPartitions(1);
    assertThat(partition2.getPartitionId()).isEqualTo(2);
    assertThat(partition2.getNodeId()).isEqualTo(1);
    assertThat(partition2.getState()).isEqualTo(BackupState.BACKUP_STATE_COMPLETED);
    assertThat(partition2.getBrokerVersion()).isEqualTo(FakeCluster.VERSION);
    assertThat(partition2.getCheckpointPosition()).isPositive();
    assertThat(partition2.getSnapshotId()).startsWith("snap-");
    assertThat(partition2.getSizeBytes()).isEqualTo(4096);
    assertThat(partition2.getFileCount()).isEqualTo(4);
    assertThat(partition2.getStateDigest()).isEqualTo("00ff");
    assertThat(partition2.getCreatedAt().getSeconds()).isEqualTo(1_700_000_000L);
    assertThat(partition2.getLastUpdatedAt().getSeconds()).isEqualTo(1_700_000_001L);
  }

  @Test
  void shouldRefuseAnIdThatExistsAlreadyNamingIt() {
    take(5);

    assertStatus(
        () -> take(5),
        Status.Code.ALREADY_EXISTS,
        "Expected backupId higher than every existing backup id, but backup 5 exists already"
            + " (every partition is at checkpoint 5). Take a backup with an id > 5");
    assertStatus(
        () -> take(3),
        Status.Code.ALREADY_EXISTS,
        "but 3 is not higher than 5 (partition 1 is at checkpoint 5)");
  }

  @Test
  void shouldRefuseAnIdLowerThanOnePartitionsAndChangeNoCheckpointBelowIt() {
    harness.cluster.setCheckpoint(2, 9);

    assertStatus(
        () -> take(7),
        Status.Code.ALREADY_EXISTS,
        "but 7 is not higher than 9 (partition 2 is at checkpoint 9). Take a backup with an"
            + " id > 9");
  }

  @Test
  void shouldSucceedWhenSomePartitionsHadTheIdAlready() {
    harness.cluster.setCheckpoint(1, 5);

    TakeBackupResponse taken = take(5);

    assertThat(taken.getPartitionsList())
        .extracting(PartitionCheckpoint::getCreated)
        .containsExactly(false, true, true);
  }

  @Test
  void shouldRefuseBackupsWithUnavailableWhileAPartitionHasNoLeader() {
    harness.broker(0).follow(3, 2);
    harness.refresh();

    assertStatus(
        () -> take(5),
        Status.Code.UNAVAILABLE,
        "Expected a known leader for every partition (TakeBackup 5), but partitions [3] have"
            + " none. Retry when the cluster is ready (GET /ready)");
    assertStatus(() -> get(5), Status.Code.UNAVAILABLE, "partitions [3] have none");
    assertThat(harness.commandsReceived()).isZero();
    assertThat(harness.cluster.checkpoint(1)).isZero();
  }

  @Test
  void shouldReportAPartitionThatFailedAndSucceedWhenRetriedWithTheSameId() {
    harness.broker(1).failCommands(2, ApiResponse.failure(ResponseStatus.BACKPRESSURE, "busy"));

    assertStatus(
        () -> take(5),
        Status.Code.UNAVAILABLE,
        "Expected every partition to take checkpoint 5, but partition 2: BACKPRESSURE from broker"
            + " 1 (TakeBackup on partition 2): busy. Sending TakeBackup with the same id again is"
            + " safe");

    harness.broker(1).heal();
    assertThat(take(5).getPartitionsList())
        .extracting(PartitionCheckpoint::getCreated)
        .containsExactly(false, true, false);
  }

  @Test
  void shouldCountACheckpointCreatedByAnAttemptWhoseAnswerWasLost() {
    // a retry budget (100 retries, up to 100 ms apart) that outlasts the broker's transport
    // restart also on a slow machine
    try (GatewayHarness single =
        new GatewayHarness(
                1, 1, config -> config.maxRetries(100).retryBackoffMax(Duration.ofMillis(100)))
            .awaitReady()) {
      single.broker(0).crashAfterNext(ApiDescriptor.TYPE_COMMAND);

      TakeBackupResponse taken =
          single.admin.takeBackup(TakeBackupRequest.newBuilder().setBackupId(5).build());

      // The first CREATE was applied but unanswered; the resent one was IGNORED at id 5.
      assertThat(single.broker(0).requests(ApiDescriptor.TYPE_COMMAND)).isGreaterThan(1);
      assertThat(taken.getPartitions(0).getCreated()).isTrue();
      assertThat(taken.getPartitions(0).getCheckpointId()).isEqualTo(5);
      assertThat(single.cluster.checkpoint(1)).isEqualTo(5);
    }
  }

  @Test
  void shouldAggregatePartitionStatusesWithTheBestCopyPerPartition() {
    // 11: partition 2 failed on node 1 but completed on node 0; partition 3 still running
    harness.cluster.addBackup(FakeCluster.completed(0, 1, 11, 10));
    harness.cluster.addBackup(FakeCluster.failed(1, 2, 11, "leader changed"));
    harness.cluster.addBackup(FakeCluster.completed(0, 2, 11, 12));
    harness.cluster.addBackup(FakeCluster.inProgress(0, 3, 11));
    // 12: partition 2 failed
    harness.cluster.addBackup(FakeCluster.completed(0, 1, 12, 20));
    harness.cluster.addBackup(FakeCluster.failed(1, 2, 12, "disk full"));
    // 13: only partition 1; a backup of partition 4 (an older, larger cluster) does not count
    harness.cluster.addBackup(FakeCluster.completed(0, 1, 13, 30));
    harness.cluster.addBackup(FakeCluster.completed(0, 4, 13, 31));

    Backup running = get(11);
    assertThat(running.getState()).isEqualTo(BackupState.BACKUP_STATE_IN_PROGRESS);
    assertThat(running.getFailureReason()).isEqualTo("partition 3 in progress");
    assertThat(running.getPartitions(1).getState()).isEqualTo(BackupState.BACKUP_STATE_COMPLETED);
    assertThat(running.getPartitions(1).getNodeId()).isZero();

    Backup failed = get(12);
    assertThat(failed.getState()).isEqualTo(BackupState.BACKUP_STATE_FAILED);
    assertThat(failed.getFailureReason()).isEqualTo("partition 2 failed: disk full");
    assertThat(failed.getPartitions(1).getFailureReason()).isEqualTo("disk full");

    Backup incomplete = get(13);
    assertThat(incomplete.getState()).isEqualTo(BackupState.BACKUP_STATE_INCOMPLETE);
    assertThat(incomplete.getFailureReason())
        .isEqualTo("partitions 2, 3 without a backup (1 of 3 partitions completed)");
    assertThat(incomplete.getPartitionsList()).hasSize(1);

    assertStatus(
        () -> get(14),
        Status.Code.NOT_FOUND,
        "Expected backup 14 to exist, but no partition has it (GetBackup)");
  }

  @Test
  void shouldListBackupsNewestFirstAcrossManyStorePages() {
    // 400 ids × 3 partitions = 1200 statuses: two pages from the broker
    for (long id = 1; id <= 400; id++) {
      for (int p = 1; p <= 3; p++) {
        harness.cluster.addBackup(FakeCluster.completed(p % 2, p, id, id));
      }
    }

    ListBackupsResponse all =
        harness.admin.listBackups(ListBackupsRequest.newBuilder().setPageSize(1000).build());
    assertThat(all.getBackupsList()).hasSize(400);
    assertThat(all.getBackups(0).getBackupId()).isEqualTo(400);
    assertThat(all.getBackups(399).getBackupId()).isEqualTo(1);
    assertThat(all.getBackupsList())
        .allSatisfy(b -> assertThat(b.getState()).isEqualTo(BackupState.BACKUP_STATE_COMPLETED));
    assertThat(all.getNextPageToken()).isEmpty();
    assertThat(
            harness.broker(0).requests(ApiDescriptor.TYPE_BACKUP)
                + harness.broker(1).requests(ApiDescriptor.TYPE_BACKUP))
        .isEqualTo(2);

    List<Long> paged = new ArrayList<>();
    String token = "";
    int pages = 0;
    do {
      ListBackupsResponse page =
          harness.admin.listBackups(
              ListBackupsRequest.newBuilder().setPageSize(150).setPageToken(token).build());
      page.getBackupsList().forEach(b -> paged.add(b.getBackupId()));
      token = page.getNextPageToken();
      pages++;
    } while (!token.isEmpty());
    assertThat(pages).isEqualTo(3);
    assertThat(paged).hasSize(400).isSortedAccordingTo((a, b) -> Long.compare(b, a));
  }

  @Test
  void shouldListNothingWhenNoBackupExists() {
    ListBackupsResponse none = harness.admin.listBackups(ListBackupsRequest.getDefaultInstance());
    assertThat(none.getBackupsList()).isEmpty();
    assertThat(none.getNextPageToken()).isEmpty();
  }

  @Test
  void shouldDeleteABackupAndRefuseOneInProgress() {
    take(5);
    harness.cluster.addBackup(FakeCluster.inProgress(0, 1, 6));

    harness.admin.deleteBackup(DeleteBackupRequest.newBuilder().setBackupId(5).build());
    assertStatus(() -> get(5), Status.Code.NOT_FOUND, "backup 5");

    assertStatus(
        () -> harness.admin.deleteBackup(DeleteBackupRequest.newBuilder().setBackupId(6).build()),
        Status.Code.FAILED_PRECONDITION,
        "CONFLICT from broker 0 (DeleteBackup 6): Expected no backup 6 in progress");
    assertThat(get(6).getState()).isEqualTo(BackupState.BACKUP_STATE_IN_PROGRESS);
  }

  @Test
  void shouldPassOnTheStoresFailure() {
    harness.brokers.forEach(
        b ->
            b.failBackupQueries(
                ResponseStatus.UNAVAILABLE, "Expected a configured backup store, but none is"));

    assertStatus(
        () -> get(5),
        Status.Code.UNAVAILABLE,
        "UNAVAILABLE from broker 0 (GetBackup 5): Expected a configured backup store");
  }

  @Test
  void shouldPauseAndResumeExportingOnEveryBroker() {
    ExportingResponse paused =
        harness.admin.pauseExporting(PauseExportingRequest.getDefaultInstance());
    assertThat(paused.getPaused()).isTrue();
    assertThat(paused.getNodeIdsList()).containsExactly(0, 1);
    assertThat(harness.brokers).allSatisfy(b -> assertThat(b.exportingPaused()).isTrue());

    ExportingResponse resumed =
        harness.admin.resumeExporting(ResumeExportingRequest.getDefaultInstance());
    assertThat(resumed.getPaused()).isFalse();
    assertThat(harness.brokers).allSatisfy(b -> assertThat(b.exportingPaused()).isFalse());
  }

  @Test
  void shouldNameTheBrokerThatDidNotConfirmPausing() {
    harness.broker(1).answerGarbage(ApiDescriptor.TYPE_EXPORTING);

    assertStatus(
        () -> harness.admin.pauseExporting(PauseExportingRequest.getDefaultInstance()),
        Status.Code.UNAVAILABLE,
        "Expected every broker to confirm PauseExporting, but broker 1: Expected a valid answer"
            + " from broker 1");
    assertThat(harness.broker(0).exportingPaused()).isTrue();
  }

  @Test
  void shouldDescribeTheTopology() {
    Topology topology = harness.admin.getTopology(GetTopologyRequest.getDefaultInstance());

    assertThat(topology.getClusterId()).isEqualTo(FakeCluster.CLUSTER_ID);
    assertThat(topology.getPartitionCount()).isEqualTo(3);
    assertThat(topology.getReplicationFactor()).isEqualTo(2);
    assertThat(topology.getRefreshedAtMs()).isPositive();
    assertThat(topology.getBrokersList())
        .hasSize(2)
        .allSatisfy(
            broker -> {
              assertThat(broker.getReachable()).isTrue();
              assertThat(broker.getVersion()).isEqualTo(FakeCluster.VERSION);
              assertThat(broker.getReplicasList()).hasSize(3);
              assertThat(broker.getAddress()).startsWith("127.0.0.1:");
            });
    assertThat(topology.getBrokers(1).getReplicas(1).getRole())
        .isEqualTo(ReplicaRole.REPLICA_ROLE_LEADER);
    assertThat(topology.getPartitionsList())
        .extracting(p -> p.getLeaderNodeId())
        .containsExactly(0, 1, 0);
    assertThat(topology.getPartitions(0).getHealth()).isEqualTo(Health.HEALTH_HEALTHY);
  }
}
