package io.cairn.backup.manager;

import static io.cairn.backup.manager.BackupManagerTest.take;
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
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.FileSetKind;
import io.cairn.journal.JournalConfig;
import io.cairn.journal.SegmentedJournal;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotId;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reservation at checkpoint time, before the store is called (LESSONS.md, camunda#63806), the
 * compaction hold, and backups that cannot find what they need.
 */
final class BackupManagerReservationTest {

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
  void shouldReserveBeforeAnyStoreCallSoASnapshotTakenMeanwhileNeverFailsTheBackup() {
    // given the only usable snapshot, and a store that answers slowly
    partition.appendEntries(40);
    PersistedSnapshot usable =
        partition.snapshot(10, 28, 30, Map.of("000001.sst", partition.bytes(2000)));
    long checkpointPosition = partition.appendEntries(20) - 1; // entry 60
    BackupManager manager = partition.startManager(0, BackupConfig.defaults());
    int eventsBefore = partition.events.size();
    CompletableFuture<Void> calls = partition.store.holdCalls();

    // when the checkpoint is taken, then a snapshot after it (retention keeps one), and the log
    // is compacted as far as the snapshot store allows, all before the store answers
    CompletableFuture<BackupOutcome> outcome =
        manager.takeBackup(checkpoint(1, checkpointPosition));
    partition.appendEntries(10);
    PersistedSnapshot later =
        partition.snapshot(
            65,
            checkpointPosition + 12,
            checkpointPosition + 10, // stands for itself: retention keeps no base for it
            Map.of("000002.sst", partition.bytes(2000)));
    partition.journal.deleteUntil(partition.realSnapshots.compactionBoundIndex());
    calls.complete(null);

    // then the reservation came first and kept the usable snapshot for the backup
    assertThat(outcome.orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join().kind())
        .isEqualTo(BackupOutcome.Kind.COMPLETED);
    assertThat(partition.store.saved().get(0).descriptor().snapshotId())
        .contains(usable.id().toString());
    List<String> events = partition.events.subList(eventsBefore, partition.events.size());
    int reserved = indexOf(events, "snapshots.reserve " + usable.id());
    int firstStoreCall = indexOf(events, "store.");
    assertThat(reserved).isNotNegative();
    assertThat(firstStoreCall).isGreaterThan(reserved);

    // and once done it released the snapshot: retention deletes it, compaction may go on
    assertThat(ids(partition.realSnapshots.snapshots())).containsExactly(later.id());
    assertThat(partition.realSnapshots.compactionBoundIndex()).isEqualTo(65);
  }

  @Test
  void shouldHoldTheLogUnderAnInFlightBackupUntilItEnds() {
    // given a log-only backup held in the middle of its upload
    long checkpointPosition = partition.appendEntries(40) - 1;
    BackupManager manager = partition.startManager(0, BackupConfig.defaults());
    CompletableFuture<Void> saves = partition.store.holdSaves();
    CompletableFuture<BackupOutcome> outcome =
        manager.takeBackup(checkpoint(1, checkpointPosition));
    await().atMost(TIMEOUT).until(() -> partition.store.saved().size() == 1);

    // when a snapshot after the checkpoint would let the log be compacted
    partition.appendEntries(10);
    partition.snapshot(
        45, checkpointPosition + 12, checkpointPosition + 12, Map.of("t", partition.bytes(100)));
    long boundDuring = partition.realSnapshots.compactionBoundIndex();
    boolean deletedDuring = partition.journal.deleteUntil(boundDuring);
    saves.complete(null);

    // then nothing under the backup was compacted, and it completed
    assertThat(boundDuring).isEqualTo(1);
    assertThat(deletedDuring).isFalse();
    assertThat(partition.journal.getFirstIndex()).isEqualTo(1);
    assertThat(outcome.orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join().kind())
        .isEqualTo(BackupOutcome.Kind.COMPLETED);
    // and afterwards the hold is gone
    assertThat(partition.realSnapshots.compactionBoundIndex()).isEqualTo(45);
    assertThat(partition.journal.deleteUntil(45)).isTrue();
  }

  @Test
  void shouldBackUpAMemberWhoseLogStartsAfterItsSnapshotAsAfterAnInstall() throws IOException {
    // given what a member holds after installing its leader's snapshot: the snapshot at index 40,
    // and a log that raft reset to start right after it (entry 40 itself is gone)
    long installedPosition = partition.appendEntries(40);
    partition.journal.reset(41);
    PersistedSnapshot installed =
        partition.snapshot(
            40, installedPosition - 1, installedPosition, Map.of("t", partition.bytes(100)));
    long checkpointPosition = partition.appendEntries(20);
    assertThat(partition.journal.getFirstIndex()).isEqualTo(41);
    BackupManager manager = partition.startManager(0, BackupConfig.defaults());

    // when it leads and takes a backup
    BackupOutcome outcome = take(manager, checkpoint(3, checkpointPosition));

    // then the backup holds the snapshot and the log from the entry after it, and restores
    assertThat(outcome.kind()).as("outcome %s", outcome).isEqualTo(BackupOutcome.Kind.COMPLETED);
    Backup saved = partition.store.saved().get(0);
    assertThat(saved.descriptor().snapshotId()).contains(installed.id().toString());
    Backup restored = partition.restore(0, 3, directory.resolve("restored"));
    Path firstSegment = restored.files(FileSetKind.SEGMENTS).files().get(0).path();
    try (SegmentedJournal journal =
        SegmentedJournal.open(
            JournalConfig.builder()
                .directory(firstSegment.getParent())
                .name("raft-partition-1")
                .build(),
            new SimpleMeterRegistry())) {
      assertThat(journal.getFirstIndex()).isEqualTo(41);
      assertThat(journal.getLastIndex()).isEqualTo(60);
    }
  }

  @Test
  void shouldBackUpACheckpointAppendedBeforeTheFollowUpsOfTheNewestSnapshot() {
    // given a snapshot wholly below the checkpoint (entry 10), the checkpoint at entry 50, and a
    // newer snapshot whose last command (entry 45) was processed before the checkpoint but whose
    // follow-ups were written after it (entry 55), then the log compacted as far as allowed
    partition.appendEntries(60);
    PersistedSnapshot base =
        partition.snapshot(10, 28, 30, Map.of("000001.sst", partition.bytes(2000)));
    long checkpointPosition = 150;
    PersistedSnapshot newest =
        partition.snapshot(45, 135, 165, Map.of("000002.sst", partition.bytes(2000)));
    partition.journal.deleteUntil(partition.realSnapshots.compactionBoundIndex());
    BackupManager manager = partition.startManager(0, BackupConfig.defaults());

    // when the checkpoint is processed
    BackupOutcome outcome = take(manager, checkpoint(4, checkpointPosition));

    // then retention had kept the older snapshot and the log from it, and the backup starts there
    assertThat(outcome.kind()).isEqualTo(BackupOutcome.Kind.COMPLETED);
    assertThat(partition.store.saved().get(0).descriptor().snapshotId())
        .contains(base.id().toString());
    assertThat(ids(partition.realSnapshots.snapshots())).containsExactly(base.id(), newest.id());
  }

  @Test
  void shouldBackUpACheckpointBetweenTheFirstSnapshotsPositionsFromTheLogsStart() {
    // given the partition's first snapshot, whose last command (entry 45) was processed before
    // the checkpoint (entry 50) but whose follow-ups were written after it (entry 55), then the
    // log compacted as far as allowed
    partition.appendEntries(60);
    PersistedSnapshot first =
        partition.snapshot(45, 135, 165, Map.of("000001.sst", partition.bytes(2000)));
    partition.journal.deleteUntil(partition.realSnapshots.compactionBoundIndex());
    BackupManager manager = partition.startManager(0, BackupConfig.defaults());

    // when the checkpoint is processed
    BackupOutcome outcome = take(manager, checkpoint(5, 150));

    // then the log had been kept from its start, and the backup replays it without a snapshot
    assertThat(outcome.kind()).isEqualTo(BackupOutcome.Kind.COMPLETED);
    assertThat(partition.journal.getFirstIndex()).isEqualTo(1);
    assertThat(partition.store.saved().get(0).descriptor().snapshotId()).isEmpty();
    assertThat(ids(partition.realSnapshots.snapshots())).containsExactly(first.id());
  }

  @Test
  void shouldFailSnapshotUnavailableWhenTheReservedSnapshotsLogIsGone() {
    // given a usable snapshot whose log is gone, as when a snapshot installed from the leader
    // reset the log past it (the older one kept as the installed one's base)
    partition.appendEntries(60);
    partition.snapshot(10, 28, 30, Map.of("000001.sst", partition.bytes(2000)));
    partition.journal.deleteUntil(41);
    assertThat(partition.journal.getFirstIndex()).isGreaterThan(11);
    BackupManager manager = partition.startManager(0, BackupConfig.defaults());

    // when
    BackupOutcome outcome = take(manager, checkpoint(8, 150));

    // then it failed naming the snapshot, not the upload
    assertThat(outcome.kind()).isEqualTo(BackupOutcome.Kind.FAILED);
    assertThat(outcome.reason().orElseThrow())
        .startsWith("SNAPSHOT_UNAVAILABLE: ")
        .contains("the log to hold index 11 (the start of the backup)");
    assertThat(partition.store.saved()).isEmpty();
  }

  @Test
  void shouldFailWithReasonWhenNoSnapshotIsUsableAndTheLogIsCompacted() {
    // given only a snapshot taken after the checkpoint, and a log compacted up to it
    partition.appendEntries(60);
    partition.snapshot(40, 500, 500, Map.of("t", partition.bytes(100)));
    partition.journal.deleteUntil(partition.realSnapshots.compactionBoundIndex());
    assertThat(partition.journal.getFirstIndex()).isGreaterThan(1);
    BackupMetrics metrics =
        new BackupMetrics(partition.registry, BackupTestPartition.PARTITION, partition.clock);
    BackupManager manager = partition.startManager(0, BackupConfig.defaults(), metrics);

    // when
    BackupOutcome outcome = take(manager, checkpoint(7, 150));

    // then it failed with the reason, in the store too, and never saved anything
    assertThat(outcome.kind()).isEqualTo(BackupOutcome.Kind.FAILED);
    assertThat(outcome.reason().orElseThrow())
        .startsWith("SNAPSHOT_UNAVAILABLE: ")
        .contains("no snapshot is usable")
        .contains("log starts at index " + partition.journal.getFirstIndex());
    BackupStatus status = partition.status(0, 7);
    assertThat(status.statusCode()).isEqualTo(BackupStatusCode.FAILED);
    assertThat(status.failureReason()).contains(outcome.reason().orElseThrow());
    assertThat(partition.store.saved()).isEmpty();
    assertThat(metrics.operationCount(Operation.TAKE, Result.FAILED)).isEqualTo(1);
    assertThat(metrics.inProgress()).isZero();
    assertThat(partition.realSnapshots.compactionBoundIndex()).isEqualTo(40); // hold released
  }

  private static int indexOf(List<String> events, String prefix) {
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).startsWith(prefix)) {
        return i;
      }
    }
    return -1;
  }

  private static List<SnapshotId> ids(List<PersistedSnapshot> snapshots) {
    return snapshots.stream().map(PersistedSnapshot::id).toList();
  }
}
