package io.cairn.backup.manager;

import static io.cairn.backup.manager.BackupTestPartition.TIMEOUT;
import static io.cairn.backup.manager.BackupTestPartition.checkpoint;
import static io.cairn.backup.manager.BackupTestPartition.indexOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.backup.BackupConfig;
import io.cairn.backup.BackupManager;
import io.cairn.backup.BackupMetrics;
import io.cairn.backup.BackupMetrics.Operation;
import io.cairn.backup.BackupMetrics.Result;
import io.cairn.backup.BackupOutcome;
import io.cairn.backup.Checkpoint;
import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backuptestkit.FifoGate;
import io.cairn.journal.JournalConfig;
import io.cairn.journal.JournalReader;
import io.cairn.journal.JournalRecord;
import io.cairn.journal.JournalSegmentFile;
import io.cairn.journal.SegmentedJournal;
import io.cairn.scheduler.LoggingContext;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotFile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.MDC;

/** The backup manager's main path on a real journal, snapshot store and filesystem store. */
final class BackupManagerTest {

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
  void shouldBackUpSnapshotAndSegmentsUpToCheckpointWithLengthsFixedAtBackupTime()
      throws IOException {
    // given a snapshot at index 10 and a log that goes on past the checkpoint
    partition.appendEntries(30);
    PersistedSnapshot snapshot =
        partition.snapshot(
            10,
            30,
            30,
            Map.of("000001.sst", partition.bytes(3000), "CURRENT", partition.bytes(16)));
    // the checkpoint's entry is the last one: its segment is the active one
    long checkpointPosition = partition.appendEntries(30) - 1;
    List<String> expectedSegments =
        overlapping(partition.journal.segmentFiles(), 10, indexOf(checkpointPosition));
    BackupMetrics metrics =
        new BackupMetrics(partition.registry, BackupTestPartition.PARTITION, partition.clock);
    BackupManager manager = partition.startManager(0, BackupConfig.defaults(), metrics);

    // when the backup runs while the log keeps growing between collecting and copying the files
    CompletableFuture<Void> saves = partition.store.holdSaves();
    Checkpoint checkpoint = checkpoint(1, checkpointPosition);
    CompletableFuture<BackupOutcome> outcome = manager.takeBackup(checkpoint);
    await().atMost(TIMEOUT).until(() -> partition.store.saved().size() == 1);
    Backup planned = partition.store.saved().get(0);
    partition.appendEntries(25);
    saves.complete(null);

    // then it completes with exactly the planned bytes, the active segment cut at its length then
    assertThat(outcome.orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join().kind())
        .isEqualTo(BackupOutcome.Kind.COMPLETED);
    Backup restored = partition.restore(0, 1, directory.resolve("restored"));
    assertThat(names(planned.segments())).isEqualTo(expectedSegments);
    assertThat(names(restored.segments())).isEqualTo(expectedSegments);
    for (BackupFile file : planned.segments().files()) {
      byte[] copy = Files.readAllBytes(restored.segments().file(file.name()).orElseThrow().path());
      assertThat(copy).hasSize((int) file.lengthBytes());
      assertThat(copy).isEqualTo(prefix(file.path(), file.lengthBytes()));
    }
    BackupFile last = planned.segments().files().get(planned.segments().size() - 1);
    assertThat(committedLength(last.path())).isGreaterThan(last.lengthBytes());
    for (SnapshotFile file : snapshot.files()) {
      assertThat(Files.readAllBytes(restored.snapshot().file(file.name()).orElseThrow().path()))
          .isEqualTo(Files.readAllBytes(file.path()));
    }
    assertThat(restored.snapshot().size()).isEqualTo(snapshot.files().size());

    // and the copied segments open as a journal holding the snapshot's index to the checkpoint
    Path journalCopy = directory.resolve("journal-copy");
    Files.createDirectories(journalCopy);
    for (BackupFile file : restored.segments().files()) {
      Files.copy(file.path(), journalCopy.resolve(file.name()));
    }
    try (SegmentedJournal copy =
            SegmentedJournal.open(
                JournalConfig.builder()
                    .directory(journalCopy)
                    .name("raft-partition-1")
                    .segmentSizeBytes(BackupTestPartition.SEGMENT_SIZE_BYTES)
                    .build(),
                new SimpleMeterRegistry());
        JournalReader reader = copy.openReader()) {
      assertThat(copy.getFirstIndex()).isLessThanOrEqualTo(10);
      assertThat(copy.getLastIndex()).isGreaterThanOrEqualTo(indexOf(checkpointPosition));
      reader.seek(indexOf(checkpointPosition));
      JournalRecord entry = reader.next();
      assertThat(entry.asqn()).isLessThanOrEqualTo(checkpointPosition);
      assertThat(entry.asqn() + BackupTestPartition.POSITIONS_PER_ENTRY)
          .isGreaterThan(checkpointPosition);
    }

    // and the descriptor says what restore needs
    BackupDescriptor descriptor = restored.descriptor();
    assertThat(descriptor.checkpointPosition()).isEqualTo(checkpointPosition);
    assertThat(descriptor.snapshotId()).contains(snapshot.id().toString());
    assertThat(descriptor.numberOfPartitions()).isEqualTo(BackupTestPartition.PARTITION_COUNT);
    assertThat(descriptor.brokerVersion()).isEqualTo(BackupTestPartition.VERSION);
    assertThat(descriptor.stateDigest()).isEqualTo(checkpoint.stateDigestHex());

    // and the leader confirms it; the reservation is gone; the meters count it
    await().atMost(TIMEOUT).until(() -> partition.confirmations().contains(1L));
    assertThat(partition.realSnapshots.compactionBoundIndex()).isEqualTo(10); // the kept snapshot
    assertThat(metrics.operationCount(Operation.TAKE, Result.COMPLETED)).isEqualTo(1);
    assertThat(metrics.operationCount(Operation.CONFIRM, Result.WRITTEN)).isEqualTo(1);
    assertThat(metrics.inProgress()).isZero();
    assertThat(partition.registry.get(BackupMetrics.BYTES_WRITTEN).counter().count())
        .isEqualTo(planned.descriptor().sizeBytes());
    assertThat(partition.registry.get(BackupMetrics.LATEST_COMPLETED_AGE).gauge().value())
        .isGreaterThanOrEqualTo(0);
  }

