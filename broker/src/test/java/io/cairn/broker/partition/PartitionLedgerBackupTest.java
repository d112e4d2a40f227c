package io.cairn.broker.partition;

import static io.cairn.broker.partition.TestLedgerComponent.command;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backup.BackupConfig;
import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupfs.FilesystemBackupStoreConfig;
import io.cairn.engine.InterPartitionSender;
import io.cairn.engine.LedgerEngineConfig;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import io.cairn.protocol.ValueDescriptor;
import io.cairn.snapshot.PersistedSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real ledger engine and checkpoint records on a three-member partition, with backups to a
 * filesystem store: the leader processes ledger commands, a {@code CHECKPOINT CREATE} makes its
 * backup manager write a backup of the snapshot and log up to the checkpoint, the backup is
 * confirmed in the log, and every member replays to the same state.
 */
final class PartitionLedgerBackupTest {

  @TempDir Path directory;
  private PartitionCluster cluster;
  private BackupStore store;

  @AfterEach
  void close() {
    if (cluster != null) {
      cluster.close();
    }
    if (store != null) {
      store.close();
    }
  }

  @Test
  void shouldBackUpTheLeaderAtACheckpointAndReplayTheLedgerOnFollowers() throws IOException {
    // given three members with the ledger and the checkpoint records, backing up to a filesystem
    Path backups = Files.createDirectories(directory.resolve("backups"));
    cluster =
        new PartitionCluster(
            directory.resolve("cluster"),
            53,
            3,
            PartitionCluster.CONFIG,
            (running, member) -> components(running, backups));
    Partition leader = cluster.awaitLeader();
    cluster.write(leader, command(AccountIntent.CREATE, new AccountValue("alice", 0), 1));
    cluster.write(leader, command(AccountIntent.CREATE, new AccountValue("bob", 0), 2));
    cluster.write(leader, command(DepositIntent.DEPOSIT, new DepositValue("alice", 100), 3));
    long last = cluster.write(leader, transfer("alice", "bob", 30, 4));
    cluster.awaitConverged(last, Duration.ofSeconds(5));
    PersistedSnapshot snapshot = cluster.await(leader.takeSnapshot(), "snapshot").orElseThrow();
    cluster.write(leader, command(DepositIntent.DEPOSIT, new DepositValue("bob", 5), 5));

    // when a checkpoint is taken, and the ledger goes on
    long checkpointPosition =
        cluster.write(
            leader,
            command(
                CheckpointIntent.CREATE,
                new CheckpointValue(1, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP),
                6));
    last = cluster.write(leader, command(DepositIntent.DEPOSIT, new DepositValue("alice", 1), 7));

    // then the leader's backup manager completes backup 1 of partition 1 ...
    BackupIdentifier id = new BackupIdentifier(leader.nodeId(), 1, 1);
    BackupStatus[] status = new BackupStatus[1];
    cluster.runUntil(
        () -> {
          status[0] = cluster.await(store.getStatus(id), "status of " + id);
          return status[0].statusCode() == BackupStatusCode.COMPLETED;
        },
        Duration.ofSeconds(20),
        "backup " + id + " to complete");
    BackupDescriptor descriptor = status[0].descriptor().orElseThrow();
    assertThat(descriptor.checkpointPosition()).isEqualTo(checkpointPosition);
    assertThat(descriptor.snapshotId()).hasValue(snapshot.id().toString());
    // ... and confirms it in the log ...
    cluster.runUntil(
        () ->
            PartitionCluster.committedRecords(leader).stream()
                .anyMatch(r -> r.metadata().intent() == CheckpointIntent.CONFIRMED_BACKUP),
        Duration.ofSeconds(5),
        "CONFIRMED_BACKUP in the log");
    // ... the CREATED event carries the digest the backup recorded ...
    Record created =
        PartitionCluster.committedRecords(leader).stream()
            .filter(r -> r.metadata().intent() == CheckpointIntent.CREATED)
            .findFirst()
            .orElseThrow();
    assertThat(((CheckpointValue) created.value()).checkpointPosition())
        .isEqualTo(checkpointPosition);
    // ... and every member replays the ledger, checkpoints included, to the same state
    StateSummary converged = cluster.awaitConverged(last, Duration.ofSeconds(10));
    assertThat(converged.lastProcessedPosition()).isGreaterThan(checkpointPosition);
    for (Partition partition : cluster.running()) {
      assertThat(partition.health().isHealthy()).isTrue();
      LedgerComponent ledger = ledgerOf(partition);
      Map<String, Long> balances =
          cluster.await(
              partition.readState(db -> ledger.engine().orElseThrow().state().balances()),
              "balances");
      assertThat(balances).isEqualTo(Map.of("alice", 71L, "bob", 35L));
      assertThat(backupOf(partition).manager().isPresent())
          .as("member %d runs a backup manager", partition.nodeId())
          .isEqualTo(partition == leader);
    }
  }

  private List<PartitionComponent> components(PartitionCluster running, Path backups) {
    if (store == null) {
      store =
          FilesystemBackupStore.open(
              FilesystemBackupStoreConfig.of(backups),
              running.clock,
              running.scheduler.executor(),
              running.scheduler.executor(),
              new SimpleMeterRegistry());
    }
    BackupComponent checkpoints =
        new BackupComponent(
            Optional.of(store), BackupConfig.defaults(), 1, running.scheduler.executor());
    LedgerComponent ledger =
        new LedgerComponent(
            LedgerEngineConfig.of(1), InterPartitionSender.NONE, BackupComponent::checkpointIds);
    return List.of(checkpoints, ledger);
  }

  private LedgerComponent ledgerOf(Partition partition) {
    return component(partition, LedgerComponent.class);
  }

  private BackupComponent backupOf(Partition partition) {
    return component(partition, BackupComponent.class);
  }

  private <T> T component(Partition partition, Class<T> type) {
    return cluster.components(partition.nodeId()).stream()
        .filter(type::isInstance)
        .map(type::cast)
        .findFirst()
        .orElseThrow();
  }

  private static Record transfer(String from, String to, long amount, long requestId) {
    return command(
        TransferIntent.CREATE,
        new TransferValue(
            from, to, amount, ValueDescriptor.NO_PARTITION_ID, ValueDescriptor.NO_PARTITION_ID),
        requestId);
  }
}
