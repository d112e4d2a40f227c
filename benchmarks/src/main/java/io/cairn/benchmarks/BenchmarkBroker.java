package io.cairn.benchmarks;

import io.cairn.backup.Checkpoint;
import io.cairn.backup.CheckpointState;
import io.cairn.broker.Broker;
import io.cairn.broker.BrokerTestCluster;
import io.cairn.broker.HostedPartition;
import io.cairn.broker.partition.Partition;
import io.cairn.scheduler.Clock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The single-node broker of {@link RestoreBenchmark}: its configuration, start, and what the
 * benchmark reads from it.
 */
final class BenchmarkBroker {

  static final String CLUSTER_ID = "restore-benchmark";
  static final Duration TIMEOUT = Duration.ofMinutes(10);

  private static final Clock CLOCK = Clock.system();

  private BenchmarkBroker() {}

  /**
   * Opens and starts the broker on {@code dataDirectory} (a {@link BrokerTestCluster} of one node,
   * with the broker's own defaults, not the tests' tuning): the one taking the backup (with the
   * filesystem store at {@code store}) or one opened on a restored directory (no store: its
   * partitions still take checkpoint 1 again, but write no backup). Returns without waiting.
   */
  static BrokerTestCluster start(Path dataDirectory, Optional<Path> store, int partitions) {
    BrokerTestCluster.Builder broker =
        BrokerTestCluster.builder(dataDirectory)
            .clusterId(CLUSTER_ID)
            .partitions(partitions)
            .nodeDirectory(0, dataDirectory)
            .withoutTestTuning()
            .setting("network.ioThreads", "1")
            .setting("data.snapshotInterval", "1d")
            .setting("management.enabled", "false")
            .setting("processing.shutdownTimeout", "10s");
    store.ifPresentOrElse(broker::backupStore, broker::noBackupStore);
    return broker.build();
  }

  static Partition partition(Broker broker, int partitionId) {
    return broker.partitions().get(partitionId).orElseThrow().partition();
  }

  static boolean allLead(Broker broker) {
    return !broker.partitions().isEmpty()
        && broker.partitions().all().stream().allMatch(HostedPartition::isLeader);
  }

  static Optional<Checkpoint> latestCheckpoint(Broker broker, int partitionId) {
    try {
      return partition(broker, partitionId)
          .readState(db -> CheckpointState.of(db).latestCheckpoint())
          .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(
          "Expected to read partition " + partitionId + ", but " + e, e);
    }
  }

  /** Polls {@code condition} every 2 ms until true; fails after {@link #TIMEOUT}. */
  static void await(String what, Condition condition) {
    long deadline = CLOCK.nanos() + TIMEOUT.toNanos();
    try {
      while (!condition.call()) {
        if (CLOCK.nanos() > deadline) {
          throw new IllegalStateException(
              "Expected " + what + " within " + TIMEOUT + ", but it did not happen");
        }
        LockSupport.parkNanos(2_000_000);
      }
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("Expected " + what + ", but " + e, e);
    }
  }

  /** A condition that may throw. */
  @FunctionalInterface
  interface Condition {
    boolean call() throws Exception;
  }
}
