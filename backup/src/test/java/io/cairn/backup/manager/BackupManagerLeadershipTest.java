package io.cairn.backup.manager;

import static io.cairn.backup.manager.BackupTestPartition.TIMEOUT;
import static io.cairn.backup.manager.BackupTestPartition.checkpoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.backup.BackupConfig;
import io.cairn.backup.BackupManager;
import io.cairn.backup.BackupMetrics;
import io.cairn.backup.BackupMetrics.Operation;
import io.cairn.backup.BackupMetrics.Result;
import io.cairn.backup.BackupOutcome;
import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backuptestkit.FifoGate;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Leader changes, leadership loss, and a store that fails in the middle of an upload. */
final class BackupManagerLeadershipTest {

  @TempDir Path directory;
  private BackupTestPartition partition;

  @BeforeEach
  void open() throws IOException {
    partition = new BackupTestPartition(directory);
  }

  @AfterEach
  void close() {
    partition.close();
  }

  @Test
  void shouldMarkEveryInProgressBackupOfThePartitionFailedWhenANewLeaderStarts() throws Exception {
    // given an earlier leader left two backups of partition 1 IN_PROGRESS (its saves are stuck),
    // and partition 2 has one IN_PROGRESS too
    List<FifoGate> gates = new ArrayList<>();
    List<CompletableFuture<BackupSaveResult>> stuck = new ArrayList<>();
    List<BackupIdentifier> ids =
        List.of(
            new BackupIdentifier(0, 1, 3),
            new BackupIdentifier(0, 1, 4),
            new BackupIdentifier(0, 2, 4));
    try {
      for (BackupIdentifier id : ids) {
        FifoGate gate =
            FifoGate.create(
                directory.resolve("fifo-" + id.partitionId() + "-" + id.checkpointId()));
        gates.add(gate);
        stuck.add(partition.fsStore.save(stuckBackup(id, gate)));
        gate.awaitReader(TIMEOUT);
      }
      BackupMetrics metrics =
          new BackupMetrics(partition.registry, BackupTestPartition.PARTITION, partition.clock);

      // when a new leader of partition 1 starts on another node
      partition.startManager(1, BackupConfig.defaults(), metrics);

      // then both of partition 1 are FAILED (LEADER_CHANGED), partition 2's is untouched
      for (BackupIdentifier id : ids.subList(0, 2)) {
        BackupStatus status = partition.fsStore.getStatus(id).join();
        assertThat(status.statusCode()).as("%s", id).isEqualTo(BackupStatusCode.FAILED);
        assertThat(status.failureReason()).contains(BackupManager.LEADER_CHANGED);
      }
      assertThat(partition.fsStore.getStatus(ids.get(2)).join().statusCode())
          .isEqualTo(BackupStatusCode.IN_PROGRESS);
      assertThat(metrics.operationCount(Operation.MARK_FAILED, Result.SUCCESS)).isEqualTo(2);

      // and the stuck saves, once they go on, cannot complete them
      for (FifoGate gate : gates) {
        gate.write(new byte[] {1, 2, 3, 4});
      }
      for (int i = 0; i < ids.size(); i++) {
        CompletableFuture<BackupSaveResult> save =
            stuck.get(i).orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        if (i < 2) {
          assertThat(save).failsWithin(TIMEOUT);
          assertThat(partition.fsStore.getStatus(ids.get(i)).join().statusCode())
              .isEqualTo(BackupStatusCode.FAILED);
        } else {
          assertThat(save.join().status().statusCode()).isEqualTo(BackupStatusCode.COMPLETED);
        }
      }
    } finally {
      for (FifoGate gate : gates) {
        gate.close();
      }
    }
  }

