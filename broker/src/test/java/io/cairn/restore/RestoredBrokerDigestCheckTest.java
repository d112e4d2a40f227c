package io.cairn.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cairn.backup.BackupMetrics.RestoreCheckResult;
import io.cairn.backup.Checkpoint;
import io.cairn.backup.restore.RestoreMarker;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.broker.BrokerHealth;
import io.cairn.broker.HostedPartition;
import io.cairn.broker.partition.PartitionHealthStatus;
import io.cairn.broker.partition.PartitionLayout;
import io.cairn.broker.partition.PartitionRole;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The state digest check in a real broker opened on a real restore of backup {@value
 * BackupFixture#CUT} ({@link BackupFixture}): each partition's leader processes the kept {@code
 * CHECKPOINT CREATE} again and compares its state digest with the one in {@code
 * restored-backup.json}. (Both tests were checked to fail with the check's registration removed
 * from the broker.)
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class RestoredBrokerDigestCheckTest {

  private BackupFixture fixture;
  private BackupFixture.Stores stores;
  private FilesystemBackupStore store;

  @BeforeAll
  void takeBackups() {
    fixture = BackupFixture.get();
    stores = new BackupFixture.Stores();
    store = stores.open(fixture.store());
  }

  @AfterAll
  void closeStores() {
    stores.close();
  }

  private Path restoredCut(String prefix) {
    Path data = fixture.newDirectory(prefix);
    BackupRestorer.builder()
        .store(store)
        .meterRegistry(new SimpleMeterRegistry())
        .build()
        .restore(BackupFixture.target(data), BackupSelector.exact(BackupFixture.CUT));
    return data;
  }

  private static Path partitionDirectory(Path data, int partitionId) {
    return PartitionLayout.of(data, partitionId).directory();
  }

  @Test
  void shouldPassOnEveryPartitionAndCheckNothingAgainAfterARestart() throws IOException {
    // given a data directory restored from backup 5
    Path data = restoredCut("checked-");
    Path backups = fixture.newDirectory("store-of-checked-");

    // when a broker opens it and its leaders process the kept checkpoints
    try (LedgerBroker restored = new LedgerBroker(data, backups, BackupFixture.PARTITIONS)) {
      for (int p = 1; p <= BackupFixture.PARTITIONS; p++) {
        restored.awaitCheckpoint(p, BackupFixture.CUT);
      }

      // then every partition reproduced the backup's digest, counted one match, and serves
      for (int p = 1; p <= BackupFixture.PARTITIONS; p++) {
        Checkpoint checkpoint = restored.latestCheckpoint(p).orElseThrow();
        assertThat(checkpoint.stateDigestHex()).isEqualTo(fixture.digestsAtCut().get(p));
        assertThat(restored.restoreChecks(p, RestoreCheckResult.MATCH)).isEqualTo(1.0);
        assertThat(restored.restoreChecks(p, RestoreCheckResult.MISMATCH)).isZero();
        assertThat(restored.restoreChecks(p, RestoreCheckResult.INVALID)).isZero();
      }
      BrokerHealth health = restored.broker().health();
      assertThat(health.status()).isEqualTo(PartitionHealthStatus.HEALTHY);
      assertThat(health.ready()).isTrue();
      assertThat(restored.balances()).isEqualTo(fixture.balancesAtCut());
    }

    // when it restarts with markers that would no longer match (the checkpoints are processed)
    for (int p = 1; p <= BackupFixture.PARTITIONS; p++) {
      tamperDigest(partitionDirectory(data, p));
    }
    try (LedgerBroker again = new LedgerBroker(data, backups, BackupFixture.PARTITIONS)) {

      // then nothing is checked again: every partition replays to the same state and serves it
      for (int p = 1; p <= BackupFixture.PARTITIONS; p++) {
        again.awaitCheckpoint(p, BackupFixture.CUT);
        assertThat(again.latestCheckpoint(p).orElseThrow().stateDigestHex())
            .isEqualTo(fixture.digestsAtCut().get(p));
        for (RestoreCheckResult result : RestoreCheckResult.values()) {
          assertThat(again.restoreChecks(p, result)).as("%s on partition %s", result, p).isZero();
        }
      }
      assertThat(again.balances()).isEqualTo(fixture.balancesAtCut());
      assertThat(again.broker().health().status()).isEqualTo(PartitionHealthStatus.HEALTHY);
    }
  }

  @Test
  void shouldFailOnlyThePartitionWhoseStateDiffersFromTheBackupWithAReport() throws IOException {
    // given a restore of backup 5 whose partition 2 must reproduce another digest than its state's
    Path data = restoredCut("tampered-");
    RestoreMarker original = RestoreMarker.read(partitionDirectory(data, 2)).orElseThrow();
    String expected = tamperDigest(partitionDirectory(data, 2));
    String actual = fixture.digestsAtCut().get(2);
    assertThat(original.stateDigest()).isEqualTo(actual).isNotEqualTo(expected);

    // when a broker opens it
    try (LedgerBroker restored =
        LedgerBroker.started(
            data, fixture.newDirectory("store-of-tampered-"), BackupFixture.PARTITIONS)) {
      await("partition 2 FAILED, partitions 1 and 3 leading at the checkpoint")
          .atMost(LedgerBroker.TIMEOUT)
          .pollInterval(Duration.ofMillis(20))
          .until(
              () ->
                  hosted(restored, 2).health().status() == PartitionHealthStatus.FAILED
                      && hosted(restored, 1).isLeader()
                      && hosted(restored, 3).isLeader()
                      && restored.restoreChecks(1, RestoreCheckResult.MATCH) == 1
                      && restored.restoreChecks(3, RestoreCheckResult.MATCH) == 1);

      // then partition 2 is FAILED with the report: both digests and the restored families
      HostedPartition failed = hosted(restored, 2);
      assertThat(failed.role()).isEqualTo(PartitionRole.FAILED);
      assertThat(failed.health().reason())
          .contains("Expected the restored state to have the backup's digest " + expected)
          .contains("but it has " + actual)
          .contains(
              "partition 2, backup "
                  + BackupFixture.CUT
                  + ", checkpoint position "
                  + original.checkpointPosition())
          .containsPattern("LEDGER_ACCOUNTS \\d+ entries, digest [0-9a-f]{32}");
      assertThat(restored.restoreChecks(2, RestoreCheckResult.MISMATCH)).isEqualTo(1.0);
      assertThat(restored.restoreChecks(2, RestoreCheckResult.MATCH)).isZero();
      // ... it serves nothing: no stream processor runs, so its state cannot even be read
      assertThatThrownBy(() -> restored.latestCheckpoint(2))
          .hasRootCauseInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Expected a running stream processor");
      // ... and the broker says so
      BrokerHealth health = restored.broker().health();
      assertThat(health.status()).isEqualTo(PartitionHealthStatus.FAILED);
      assertThat(health.ready()).isFalse();
      assertThat(health.reason()).contains("partition 2 FAILED").contains(expected);

      // and the other partitions are healthy and serve the state of the cut
      Map<String, Long> expectedBalances = new TreeMap<>();
      Map<String, Long> balances = new TreeMap<>();
      for (int p : new int[] {1, 3}) {
        assertThat(hosted(restored, p).health().isHealthy()).isTrue();
        assertThat(restored.latestCheckpoint(p).orElseThrow().stateDigestHex())
            .isEqualTo(fixture.digestsAtCut().get(p));
        balances.putAll(
            restored.read(p, h -> db -> h.ledger().engine().orElseThrow().state().balances()));
        fixture
            .balancesAtCut()
            .forEach(
                (account, balance) -> {
                  if (restored.placement().partitionOf(account) == p) {
                    expectedBalances.put(account, balance);
                  }
                });
      }
      assertThat(balances).isNotEmpty().isEqualTo(expectedBalances);
    }
  }

  private static HostedPartition hosted(LedgerBroker broker, int partitionId) {
    return broker.partition(partitionId);
  }

  /** Rewrites the marker with another digest (its first hex digit changed); returns that digest. */
  private static String tamperDigest(Path partitionDirectory) throws IOException {
    RestoreMarker marker = RestoreMarker.read(partitionDirectory).orElseThrow();
    String digest = marker.stateDigest();
    String tampered = (digest.charAt(0) == '0' ? "1" : "0") + digest.substring(1);
    new RestoreMarker(
            marker.backupId(),
            marker.partitionId(),
            marker.sourceNodeId(),
            marker.checkpointPosition(),
            tampered,
            marker.snapshotId(),
            marker.brokerVersion())
        .write(partitionDirectory);
    return tampered;
  }
}
