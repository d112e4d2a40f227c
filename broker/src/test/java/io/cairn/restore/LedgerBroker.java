package io.cairn.restore;

import static org.awaitility.Awaitility.await;

import io.cairn.backup.BackupMetrics;
import io.cairn.backup.BackupMetrics.RestoreCheckResult;
import io.cairn.backup.Checkpoint;
import io.cairn.backup.CheckpointState;
import io.cairn.broker.Broker;
import io.cairn.broker.BrokerTestCluster;
import io.cairn.broker.HostedPartition;
import io.cairn.engine.PendingCredit;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Intent;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordValue;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import io.cairn.protocol.ValueDescriptor;
import io.cairn.protocol.api.AccountPlacement;
import io.micrometer.core.instrument.Counter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One real broker (a single node hosting every partition, replication factor 1) with a filesystem
 * backup store, driven by writing commands straight to its partitions' logs and reading their state
 * on the partitions' threads.
 */
final class LedgerBroker implements AutoCloseable {

  static final String CLUSTER_ID = "restore-test";

  /** Every wait on the broker's threads; generous, as the machine may be loaded. */
  static final Duration TIMEOUT = Duration.ofSeconds(60);

  private final BrokerTestCluster cluster;
  private final Broker broker;
  private final int partitionCount;

  /** Opens and starts the broker and waits until it leads every partition and is ready. */
  LedgerBroker(Path dataDirectory, Path backupStore, int partitionCount) {
    this(dataDirectory, backupStore, partitionCount, Map.of());
  }

  /** {@link #LedgerBroker(Path, Path, int)} with broker {@code settings} over the test tuning. */
  LedgerBroker(
      Path dataDirectory, Path backupStore, int partitionCount, Map<String, String> settings) {
    this(dataDirectory, backupStore, partitionCount, settings, true);
  }

  private LedgerBroker(
      Path dataDirectory,
      Path backupStore,
      int partitionCount,
      Map<String, String> settings,
      boolean awaitLeaders) {
    this.partitionCount = partitionCount;
    BrokerTestCluster.Builder builder = cluster(dataDirectory, backupStore, partitionCount);
    settings.forEach(builder::setting);
    cluster = builder.build();
    broker = cluster.broker(0);
    try {
      if (awaitLeaders) {
        awaitLeaders();
      }
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  /** Opens and starts the broker without waiting for its partitions (some may fail). */
  static LedgerBroker started(Path dataDirectory, Path backupStore, int partitionCount) {
    return new LedgerBroker(dataDirectory, backupStore, partitionCount, Map.of(), false);
  }

  Broker broker() {
    return broker;
  }

  /**
   * The state digest checks of restored partition {@code partitionId} counted by this broker
   * ({@code cairn.backup.restore.checks}) with {@code result}; 0 when none was.
   */
  double restoreChecks(int partitionId, RestoreCheckResult result) {
    Counter counter =
        broker
            .meterRegistry()
            .find(BackupMetrics.RESTORE_CHECKS)
            .tag("partition", Integer.toString(partitionId))
            .tag("result", result.name().toLowerCase(Locale.ROOT))
            .counter();
    return counter == null ? 0 : counter.count();
  }

  /**
   * One node with every partition, on {@code dataDirectory}: small segments, so a backup spans
   * several; snapshots only when a test takes one; no management server.
   */
  private static BrokerTestCluster.Builder cluster(
      Path dataDirectory, Path backupStore, int partitionCount) {
    return BrokerTestCluster.builder(dataDirectory.toAbsolutePath().getParent())
        .clusterId(CLUSTER_ID)
        .partitions(partitionCount)
        .nodeDirectory(0, dataDirectory)
        .backupStore(backupStore)
        .setting("data.segmentSize", "2MB")
        .setting("data.snapshotInterval", "1h")
        .setting("management.enabled", "false")
        .setting("raft.electionTimeout", "300ms");
  }

  void awaitLeaders() {
    cluster.awaitReady();
  }

  HostedPartition partition(int partitionId) {
    return broker.partitions().get(partitionId).orElseThrow();
  }

  /** Writes a command to the partition's log (retrying on backpressure). */
  void write(int partitionId, Intent intent, RecordValue value) {
    Record command = new Record(RecordMetadata.builder().command(intent).build(), value);
    await("writing " + intent + " to partition " + partitionId)
        .atMost(TIMEOUT)
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10))
        .until(
            () -> {
              WriteResult result =
                  partition(partitionId).partition().logStream().writer().tryWrite(command);
              return result.isWritten();
            });
  }