  @Test
  void shouldRunWithItsNodeAndPartitionInTheLoggingMdc() throws Exception {
    // given
    BackupManager manager = partition.startManager(2, BackupConfig.defaults());

    // when
    Map<String, String> seen =
        manager.call(MDC::getCopyOfContextMap).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);

    // then
    assertThat(seen)
        .containsEntry(LoggingContext.NODE_ID, "2")
        .containsEntry(
            LoggingContext.PARTITION_ID, Integer.toString(BackupTestPartition.PARTITION));
  }

  @Test
  void shouldTakeLogOnlyBackupFromIndexOneWithoutSnapshot() {
    // given no snapshot at all
    long last = partition.appendEntries(20);
    BackupManager manager = partition.startManager(0, BackupConfig.defaults());

    // when
    BackupOutcome outcome = take(manager, checkpoint(3, last - 1));

    // then
    assertThat(outcome.kind()).isEqualTo(BackupOutcome.Kind.COMPLETED);
    Backup planned = partition.store.saved().get(0);
    assertThat(planned.descriptor().snapshotId()).isEmpty();
    assertThat(planned.snapshot().isEmpty()).isTrue();
    assertThat(names(planned.segments()))
        .isEqualTo(overlapping(partition.journal.segmentFiles(), 1, indexOf(last - 1)));
    assertThat(partition.status(0, 3).statusCode()).isEqualTo(BackupStatusCode.COMPLETED);
  }

  @Test
  void shouldDoNothingWhenTheIdIsCompletedAlready() {
    // given
    long last = partition.appendEntries(10);
    BackupMetrics metrics =
        new BackupMetrics(partition.registry, BackupTestPartition.PARTITION, partition.clock);
    BackupManager manager = partition.startManager(0, BackupConfig.defaults(), metrics);
    assertThat(take(manager, checkpoint(4, last)).kind()).isEqualTo(BackupOutcome.Kind.COMPLETED);

    // when it is taken again, here or by the next leader on another node
    BackupOutcome again = take(manager, checkpoint(4, last));
    manager.closeAsync().join();
    BackupManager next = partition.startManager(1, BackupConfig.defaults(), metrics);
    BackupOutcome onNext = take(next, checkpoint(4, last));

    // then nothing is saved again
    assertThat(again.kind()).isEqualTo(BackupOutcome.Kind.ALREADY_COMPLETED);
    assertThat(onNext.kind()).isEqualTo(BackupOutcome.Kind.ALREADY_COMPLETED);
    assertThat(partition.store.saved()).hasSize(1);
    assertThat(partition.status(1, 4).exists()).isFalse();
    assertThat(metrics.operationCount(Operation.TAKE, Result.NO_OP)).isEqualTo(2);
  }

  @Test
  void shouldRefuseAnIdThatExistsFailedOrInProgress() throws Exception {
    // given backup 5 failed earlier, and backup 6 in progress on another node
    long last = partition.appendEntries(10);
    BackupManager manager = partition.startManager(0, BackupConfig.defaults());
    partition.fsStore.markFailed(new BackupIdentifier(0, 1, 5), "disk full").join();
    try (FifoGate fifo = FifoGate.create(directory.resolve("held"))) {
      CompletableFuture<BackupSaveResult> held =
          partition.fsStore.save(
              Backup.builder(new BackupIdentifier(7, 1, 6))
                  .checkpointPosition(1)
                  .numberOfPartitions(3)
                  .brokerVersion("other")
                  .stateDigest("00")
                  .segments(NamedFileSet.of(new BackupFile("held.log", fifo.path(), 4)))
                  .build());
      fifo.awaitReader(TIMEOUT);

      // when
      BackupOutcome failed = take(manager, checkpoint(5, last));
      BackupOutcome inProgress = take(manager, checkpoint(6, last));

      // then
      assertThat(failed.kind()).isEqualTo(BackupOutcome.Kind.REFUSED);
      assertThat(failed.reason().orElseThrow()).contains("FAILED").contains("disk full");
      assertThat(inProgress.kind()).isEqualTo(BackupOutcome.Kind.REFUSED);
      assertThat(inProgress.reason().orElseThrow()).contains("IN_PROGRESS");
      assertThat(partition.store.saved()).isEmpty();
      assertThat(partition.status(0, 6).exists()).isFalse();
      fifo.write(new byte[] {1, 2, 3, 4});
      held.orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();
    }
  }

  @Test
  void shouldReuseUnchangedFilesOfThePreviousBackup() throws IOException {
    // given a first completed backup
    partition.appendEntries(30);
    byte[] table = partition.bytes(5000);
    partition.snapshot(5, 10, 12, Map.of("000001.sst", table, "CURRENT", partition.bytes(16)));
    long firstCheckpoint = partition.appendEntries(30) - 2;
    BackupManager manager = partition.startManager(0, BackupConfig.defaults());
    BackupOutcome first = take(manager, checkpoint(1, firstCheckpoint));

    // when a second one follows: a snapshot sharing a table file, and a longer log
    partition.snapshot(
        8,
        20,
        21,
        Map.of(
            "000001.sst",
            table,
            "000002.sst",
            partition.bytes(4000),
            "CURRENT",
            partition.bytes(16)));
    long secondCheckpoint = partition.appendEntries(40) - 1;
    BackupOutcome second = take(manager, checkpoint(2, secondCheckpoint));

    // then every file equal to one of the first backup is reused, the rest copied
    assertThat(first.kind()).isEqualTo(BackupOutcome.Kind.COMPLETED);
    assertThat(second.kind()).isEqualTo(BackupOutcome.Kind.COMPLETED);
    Backup one = partition.restore(0, 1, directory.resolve("one"));
    Backup two = partition.restore(0, 2, directory.resolve("two"));
    int equalFiles = 0;
    long equalBytes = 0;
    for (FileSetKind kind : FileSetKind.values()) {
      for (BackupFile file : two.files(kind).files()) {
        Optional<BackupFile> before = one.files(kind).file(file.name());
        if (before.isPresent()
            && Arrays.equals(
                Files.readAllBytes(before.get().path()), Files.readAllBytes(file.path()))) {
          equalFiles++;
          equalBytes += file.lengthBytes();
        }
      }
    }
    BackupSaveResult result = second.saveResult().orElseThrow();
    assertThat(equalFiles).isGreaterThanOrEqualTo(3); // the table and at least two closed segments
    assertThat(result.reusedFileCount()).isEqualTo(equalFiles);
    assertThat(result.reusedBytes()).isEqualTo(equalBytes);
    assertThat(result.copiedFileCount()).isEqualTo(two.descriptor().fileCount() - equalFiles);
    assertThat(result.copiedBytes()).isEqualTo(two.descriptor().sizeBytes() - equalBytes);
  }

  @Test
  void shouldUploadNoMoreBackupsAtOnceThanConfigured() {
    // given one upload at a time
    long last = partition.appendEntries(10);
    BackupManager manager =
        partition.startManager(0, BackupConfig.builder().maxConcurrentBackups(1).build());
    CompletableFuture<Void> saves = partition.store.holdSaves();

    // when two checkpoints come while the first upload is held
    CompletableFuture<BackupOutcome> first = manager.takeBackup(checkpoint(1, last - 3));
    CompletableFuture<BackupOutcome> second = manager.takeBackup(checkpoint(2, last));
    await().atMost(TIMEOUT).until(() -> partition.store.saved().size() == 1);
    saves.complete(null);

    // then the second reached the store only after the first had ended
    assertThat(first.orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join().kind())
        .isEqualTo(BackupOutcome.Kind.COMPLETED);
    assertThat(second.orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join().kind())
        .isEqualTo(BackupOutcome.Kind.COMPLETED);
    int firstSaved = partition.firstEvent("store.saved 1");
    int secondLooked = partition.firstEvent("store.list backups{checkpoint=2");
    assertThat(firstSaved).isNotNegative();
    assertThat(secondLooked).isGreaterThan(firstSaved);
  }

  // ---- helpers ---------------------------------------------------------------------------------

  static BackupOutcome take(BackupManager manager, Checkpoint checkpoint) {
    return manager.takeBackup(checkpoint).orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();
  }

  /** Names of the segment files holding any index in [from, to]. */
  static List<String> overlapping(List<JournalSegmentFile> segments, long from, long to) {
    return segments.stream()
        .filter(s -> s.lastIndex() >= from && s.firstIndex() <= to)
        .map(s -> s.path().getFileName().toString())
        .toList();
  }

  static List<String> names(NamedFileSet files) {
    return files.files().stream().map(BackupFile::name).toList();
  }

  private static byte[] prefix(Path path, long length) throws IOException {
    return Arrays.copyOf(Files.readAllBytes(path), (int) length);
  }

  private long committedLength(Path segment) {
    Map<Path, Long> lengths = new HashMap<>();
    partition.journal.segmentFiles().forEach(s -> lengths.put(s.path(), s.committedLengthBytes()));
    return lengths.get(segment);
  }
}
