package io.cairn.client;

import static io.cairn.client.ClientAssertions.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.gateway.FakeCluster;
import io.cairn.gateway.GatewayHarness;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ResponseStatus;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The management HTTP client against a real gateway's endpoints over real sockets. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class ManagementClientTest {
  private GatewayHarness harness;
  private ManagementClient client;

  @BeforeAll
  void start() {
    harness = new GatewayHarness().awaitReady();
    client =
        ManagementClient.of(
            URI.create("http://127.0.0.1:" + harness.gateway.httpAddress().getPort() + "/"),
            Duration.ofSeconds(20));
  }

  @AfterAll
  void stop() {
    harness.close();
  }

  @BeforeEach
  void reset() {
    harness.reset();
  }

  @Test
  void shouldTakeShowListAndDeleteBackups() {
    BackupTaken taken = client.takeBackup(7);

    assertThat(taken.backupId()).isEqualTo(7);
    assertThat(taken.partitions())
        .extracting(PartitionCheckpoint::partitionId)
        .containsExactly(1, 2, 3);
    assertThat(taken.partitions()).allSatisfy(p -> assertThat(p.created()).isTrue());
    assertThat(harness.cluster.checkpoint(2)).isEqualTo(7);

    BackupInfo backup = client.getBackup(7);
    assertThat(backup.state()).isEqualTo(BackupState.COMPLETED);
    assertThat(backup.failureReason()).isEmpty();
    assertThat(backup.partitions()).hasSize(3);
    PartitionBackupInfo partition1 = backup.partitions().get(0);
    assertThat(partition1.partitionId()).isEqualTo(1);
    assertThat(partition1.nodeId()).isZero();
    assertThat(partition1.brokerVersion()).isEqualTo(FakeCluster.VERSION);
    assertThat(partition1.createdAt()).isEqualTo(Instant.parse("2023-11-14T22:13:20.007Z"));
    assertThat(partition1.sizeBytes()).isEqualTo(4096);
    assertThat(partition1.stateDigest()).isEqualTo("00ff");
    assertThat(partition1.checkpointPosition()).isPositive();

    client.takeBackup(8);
    assertThat(client.listBackups()).extracting(BackupInfo::backupId).containsExactly(8L, 7L);

    client.deleteBackup(7);
    assertThat(client.listBackups()).extracting(BackupInfo::backupId).containsExactly(8L);
  }

  @Test
  void shouldMapProblemDetailsToErrorCodes() {
    client.takeBackup(5);
    harness.cluster.addBackup(FakeCluster.inProgress(0, 1, 6));

    assertFailure(() -> client.takeBackup(5), ErrorCode.ALREADY_EXISTS, "backup 5 exists already");
    assertFailure(
        () -> client.getBackup(42),
        ErrorCode.NOT_FOUND,
        "Expected backup 42 to exist, but no partition has it");
    assertFailure(() -> client.deleteBackup(6), ErrorCode.FAILED_PRECONDITION, "in progress");
    assertFailure(
        () -> client.deleteBackup(-1),
        ErrorCode.INVALID_ARGUMENT,
        "Expected backupId >= 1, but was -1 (DELETE /actuator/backups/-1)");
    harness.brokers.forEach(
        b -> b.failBackupQueries(ResponseStatus.UNAVAILABLE, "backups are not configured"));
    assertFailure(() -> client.listBackups(), ErrorCode.UNAVAILABLE, "backups are not configured");
  }

  @Test
  void shouldPauseAndResumeExporting() {
    client.pauseExporting();
    assertThat(harness.brokers).allSatisfy(b -> assertThat(b.exportingPaused()).isTrue());

    client.resumeExporting();
    assertThat(harness.brokers).allSatisfy(b -> assertThat(b.exportingPaused()).isFalse());
    assertThat(harness.broker(0).requests(ApiDescriptor.TYPE_EXPORTING)).isEqualTo(2);
  }

  @Test
  void shouldReportHealthReadinessAndMetrics() {
    assertThat(client.health()).isEqualTo("UP");
    assertThat(client.ready()).isTrue();
    assertThat(client.metrics()).contains("cairn_gateway_requests");

    harness.broker(1).follow(2, 2);
    harness.refresh();

    assertThat(client.ready()).isFalse();
  }

  @Test
  void shouldFailWithUnavailableWhenNothingListens() throws Exception {
    int freePort;
    try (ServerSocket socket = new ServerSocket(0)) {
      freePort = socket.getLocalPort();
    }
    ManagementClient nowhere = ManagementClient.of(URI.create("http://127.0.0.1:" + freePort));

    assertFailure(
        nowhere::health,
        ErrorCode.UNAVAILABLE,
        "Expected the gateway at http://127.0.0.1:"
            + freePort
            + " to accept a connection (GET /health), but");
  }

  @Test
  void shouldRefuseABaseThatIsNotAnHttpUri() {
    assertFailure(
        () -> ManagementClient.of(URI.create("ftp://host:1")),
        ErrorCode.INVALID_ARGUMENT,
        "Expected base an http or https URI with a host, such as http://127.0.0.1:9600, but was"
            + " 'ftp://host:1' (ManagementClient)");
    assertFailure(
        () -> ManagementClient.of(URI.create("localhost:9600"), Duration.ZERO),
        ErrorCode.INVALID_ARGUMENT,
        "Expected requestTimeout in [PT0.001S, PT1H], but was PT0S");
  }
}
