package io.cairn.client;

import static io.cairn.client.ClientAssertions.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.gateway.FakeCluster;
import io.cairn.gateway.GatewayHarness;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ResponseStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The admin calls (backups, exporting, topology) over real gRPC to a real gateway. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class CairnClientAdminTest {
  private GatewayHarness harness;
  private CairnClient client;

  @BeforeAll
  void start() {
    harness = new GatewayHarness().awaitReady();
    client =
        CairnClient.builder()
            .gateway("127.0.0.1:" + harness.gateway.grpcAddress().getPort())
            .requestTimeout(Duration.ofSeconds(20))
            .build();
  }

  @AfterAll
  void stop() {
    client.close();
    harness.close();
  }

  @BeforeEach
  void reset() {
    harness.reset();
  }

  @Test
  void shouldTakeABackupAndReportEveryPartitionsDetails() {
    BackupTaken taken = client.takeBackup(5);

    assertThat(taken.backupId()).isEqualTo(5);
    assertThat(taken.partitions())
        .extracting(PartitionCheckpoint::partitionId)
        .containsExactly(1, 2, 3);
    assertThat(taken.partitions())
        .allSatisfy(
            p -> {
              assertThat(p.created()).isTrue();
              assertThat(p.checkpointId()).isEqualTo(5);
              assertThat(p.checkpointPosition()).isPositive();
            });

    BackupInfo backup = client.getBackup(5);
    assertThat(backup.backupId()).isEqualTo(5);
    assertThat(backup.state()).isEqualTo(BackupState.COMPLETED);
    assertThat(backup.failureReason()).isEmpty();
    assertThat(backup.partitions()).hasSize(3);
    PartitionBackupInfo partition2 = backup.partitions().get(1);
    assertThat(partition2.partitionId()).isEqualTo(2);
    assertThat(partition2.nodeId()).isEqualTo(1);
    assertThat(partition2.state()).isEqualTo(BackupState.COMPLETED);
    assertThat(partition2.brokerVersion()).isEqualTo(FakeCluster.VERSION);
    assertThat(partition2.checkpointPosition()).isPositive();
    assertThat(partition2.snapshotId()).startsWith("snap-");
    assertThat(partition2.sizeBytes()).isEqualTo(4096);
    assertThat(partition2.fileCount()).isEqualTo(4);
    assertThat(partition2.stateDigest()).isEqualTo("00ff");
    assertThat(partition2.createdAt()).isEqualTo(Instant.ofEpochMilli(1_700_000_000_005L));
    assertThat(partition2.lastUpdatedAt()).isEqualTo(Instant.ofEpochMilli(1_700_000_001_005L));
  }

  @Test
  void shouldRefuseAnIdNotHigherThanTheLastWithAlreadyExists() {
    client.takeBackup(5);

    assertFailure(() -> client.takeBackup(5), ErrorCode.ALREADY_EXISTS, "backup 5 exists already");
    assertFailure(
        () -> client.takeBackup(3), ErrorCode.ALREADY_EXISTS, "but 3 is not higher than 5");
    assertFailure(
        () -> client.takeBackup(0),
        ErrorCode.INVALID_ARGUMENT,
        "Expected backupId >= 1, but was 0 (TakeBackup)");
  }

  @Test
  void shouldReportMissingFailedAndInProgressBackups() {
    harness.cluster.addBackup(FakeCluster.completed(0, 1, 9, 40));
    harness.cluster.addBackup(FakeCluster.failed(1, 2, 9, "leader changed"));
    harness.cluster.addBackup(FakeCluster.inProgress(0, 3, 9));

    BackupInfo backup = client.getBackup(9);

    assertThat(backup.state()).isEqualTo(BackupState.FAILED);
    assertThat(backup.failureReason()).contains("leader changed");
    assertThat(backup.partitions())
        .extracting(PartitionBackupInfo::state)
        .containsExactly(BackupState.COMPLETED, BackupState.FAILED, BackupState.IN_PROGRESS);
    assertThat(backup.partitions().get(1).failureReason()).isEqualTo("leader changed");
    assertThat(backup.partitions().get(1).snapshotId()).isEmpty();
    assertThat(backup.state().isFinal()).isTrue();
    assertThat(backup.partitions().get(2).state().isFinal()).isFalse();
    assertFailure(
        () -> client.getBackup(77),
        ErrorCode.NOT_FOUND,
        "Expected backup 77 to exist, but no partition has it");
  }

  @Test
  void shouldListBackupsNewestFirstAcrossPages() throws Exception {
    for (long id = 1; id <= 5; id++) {
      client.takeBackup(id);
    }

    BackupPage first = client.listBackups(2, "");
    BackupPage second = client.listBackups(2, first.nextPageToken());
    List<Long> paged = new ArrayList<>();
    BackupPage page = first;
    while (true) {
      page.backups().forEach(b -> paged.add(b.backupId()));
      if (page.isLast()) {
        break;
      }
      page = client.listBackupsAsync(2, page.nextPageToken()).get(20, TimeUnit.SECONDS);
    }

    assertThat(first.backups()).extracting(BackupInfo::backupId).containsExactly(5L, 4L);
    assertThat(first.isLast()).isFalse();
    assertThat(second.backups()).extracting(BackupInfo::backupId).containsExactly(3L, 2L);
    assertThat(paged).containsExactly(5L, 4L, 3L, 2L, 1L);
    assertThat(client.listAllBackups())
        .extracting(BackupInfo::backupId)
        .containsExactly(5L, 4L, 3L, 2L, 1L);
    assertFailure(
        () -> client.listBackups(1001, ""),
        ErrorCode.INVALID_ARGUMENT,
        "Expected pageSize in [0, 1000]");
    assertFailure(
        () -> client.listBackups(2, "not-a-token"), ErrorCode.INVALID_ARGUMENT, "pageToken");
  }

  @Test
  void shouldDeleteABackupButNotOneInProgress() {
    client.takeBackup(4);
    harness.cluster.addBackup(FakeCluster.inProgress(0, 1, 6));

    client.deleteBackup(4);

    assertFailure(() -> client.getBackup(4), ErrorCode.NOT_FOUND, "backup 4");
    assertFailure(() -> client.deleteBackup(6), ErrorCode.FAILED_PRECONDITION, "in progress");
    assertThat(client.getBackup(6).state()).isEqualTo(BackupState.IN_PROGRESS);
  }

  @Test
  void shouldReportAStoreThatIsNotConfiguredAsUnavailable() {
    harness.brokers.forEach(
        b -> b.failBackupQueries(ResponseStatus.UNAVAILABLE, "backups are not configured"));

    assertFailure(() -> client.getBackup(1), ErrorCode.UNAVAILABLE, "backups are not configured");
  }

  @Test
  void shouldPauseAndResumeExportingOnEveryBroker() {
    ExportingState paused = client.pauseExporting();

    assertThat(paused).isEqualTo(new ExportingState(true, List.of(0, 1)));
    assertThat(harness.brokers).allSatisfy(b -> assertThat(b.exportingPaused()).isTrue());

    ExportingState resumed = client.resumeExporting();

    assertThat(resumed).isEqualTo(new ExportingState(false, List.of(0, 1)));
    assertThat(harness.brokers).allSatisfy(b -> assertThat(b.exportingPaused()).isFalse());
  }

  @Test
  void shouldShowBrokersPartitionsLeadersAndHealth() {
    Topology topology = client.topology();

    assertThat(topology.clusterId()).isEqualTo(FakeCluster.CLUSTER_ID);
    assertThat(topology.partitionCount()).isEqualTo(3);
    assertThat(topology.hasAllLeaders()).isTrue();
    assertThat(topology.partitions())
        .extracting(Topology.Partition::leaderNodeId)
        .containsExactly(0, 1, 0);
    assertThat(topology.partition(2).orElseThrow().health()).isEqualTo(Topology.Health.HEALTHY);
    assertThat(topology.brokers()).extracting(Topology.Broker::nodeId).containsExactly(0, 1);
    Topology.Broker broker1 = topology.brokers().get(1);
    assertThat(broker1.reachable()).isTrue();
    assertThat(broker1.version()).isEqualTo(FakeCluster.VERSION);
    assertThat(broker1.replicas())
        .extracting(Topology.Replica::role)
        .containsExactly(
            Topology.ReplicaRole.FOLLOWER,
            Topology.ReplicaRole.LEADER,
            Topology.ReplicaRole.FOLLOWER);
    assertThat(topology.refreshedAt()).isAfter(Instant.ofEpochSecond(1_600_000_000L));
  }

  @Test
  void shouldShowAPartitionWithoutLeaderAndRefuseBackupsMeanwhile() {
    harness.broker(1).follow(2, 2);
    harness.refresh();

    Topology topology = client.topology();

    assertThat(topology.hasAllLeaders()).isFalse();
    assertThat(topology.partition(2).orElseThrow().leaderNodeId()).isEqualTo(-1);
    assertThat(topology.partition(2).orElseThrow().health()).isEqualTo(Topology.Health.UNREACHABLE);
    assertFailure(
        () -> client.takeBackup(1),
        ErrorCode.UNAVAILABLE,
        "Expected a known leader for every partition");
    assertThat(harness.broker(0).requests(ApiDescriptor.TYPE_COMMAND)).isZero();
  }
}