  @Test
  void shouldSweepAgainUntilTheStoreAnswersWhenANewLeaderStarts() throws Exception {
    // given an earlier leader left a backup of partition 1 IN_PROGRESS (its save is stuck)
    BackupIdentifier id = new BackupIdentifier(0, 1, 3);
    try (FifoGate gate = FifoGate.create(directory.resolve("fifo"))) {
      CompletableFuture<BackupSaveResult> stuck = partition.fsStore.save(stuckBackup(id, gate));
      gate.awaitReader(TIMEOUT);
      // and the store fails the new leader's first listing and first mark
      partition.store.failLists(1);
      partition.store.failMarks(1);
      BackupMetrics metrics =
          new BackupMetrics(partition.registry, BackupTestPartition.PARTITION, partition.clock);

      // when a new leader of partition 1 starts on another node (ready: a sweep succeeded)
      BackupManager manager = partition.startManager(1, BackupConfig.defaults(), metrics);

      // then it swept three times (listing failed; mark failed; both done) and the backup is
      // FAILED (LEADER_CHANGED), not left IN_PROGRESS
      BackupStatus status = partition.fsStore.getStatus(id).join();
      assertThat(status.statusCode()).isEqualTo(BackupStatusCode.FAILED);
      assertThat(status.failureReason()).contains(BackupManager.LEADER_CHANGED);
      assertThat(events("store.list ")).isEqualTo(3);
      assertThat(events("store.markFailed 3")).isEqualTo(2);
      assertThat(metrics.operationCount(Operation.MARK_FAILED, Result.FAILURE)).isEqualTo(1);
      assertThat(metrics.operationCount(Operation.MARK_FAILED, Result.SUCCESS)).isEqualTo(1);

      // and its own backups reach the store (after the sweep)
      long last = partition.appendEntries(5);
      BackupOutcome outcome =
          manager
              .takeBackup(checkpoint(4, last))
              .orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS)
              .join();
      assertThat(outcome.kind()).isEqualTo(BackupOutcome.Kind.COMPLETED);
      gate.write(new byte[] {1, 2, 3, 4});
      assertThat(stuck.orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).failsWithin(TIMEOUT);
    }
  }

  @Test
  void shouldStopSweepingAndFailReadyWhenLeadershipIsLostFirst() {
    // given a store that cannot be listed, and a new leader sweeping it again and again
    partition.store.failLists(Integer.MAX_VALUE);
    BackupManager manager = partition.newManager(1, BackupConfig.defaults());
    partition.scheduler.start(manager).join();
    await().atMost(TIMEOUT).until(() -> events("store.list ") >= 2);

    // when leadership is lost before a sweep succeeded
    manager.closeAsync().orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();
    long listed = events("store.list ");

    // then ready() fails, and no more attempts reach the store
    assertThat(manager.ready()).isCompletedExceptionally();
    await()
        .during(Duration.ofMillis(800))
        .atMost(TIMEOUT)
        .until(() -> events("store.list ") == listed);
  }

  @Test
  void shouldStopUploadsAndReleaseWhatTheyHoldWhenLeadershipIsLost() {
    // given an upload held in the store and a second backup waiting for its turn
    partition.appendEntries(30);
    PersistedSnapshot snapshot =
        partition.snapshot(10, 28, 30, Map.of("000001.sst", partition.bytes(3000)));
    long last = partition.appendEntries(20);
    BackupManager manager =
        partition.startManager(0, BackupConfig.builder().maxConcurrentBackups(1).build());
    CompletableFuture<Void> saves = partition.store.holdSaves();
    CompletableFuture<BackupOutcome> running = manager.takeBackup(checkpoint(1, last - 4));
    CompletableFuture<BackupOutcome> waiting = manager.takeBackup(checkpoint(2, last - 1));
    await().atMost(TIMEOUT).until(() -> partition.store.saved().size() == 1);

    // when leadership is lost (then the held save goes on, once the store has the running
    // backup FAILED: closing only asks the store to mark it, it does not wait for that)
    manager.closeAsync().orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();
    BackupOutcome waited = waiting.orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();
    await()
        .atMost(TIMEOUT)
        .until(() -> partition.status(0, 1).statusCode() == BackupStatusCode.FAILED);
    saves.complete(null);
    BackupOutcome ran = running.orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();

    // then both failed with LEADER_CHANGED, the waiting one never reached a save
    assertThat(waited.kind()).isEqualTo(BackupOutcome.Kind.FAILED);
    assertThat(waited.reason()).contains(BackupManager.LEADER_CHANGED);
    assertThat(ran.kind()).isEqualTo(BackupOutcome.Kind.FAILED);
    assertThat(partition.store.saved()).hasSize(1);
    for (long id : List.of(1L, 2L)) {
      BackupStatus status = partition.status(0, id);
      assertThat(status.statusCode()).isEqualTo(BackupStatusCode.FAILED);
      assertThat(status.failureReason()).contains(BackupManager.LEADER_CHANGED);
    }
    assertThat(partition.confirmations()).isEmpty();

    // and the snapshot and the log are free again: a newer snapshot (one that stands for itself,
    // so retention keeps no base for it) replaces the old one
    PersistedSnapshot newer =
        partition.snapshot(40, last + 2, last + 1, Map.of("000002.sst", partition.bytes(100)));
    assertThat(partition.realSnapshots.snapshots())
        .extracting(PersistedSnapshot::id)
        .containsExactly(newer.id())
        .doesNotContain(snapshot.id());
    assertThat(partition.realSnapshots.compactionBoundIndex()).isEqualTo(40);
  }

  @Test
  void shouldFailWithReasonAndNeverCompleteWhenTheStoreFailsMidUpload() throws IOException {
    // given a backup whose save is under way
    partition.appendEntries(30);
    PersistedSnapshot snapshot =
        partition.snapshot(10, 28, 30, Map.of("000001.sst", partition.bytes(20_000)));
    long checkpointPosition = partition.appendEntries(10) - 1;
    BackupMetrics metrics =
        new BackupMetrics(partition.registry, BackupTestPartition.PARTITION, partition.clock);
    BackupManager manager = partition.startManager(0, BackupConfig.defaults(), metrics);
    CompletableFuture<Void> saves = partition.store.holdSaves();
    CompletableFuture<BackupOutcome> outcome =
        manager.takeBackup(checkpoint(1, checkpointPosition));
    await().atMost(TIMEOUT).until(() -> partition.store.saved().size() == 1);

    // when a source file breaks before the store reads it (a disk fault)
    SnapshotFile table =
        snapshot.files().stream()
            .filter(f -> f.name().equals("000001.sst"))
            .findFirst()
            .orElseThrow();
    try (FileChannel channel = FileChannel.open(table.path(), StandardOpenOption.WRITE)) {
      channel.truncate(100);
    }
    saves.complete(null);

    // then the backup failed with the store's reason, and is FAILED in the store
    BackupOutcome failed = outcome.orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();
    assertThat(failed.kind()).isEqualTo(BackupOutcome.Kind.FAILED);
    assertThat(failed.reason().orElseThrow()).contains("000001.sst");
    BackupStatus status = partition.status(0, 1);
    assertThat(status.statusCode()).isEqualTo(BackupStatusCode.FAILED);
    assertThat(status.failureReason().orElseThrow()).contains("000001.sst");
    assertThat(partition.confirmations()).isEmpty();
    assertThat(metrics.operationCount(Operation.TAKE, Result.FAILED)).isEqualTo(1);
    assertThat(metrics.operationCount(Operation.TAKE, Result.COMPLETED)).isZero();
    assertThat(metrics.inProgress()).isZero();
    assertThat(
            partition.registry.get(BackupMetrics.DURATION).tag("result", "failed").timer().count())
        .isEqualTo(1);
  }

  @Test
  void shouldMarkAFailedBackupFailedAgainUntilTheStoreTakesTheMark() throws Exception {
    // given a backup whose save reaches the store (IN_PROGRESS there) but whose answer is lost,
    // and a store that fails the next two marks
    long checkpointPosition = partition.appendEntries(10) - 1;
    BackupMetrics metrics =
        new BackupMetrics(partition.registry, BackupTestPartition.PARTITION, partition.clock);
    BackupManager manager = partition.startManager(0, BackupConfig.defaults(), metrics);
    try (FifoGate gate = FifoGate.create(directory.resolve("fifo"))) {
      partition.store.loseNextSaveAnswer(gate.path());
      partition.store.failMarks(2);

      // when the backup is taken
      BackupOutcome failed =
          manager
              .takeBackup(checkpoint(1, checkpointPosition))
              .orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS)
              .join();
      gate.awaitReader(TIMEOUT);

      // then it ends FAILED at once (its reservation released) while the store still has it
      // IN_PROGRESS, and the manager marks it again, with backoff, until the store takes the mark:
      // FAILED with the save's reason, not IN_PROGRESS until the next change of leader
      assertThat(failed.kind()).isEqualTo(BackupOutcome.Kind.FAILED);
      await()
          .atMost(TIMEOUT)
          .until(() -> partition.status(0, 1).statusCode() == BackupStatusCode.FAILED);
      assertThat(partition.status(0, 1).failureReason().orElseThrow())
          .contains("the answer to the save was lost");
      assertThat(events("store.markFailed 1")).isEqualTo(3);
      assertThat(metrics.operationCount(Operation.MARK_FAILED, Result.FAILURE)).isEqualTo(2);
      assertThat(metrics.operationCount(Operation.MARK_FAILED, Result.SUCCESS)).isEqualTo(1);
      assertThat(metrics.operationCount(Operation.TAKE, Result.FAILED)).isEqualTo(1);
    }
  }

  @Test
  void shouldNotTakeBackupsOnceClosed() {
    // given
    long last = partition.appendEntries(5);
    BackupManager manager = partition.startManager(0, BackupConfig.defaults());
    manager.closeAsync().join();

    // when
    BackupOutcome outcome =
        manager
            .takeBackup(checkpoint(1, last))
            .orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS)
            .join();

    // then nothing was reserved or stored
    assertThat(outcome.kind()).isEqualTo(BackupOutcome.Kind.FAILED);
    assertThat(partition.firstEvent("snapshots.hold")).isNegative();
    assertThat(partition.status(0, 1).exists()).isFalse();
  }

  /** How many store and snapshot events start with {@code prefix}. */
  private long events(String prefix) {
    synchronized (partition.events) {
      return partition.events.stream().filter(event -> event.startsWith(prefix)).count();
    }
  }

  private static Backup stuckBackup(BackupIdentifier id, FifoGate gate) {
    return Backup.builder(id)
        .checkpointPosition(10)
        .numberOfPartitions(BackupTestPartition.PARTITION_COUNT)
        .brokerVersion(BackupTestPartition.VERSION)
        .stateDigest("0a")
        .segments(NamedFileSet.of(new BackupFile("raft-partition-1.log", gate.path(), 4)))
        .build();
  }
}