  void createAccount(String accountId) {
    write(placement().partitionOf(accountId), AccountIntent.CREATE, new AccountValue(accountId, 0));
  }

  void deposit(String accountId, long amount) {
    write(
        placement().partitionOf(accountId),
        DepositIntent.DEPOSIT,
        new DepositValue(accountId, amount));
  }

  void transfer(String from, String to, long amount) {
    write(
        placement().partitionOf(from),
        TransferIntent.CREATE,
        new TransferValue(
            from, to, amount, ValueDescriptor.NO_PARTITION_ID, ValueDescriptor.NO_PARTITION_ID));
  }

  void checkpoint(int partitionId, long id) {
    write(
        partitionId,
        CheckpointIntent.CREATE,
        new CheckpointValue(id, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP));
  }

  <T> T read(int partitionId, Function<HostedPartition, Function<io.cairn.db.CairnDb, T>> reader) {
    HostedPartition hosted = partition(partitionId);
    return hosted
        .partition()
        .readState(reader.apply(hosted))
        .orTimeout(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
        .join();
  }

  /** Every account of every partition and its balance. */
  Map<String, Long> balances() {
    Map<String, Long> balances = new TreeMap<>();
    for (int p = 1; p <= partitionCount; p++) {
      balances.putAll(
          read(p, hosted -> db -> hosted.ledger().engine().orElseThrow().state().balances()));
    }
    return balances;
  }

  List<PendingCredit> pendingCredits(int partitionId) {
    return read(
        partitionId,
        hosted -> db -> hosted.ledger().engine().orElseThrow().state().pendingCredits());
  }

  boolean nothingPending() {
    for (int p = 1; p <= partitionCount; p++) {
      if (!pendingCredits(p).isEmpty()) {
        return false;
      }
    }
    return true;
  }

  Optional<Checkpoint> latestCheckpoint(int partitionId) {
    return read(partitionId, hosted -> db -> CheckpointState.of(db).latestCheckpoint());
  }

  /** Waits until the balances are {@code expected} and no credit is pending. */
  void awaitBalances(Map<String, Long> expected) {
    await("balances " + expected)
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(20))
        .until(() -> balances().equals(expected) && nothingPending());
  }

  void awaitCheckpoint(int partitionId, long id) {
    await("checkpoint " + id + " on partition " + partitionId)
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(20))
        .until(() -> latestCheckpoint(partitionId).map(c -> c.id() >= id).orElse(false));
  }

  void takeSnapshot(int partitionId) {
    partition(partitionId)
        .partition()
        .takeSnapshot()
        .orTimeout(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
        .join()
        .orElseThrow(() -> new AssertionError("no snapshot taken on partition " + partitionId));
  }

  AccountPlacement placement() {
    return new AccountPlacement(partitionCount);
  }

  /** {@code count} account ids that live on {@code partitionId}. */
  List<String> accountsOn(int partitionId, String prefix, int count) {
    List<String> ids = new java.util.ArrayList<>();
    for (int i = 0; ids.size() < count; i++) {
      String id = prefix + "-" + i;
      if (placement().partitionOf(id) == partitionId) {
        ids.add(id);
      }
    }
    return ids;
  }

  @Override
  public void close() {
    cluster.close();
  }
}
