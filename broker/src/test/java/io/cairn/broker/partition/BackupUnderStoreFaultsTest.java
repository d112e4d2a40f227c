package io.cairn.broker.partition;

import static io.cairn.broker.partition.TestLedgerComponent.command;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backup.BackupConfig;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.BackupStore;
import io.cairn.backupapi.PageRequest;
import io.cairn.backupapi.VerificationReport;
import io.cairn.backupapi.content.CompressionPolicy;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.backuptestkit.FaultyObjectLayer;
import io.cairn.backuptestkit.FaultyObjectLayer.Fault;
import io.cairn.backuptestkit.InMemoryBackupStore;
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
import io.cairn.restore.BackupSelector;
import io.cairn.restore.BackupVerifier;
import io.cairn.restore.VerifyReport;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backups of a three-member partition (real raft, ledger, checkpoints, snapshots and backup
 * manager, on the deterministic scheduler) to an in-memory store that fails as object stores do
 * ({@link FaultyObjectLayer}: calls failing, answers lost, uploads broken off half way, listings
 * lagging) and answers late, while the leader is stopped and started again. Seeded: a failing seed
 * is named and runs again with {@code -Dcairn.seed=N}; 6 seeds, 200 with {@code -Psimulation}.
 *
 * <p>Whatever happens, a backup the store shows COMPLETED must hold every object its manifest
 * lists, intact ({@code verify}); two of them per seed (the newest and one chosen by the seed) are
 * restored and rebuilt by replaying their log, and must reach the state digest recorded at their
 * checkpoint; once the faults stop, no backup may stay IN_PROGRESS, and the next backup completes.
 * The negative control: a store that answers an upload as done without keeping it ({@link
 * Fault#LOSE_WRITE}) is caught.
 */
final class BackupUnderStoreFaultsTest {
  private static final int STEPS = 300;
  private static final Duration STEP = Duration.ofMillis(50);

  @TempDir Path directory;

  @Test
  void shouldNeverShowACompletedBackupWithAMissingOrCorruptObject() {
    int completed = 0;
    int faults = 0;
    for (long seed : seeds(Boolean.getBoolean("cairn.simulation.long") ? 200 : 6)) {
      Run run = new Run(directory.resolve("seed-" + seed), seed, false);
      try {
        run.run();
        List<BackupStatus> statuses = run.settledStatuses();
        System.out.printf(
            "BackupUnderStoreFaultsTest: seed %d: %d faults injected; backups %s; failed because %s%n",
            seed,
            run.layer.faultsInjected(),
            statuses.stream().map(s -> s.id().checkpointId() + " " + s.statusCode()).toList(),
            statuses.stream()
                .flatMap(s -> s.failureReason().stream())
                .map(reason -> reason.length() > 60 ? reason.substring(0, 60) : reason)
                .collect(
                    Collectors.groupingBy(reason -> reason, TreeMap::new, Collectors.counting())));
        completed += run.verifyCompleted(statuses);
        List<Long> rebuilt = rebuiltBackups(statuses, seed);
        for (long backupId : rebuilt) {
          VerifyReport report = run.rebuild(backupId);
          assertThat(report.isClean())
              .as("seed %d: backup %d rebuilt to its digest: %s", seed, backupId, report.describe())
              .isTrue();
          System.out.printf(
              "BackupUnderStoreFaultsTest: seed %d: backup %d rebuilt to digest %s%n",
              seed, backupId, report.partitions().get(0).actualDigest().orElseThrow());
        }
        assertThat(statuses)
            .as("seed %d: the backup taken after the faults stopped", seed)
            .filteredOn(status -> status.id().checkpointId() == run.nextCheckpointId - 1)
            .extracting(BackupStatus::statusCode)
            .containsExactly(BackupStatusCode.COMPLETED);
        faults += run.layer.faultsInjected();
      } finally {
        run.close();
      }
    }
    assertThat(completed).as("backups completed despite the faults").isPositive();
    assertThat(faults).as("faults injected").isPositive();
  }

  @Test
  void shouldCatchAStoreThatLosesUploads() {
    long seed = 4242;
    Run run = new Run(directory.resolve("lossy"), seed, true);
    try {
      run.run();
      assertThatThrownBy(() -> run.verifyCompleted(run.settledStatuses()))
          .as("a COMPLETED backup missing objects is found (seed %d)", seed)
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("MISSING");
    } finally {
      run.close();
    }
  }

  /** The newest completed backup and one other chosen by the seed: each is rebuilt in full. */
  private static List<Long> rebuiltBackups(List<BackupStatus> statuses, long seed) {
    List<Long> completed =
        statuses.stream()
            .filter(status -> status.statusCode() == BackupStatusCode.COMPLETED)
            .map(status -> status.id().checkpointId())
            .sorted()
            .toList();
    if (completed.size() < 2) {
      return completed;
    }
    long other = completed.get(new SplittableRandom(seed).nextInt(completed.size() - 1));
    return List.of(other, completed.get(completed.size() - 1));
  }

  private static long[] seeds(int count) {
    String fixed = System.getProperty("cairn.seed");
    if (fixed != null) {
      return new long[] {Long.parseLong(fixed)};
    }
    long[] seeds = new long[count];
    for (int i = 0; i < count; i++) {
      seeds[i] = 7_001 + i;
    }
    return seeds;
  }

  /** One seed's cluster, store and workload. */
  private static final class Run {
    final Path directory;
    final long seed;
    final boolean losesUploads;
    final SplittableRandom random;
    final InMemoryBackupStore.Storage storage = new InMemoryBackupStore.Storage();
    final PartitionCluster cluster;
    FaultyObjectLayer layer;
    BackupStore store;
    long nextCheckpointId = 1;
    long nextRequestId = 100;
    Partition stopped;

    Run(Path directory, long seed, boolean losesUploads) {
      this.directory = directory;
      this.seed = seed;
      this.losesUploads = losesUploads;
      this.random = new SplittableRandom(seed);
      cluster =
          new PartitionCluster(
              directory,
              seed,
              3,
              PartitionCluster.CONFIG,
              (running, member) -> components(running));
    }

    private List<PartitionComponent> components(PartitionCluster running) {
      if (store == null) {
        SplittableRandom delays = new SplittableRandom(seed ^ 0x5EED);
        // every store call answers after up to 200 ms of simulated time
        Executor late =
            task -> running.scheduler.schedule(Duration.ofMillis(delays.nextInt(200)), task);
        store =
            new InMemoryBackupStore(
                storage,
                CompressionPolicy.none(),
                BackupEncryption.off(),
                running.clock,
                late,
                objects -> layer = new FaultyObjectLayer(objects));
      }
      return List.of(
          new BackupComponent(
              Optional.of(store), BackupConfig.defaults(), 1, running.scheduler.executor()),
          new LedgerComponent(
              LedgerEngineConfig.of(1), InterPartitionSender.NONE, BackupComponent::checkpointIds));
    }

    void run() {
      Partition leader = cluster.awaitLeader();
      write(leader, command(AccountIntent.CREATE, new AccountValue("a", 0), nextRequestId++));
      write(leader, command(AccountIntent.CREATE, new AccountValue("b", 0), nextRequestId++));
      write(
          leader,
          command(DepositIntent.DEPOSIT, new DepositValue("a", 1_000_000), nextRequestId++));
      if (losesUploads) {
        layer.plan(operation -> operation.equals("put") ? Fault.LOSE_WRITE : Fault.NONE);
      }
      for (int step = 0; step < STEPS; step++) {
        leader = step(leader);
        cluster.run(STEP);
      }
      layer.plan(FaultyObjectLayer.FaultPlan.NONE);
      if (stopped != null) {
        cluster.restart(stopped.nodeId());
        stopped = null;
      }
      leader = cluster.awaitLeader();
      // one more backup without faults: backups still complete after all that
      checkpoint(leader);
    }

    private Partition step(Partition leader) {
      int dice = random.nextInt(100);
      if (leader.role() != PartitionRole.LEADER) {
        return cluster.awaitLeader();
      }
      if (dice < 50) {
        boolean deposit = random.nextBoolean();
        write(
            leader,
            deposit
                ? command(
                    DepositIntent.DEPOSIT,
                    new DepositValue(random.nextBoolean() ? "a" : "b", 1 + random.nextInt(1_000)),
                    nextRequestId++)
                : transfer(random.nextBoolean()));
      } else if (dice < 60) {
        checkpoint(leader);
      } else if (dice < 64) {
        cluster.await(leader.takeSnapshot(), "a snapshot, seed " + seed);
      } else if (dice < 67 && stopped == null) {
        stopped = leader;
        cluster.stop(leader.nodeId());
        return cluster.awaitLeaderOtherThan(leader);
      } else if (dice < 72 && stopped != null) {
        cluster.restart(stopped.nodeId());
        stopped = null;
      } else if (dice < 78 && !losesUploads) {
        layer.plan(
            random.nextBoolean() ? faults(random.split()) : FaultyObjectLayer.FaultPlan.NONE);
      }
      return leader;
    }

    /** A third of the store's calls fail, in every way the layer knows. */
    private static FaultyObjectLayer.FaultPlan faults(SplittableRandom dice) {
      return FaultyObjectLayer.FaultPlan.storeFailures(dice, 12);
    }

    private void checkpoint(Partition leader) {
      write(
          leader,
          command(
              CheckpointIntent.CREATE,
              new CheckpointValue(
                  nextCheckpointId++, RecordMetadata.NO_POSITION, RecordMetadata.NO_TIMESTAMP),
              nextRequestId++));
    }

    private void write(Partition leader, Record command) {
      try {
        cluster.write(leader, command);
      } catch (AssertionError e) {
        // the leader stepped down meanwhile: the command is lost, as a client's would be
      }
    }

    private Record transfer(boolean fromA) {
      return command(
          TransferIntent.CREATE,
          new TransferValue(
              fromA ? "a" : "b",
              fromA ? "b" : "a",
              1 + random.nextInt(100),
              ValueDescriptor.NO_PARTITION_ID,
              ValueDescriptor.NO_PARTITION_ID),
          nextRequestId++);
    }

    /** Every backup in the store once none is IN_PROGRESS any more (bounded). */
    List<BackupStatus> settledStatuses() {
      long last = nextCheckpointId - 1;
      List<BackupStatus> statuses = new ArrayList<>();
      cluster.runUntil(
          () -> {
            statuses.clear();
            statuses.addAll(
                cluster
                    .await(
                        store.list(BackupIdentifierWildcard.all(), PageRequest.first(1_000)),
                        "the listing, seed " + seed)
                    .statuses());
            return statuses.stream().anyMatch(status -> status.id().checkpointId() == last)
                && statuses.stream()
                    .noneMatch(status -> status.statusCode() == BackupStatusCode.IN_PROGRESS);
          },
          Duration.ofSeconds(60),
          "backup "
              + last
              + " taken and every backup COMPLETED or FAILED after the faults stopped, seed "
              + seed);
      return List.copyOf(statuses);
    }

    /**
     * Restores backup {@code backupId} into a scratch directory, rebuilds its state by replaying
     * its log and compares the digest recorded at its checkpoint; through a second, fault-free
     * store on the same bytes that answers on the calling thread (the verifier waits for it).
     */
    VerifyReport rebuild(long backupId) {
      InMemoryBackupStore direct =
          new InMemoryBackupStore(
              storage,
              CompressionPolicy.none(),
              BackupEncryption.off(),
              cluster.clock,
              Runnable::run);
      try {
        return BackupVerifier.builder()
            .store(direct)
            .meterRegistry(new SimpleMeterRegistry())
            .build()
            .verify(
                BackupSelector.exact(backupId), directory.resolve("rebuild-" + backupId), false);
      } finally {
        direct.close();
      }
    }

    /** Verifies every COMPLETED backup among {@code statuses}: each must be clean. */
    int verifyCompleted(List<BackupStatus> statuses) {
      int completed = 0;
      for (BackupStatus status : statuses) {
        if (status.statusCode() == BackupStatusCode.COMPLETED) {
          VerificationReport report =
              cluster.await(store.verify(status.id()), "verify " + status.id() + ", seed " + seed);
          assertThat(report.isClean())
              .as("seed %d: COMPLETED %s verifies: %s", seed, status.id(), report.describe())
              .isTrue();
          completed++;
        }
      }
      return completed;
    }

    void close() {
      cluster.close();
      if (store != null) {
        store.close();
      }
    }
  }
}
