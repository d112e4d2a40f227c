package io.cairn.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.backup.archive.ArchiveMetrics;
import io.cairn.backupapi.archive.ArchivedRecord;
import io.cairn.backupapi.archive.LogArchive;
import io.cairn.backupapi.archive.StoredLink;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupfs.FilesystemBackupStoreConfig;
import io.cairn.logstreams.raft.RaftJournalRecords;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordType;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three brokers with {@code backup.archive.enabled}: every acknowledged deposit of every partition
 * reaches the store's log archive, in one unbroken chain per partition, also when the leader of a
 * partition stops and another member continues the chain.
 */
final class BrokerLogArchiveTest {

  private static final int PARTITIONS = 2;
  private static final int DEPOSITS = 40;

  @Test
  void shouldArchiveEveryAcknowledgedCommandInOneChainAcrossALeaderChange(@TempDir Path root)
      throws Exception {
    try (BrokerTestCluster cluster =
        BrokerTestCluster.builder(root)
            .brokers(3)
            .partitions(PARTITIONS)
            .replicationFactor(3)
            .backupStore(root.resolve("backups"))
            .setting("backup.archive.enabled", "true")
            .setting("backup.archive.interval", "200ms")
            .build()) {
      cluster.awaitReady();
      GatewayClient client = cluster.client();
      Set<String> acknowledged = new HashSet<>();
      deposit(client, acknowledged, "before");

      int stopped = cluster.leaderReplica(1).partition().nodeId();
      cluster.stop(stopped);
      deposit(client, acknowledged, "after");

      ExecutorService executor = Executors.newFixedThreadPool(2);
      try (FilesystemBackupStore store =
          FilesystemBackupStore.open(
              FilesystemBackupStoreConfig.of(cluster.backups()),
              Clock.system(),
              executor,
              executor,
              new SimpleMeterRegistry())) {
        await("every acknowledged deposit in the archive")
            .atMost(BrokerTestCluster.TIMEOUT)
            .pollInterval(Duration.ofMillis(500))
            .untilAsserted(() -> assertThat(archivedDeposits(store)).containsAll(acknowledged));
        List<StoredLink> chain = chain(store, 1);
        assertThat(chain.stream().map(l -> l.link().nodeId()).distinct().count())
            .as("partition 1's chain was written by its first leader and the next one")
            .isGreaterThanOrEqualTo(2);
      } finally {
        executor.shutdownNow();
      }
      for (Broker broker : cluster.brokers()) {
        if (!broker.isClosed()) {
          assertThat(broker.meterRegistry().get(ArchiveMetrics.HOLD_RELEASED).gauges())
              .allMatch(gauge -> gauge.value() == 0.0);
        }
      }
    }
  }

  private static void deposit(GatewayClient client, Set<String> acknowledged, String phase) {
    for (int partition = 1; partition <= PARTITIONS; partition++) {
      for (int i = 0; i < DEPOSITS; i++) {
        String account = phase + "-" + partition + "-" + i;
        client.execute(
            partition, GatewayClient.command(DepositIntent.DEPOSIT, new DepositValue(account, 1)));
        acknowledged.add(account);
      }
    }
  }

  /** Every partition's chain from index 1 to its tail, each checked to follow the one before. */
  private static List<StoredLink> chain(FilesystemBackupStore store, int partition)
      throws Exception {
    LogArchive archive = new LogArchive(store.archive(), partition);
    Optional<StoredLink> tail = archive.tail(Optional.empty()).get(30, TimeUnit.SECONDS);
    assertThat(tail).as("the archive of partition %d", partition).isPresent();
    return archive.chain(1, tail.get().link().toIndex()).get(30, TimeUnit.SECONDS);
  }

  /** The accounts of the DEPOSIT commands in every partition's archived log. */
  private static Set<String> archivedDeposits(FilesystemBackupStore store) throws Exception {
    Set<String> accounts = new HashSet<>();
    for (int partition = 1; partition <= PARTITIONS; partition++) {
      LogArchive archive = new LogArchive(store.archive(), partition);
      List<ArchivedRecord> records = new ArrayList<>();
      for (StoredLink link : chain(store, partition)) {
        records.addAll(archive.read(link.link()).get(30, TimeUnit.SECONDS));
      }
      for (ArchivedRecord archived : records) {
        var batch = RaftJournalRecords.batchOf(archived.asqn(), new UnsafeBuffer(archived.data()));
        for (Record record : batch.map(b -> b.records()).orElse(List.of())) {
          if (record.metadata().recordType() == RecordType.COMMAND
              && record.metadata().intent() == DepositIntent.DEPOSIT) {
            accounts.add(((DepositValue) record.value()).accountId());
          }
        }
      }
    }
    return accounts;
  }
}
