package io.cairn.snapshot.store;

import static io.cairn.snapshot.store.TestSnapshots.metadata;
import static io.cairn.snapshot.store.TestSnapshots.retaining;
import static io.cairn.snapshot.store.TestSnapshots.smallState;
import static io.cairn.snapshot.store.TestSnapshots.take;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import io.cairn.snapshot.CompactionHold;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotConfig;
import io.cairn.snapshot.SnapshotException;
import io.cairn.snapshot.SnapshotFile;
import io.cairn.snapshot.SnapshotId;
import io.cairn.snapshot.SnapshotMetrics;
import io.cairn.snapshot.SnapshotNotFoundException;
import io.cairn.snapshot.SnapshotReservation;
import io.cairn.snapshot.StaleSnapshotException;
import io.cairn.snapshot.TransientSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class FileSnapshotStoreTest {

  @TempDir Path root;

  @Test
  void shouldPersistSnapshotWithMetadataAndChecksumFileForEveryFile() throws IOException {
    try (FileSnapshotStore store = TestSnapshots.open(root)) {
      PersistedSnapshot snapshot = take(store, 1);

      assertThat(snapshot.id()).isEqualTo(new SnapshotId(10, 1, 100, 97));
      assertThat(snapshot.directory()).isEqualTo(root.resolve("snapshots").resolve("10-1-100-97"));
      assertThat(snapshot.files())
          .extracting(SnapshotFile::name)
          .containsExactly(
              "000000.sst",
              "000001.sst",
              "000002.sst",
              "CURRENT",
              SnapshotLayout.CHECKSUM_FILE,
              SnapshotLayout.METADATA_FILE);
      ChecksumFile checksums =
          ChecksumFile.decode(
              Files.readAllBytes(snapshot.directory().resolve(SnapshotLayout.CHECKSUM_FILE)));
      assertThat(checksums.entries().keySet())
          .containsExactly(
              "000000.sst", "000001.sst", "000002.sst", "CURRENT", SnapshotLayout.METADATA_FILE);
      for (SnapshotFile file : snapshot.files()) {
        assertThat(FileChecksums.checksum(file.path()).crc32c()).isEqualTo(file.crc32c());
      }
      assertThat(
              MetadataCodec.decode(
                  Files.readAllBytes(snapshot.directory().resolve(SnapshotLayout.METADATA_FILE))))
          .isEqualTo(metadata(1));
      assertThat(store.latestSnapshot()).contains(snapshot);
      assertThat(listTransient()).isEmpty();
    }
  }

  @Test
  void shouldFindTheSameSnapshotsAfterReopening() {
    List<PersistedSnapshot> before;
    try (FileSnapshotStore store = TestSnapshots.open(root, retaining(3))) {
      take(store, 1);
      take(store, 2);
      before = store.snapshots();
    }
    try (FileSnapshotStore store = TestSnapshots.open(root, retaining(3))) {
      assertThat(store.snapshots()).isEqualTo(before);
      assertThat(store.latestSnapshot().map(PersistedSnapshot::id)).contains(metadata(2).id());
    }
  }

  @Test
  void shouldKeepOnlyTheNewestSnapshotByDefault() {
    try (FileSnapshotStore store = TestSnapshots.open(root)) {
      PersistedSnapshot first = take(store, 1);
      PersistedSnapshot second = take(store, 2);

      assertThat(store.snapshots()).containsExactly(second);
      assertThat(first.directory()).doesNotExist();
    }
  }

  @Test
  void shouldKeepTheNewestConfiguredCount() {
    try (FileSnapshotStore store = TestSnapshots.open(root, retaining(2))) {
      take(store, 1);
      PersistedSnapshot second = take(store, 2);
      PersistedSnapshot third = take(store, 3);

      assertThat(store.snapshots()).containsExactly(second, third);
    }
  }

  @Test
  void shouldKeepABaseForACommandAppendedBeforeTheNewestSnapshotsFollowUps() {
    try (FileSnapshotStore store = TestSnapshots.open(root, retaining(1))) {
      PersistedSnapshot a = take(store, metadata(10, 1, 100, 97), smallState(1));
      // processed 200, its follow-ups written up to 230: commands at 201..230 may lie among them
      PersistedSnapshot b = take(store, metadata(20, 1, 200, 230), smallState(2));

      // a checkpoint at 215, processed after b was taken, needs a snapshot wholly below it: a
      assertThat(store.snapshots()).containsExactly(a, b);
      assertThat(store.compactionBoundIndex()).isEqualTo(10);
      try (SnapshotReservation reserved =
          store
              .reserveNewest(
                  s ->
                      s.metadata().processedPosition() < 215
                          && s.metadata().lastWrittenPosition() < 215)
              .orElseThrow()) {
        assertThat(reserved.snapshot()).isEqualTo(a);
      }

      // b is c's base (both its positions at or below 300); a goes
      PersistedSnapshot c = take(store, metadata(30, 1, 300, 310), smallState(3));
      assertThat(store.snapshots()).containsExactly(b, c);
      assertThat(a.directory()).doesNotExist();

      // d stands for itself: no base kept
      PersistedSnapshot d = take(store, metadata(40, 1, 400, 390), smallState(4));
      assertThat(store.snapshots()).containsExactly(d);
      assertThat(store.compactionBoundIndex()).isEqualTo(40);

      // f's base is the newest snapshot wholly at or below 510: d, not e (written up to 520)
      take(store, metadata(50, 1, 500, 520), smallState(5));
      PersistedSnapshot f = take(store, metadata(60, 1, 510, 600), smallState(6));
      assertThat(store.snapshots()).containsExactly(d, f);
    }
    try (FileSnapshotStore reopened = TestSnapshots.open(root, retaining(1))) {
      assertThat(reopened.snapshots())
          .extracting(PersistedSnapshot::id)
          .containsExactly(new SnapshotId(40, 1, 400, 390), new SnapshotId(60, 1, 510, 600));
    }
  }

  @Test
  void shouldKeepTheWholeLogWhileTheNewestSnapshotNeedsABaseAndHasNone() {
    try (FileSnapshotStore store = TestSnapshots.open(root, retaining(1))) {
      // the first snapshot: processed 200, follow-ups written up to 230, nothing older to stand in
      PersistedSnapshot a = take(store, metadata(20, 1, 200, 230), smallState(1));
      assertThat(store.snapshots()).containsExactly(a);
      assertThat(store.compactionBoundIndex())
          .as("a checkpoint at 215 can only be backed up from the log's start")
          .isEqualTo(1);

      // b (processed 220) is too close to a (written up to 230) for a to be its base: the log is
      // still kept from the start, and a with it, the first to become a base
      PersistedSnapshot b = take(store, metadata(30, 1, 220, 260), smallState(2));
      assertThat(store.snapshots()).containsExactly(a, b);
      assertThat(store.compactionBoundIndex()).isEqualTo(1);

      // c (processed 250) is too close to b as well, but a is its base: a backlog of commands
      // longer than a snapshot interval does not keep the whole log for ever
      PersistedSnapshot c = take(store, metadata(40, 1, 250, 290), smallState(3));
      assertThat(store.snapshots()).containsExactly(a, c);
      assertThat(b.directory()).doesNotExist();
      assertThat(store.compactionBoundIndex()).isEqualTo(20);

      // once there is a base there stays one: c is d's, and a goes
      PersistedSnapshot d = take(store, metadata(50, 1, 300, 340), smallState(4));
      assertThat(store.snapshots()).containsExactly(c, d);
      assertThat(a.directory()).doesNotExist();
      assertThat(store.compactionBoundIndex()).isEqualTo(40);

      // e stands for itself
      take(store, metadata(60, 1, 500, 480), smallState(5));
      assertThat(store.compactionBoundIndex()).isEqualTo(60);
    }
    try (FileSnapshotStore reopened = TestSnapshots.open(root, retaining(1))) {
      assertThat(reopened.compactionBoundIndex()).isEqualTo(60);
    }
  }

  @Test
  void shouldNeverDeleteReservedSnapshotUntilReleased() {
    try (FileSnapshotStore store = TestSnapshots.open(root)) {
      PersistedSnapshot first = take(store, 1);
      SnapshotReservation reservation = store.reserve(first.id());
      SnapshotReservation second = store.reserve(first.id());

      PersistedSnapshot newer = take(store, 2);
      assertThat(store.snapshots()).containsExactly(first, newer);
      assertThat(first.directory()).isDirectory();

      reservation.close();
      reservation.close(); // idempotent: does not release the other one
      assertThat(store.snapshots()).containsExactly(first, newer);

      second.close();
      assertThat(store.snapshots()).containsExactly(newer);
      assertThat(first.directory()).doesNotExist();
    }
  }

  @Test
  void shouldFailToReserveSnapshotThatNoLongerExists() {
    try (FileSnapshotStore store = TestSnapshots.open(root)) {
      PersistedSnapshot first = take(store, 1);
      take(store, 2);

      assertThatThrownBy(() -> store.reserve(first.id()))
          .isInstanceOf(SnapshotNotFoundException.class)
          .hasMessageContaining(first.id().toString());
      assertThatThrownBy(() -> store.reserve(new SnapshotId(99, 9, 9, 9)))
          .isInstanceOf(SnapshotNotFoundException.class);
    }
  }

  @Test
  void shouldReserveTheNewestEligibleSnapshot() {
    try (FileSnapshotStore store = TestSnapshots.open(root, retaining(3))) {
      PersistedSnapshot first = take(store, 1);
      take(store, 2);
      take(store, 3);

      // a checkpoint at position 150: only snapshot 1 (processed 100, written 103) is before it
      Optional<SnapshotReservation> reservation =
          store.reserveNewest(
              s ->
                  s.metadata().processedPosition() < 150
                      && s.metadata().lastWrittenPosition() < 150);
      assertThat(reservation).map(SnapshotReservation::snapshot).contains(first);
      assertThat(store.reserveNewest(s -> false)).isEmpty();

      take(store, 4);
      take(store, 5);
      take(store, 6);
      assertThat(store.snapshots()).contains(first).hasSize(4);
      reservation.get().close();
      assertThat(store.snapshots()).doesNotContain(first).hasSize(3);
    }
  }

  @Test
  void shouldAddNewSnapshotWithoutInvalidatingReservedOneOfABackup() {
    try (FileSnapshotStore store = TestSnapshots.open(root)) {
      PersistedSnapshot used = take(store, 1);
      try (SnapshotReservation backup = store.reserveNewest(s -> true).orElseThrow()) {
        PersistedSnapshot concurrent = take(store, 2);

        assertThat(store.snapshots()).containsExactly(used, concurrent);
        assertThat(store.latestSnapshot()).contains(concurrent);
        store.verify(backup.snapshot().id()); // still complete and intact
      }
    }
  }

  @Test
  void shouldBoundCompactionByOldestKeptSnapshotAndHolds() {
    try (FileSnapshotStore store = TestSnapshots.open(root)) {
      assertThat(store.compactionBoundIndex()).isEqualTo(1); // no snapshot: keep everything
      CompactionHold exporter = store.registerCompactionHold("exporter-json", 5);
      assertThat(store.compactionBoundIndex()).isEqualTo(1);

      PersistedSnapshot first = take(store, 1); // index 10
      assertThat(store.compactionBoundIndex()).isEqualTo(5);
      exporter.moveTo(50);
      assertThat(store.compactionBoundIndex()).isEqualTo(10);

      SnapshotReservation reservation = store.reserve(first.id());
      take(store, 2); // index 20
      assertThat(store.compactionBoundIndex()).isEqualTo(10);
      reservation.close();
      assertThat(store.compactionBoundIndex()).isEqualTo(20);

      CompactionHold backup = store.registerCompactionHold("backup-7", 12);
      assertThat(store.compactionBoundIndex()).isEqualTo(12);
      backup.close();
      backup.close();
      exporter.close();
      assertThat(store.compactionBoundIndex()).isEqualTo(20);
      assertThatThrownBy(() -> exporter.moveTo(60)).isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> store.registerCompactionHold("x", 0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Expected a compaction hold index >= 1, but was 0");
    }
  }

  @Test
  void shouldRejectSnapshotNotNewerThanTheLatest() {
    try (FileSnapshotStore store = TestSnapshots.open(root)) {
      take(store, 2);

      assertThatThrownBy(() -> store.newTransientSnapshot(metadata(1)))
          .isInstanceOf(StaleSnapshotException.class)
          .hasMessageContaining("Expected a snapshot newer than the latest 20-1-200-197");
      assertThatThrownBy(() -> store.newTransientSnapshot(metadata(2)))
          .isInstanceOf(StaleSnapshotException.class);
    }
  }

  @Test
  void shouldAbortSnapshotOvertakenByANewerOneBeforePersisting() {
    try (FileSnapshotStore store = TestSnapshots.open(root)) {
      TransientSnapshot older = store.newTransientSnapshot(metadata(1));
      older.writeState(smallState(1));
      PersistedSnapshot newer = take(store, 2);

      assertThatThrownBy(older::persist).isInstanceOf(StaleSnapshotException.class);
      assertThat(store.snapshots()).containsExactly(newer);
      assertThat(listTransient()).isEmpty();
    }
  }

  @Test
  void shouldReturnExistingSnapshotWhenTheSameIdIsPersistedTwice() {
    try (FileSnapshotStore store = TestSnapshots.open(root)) {
      TransientSnapshot a = store.newTransientSnapshot(metadata(1));
      TransientSnapshot b = store.newTransientSnapshot(metadata(1));
      a.writeState(smallState(1));
      b.writeState(smallState(1));

      PersistedSnapshot first = a.persist();
      assertThat(b.persist()).isEqualTo(first);
      assertThat(store.snapshots()).containsExactly(first);
      assertThat(listTransient()).isEmpty();
    }
  }

  @Test
  void shouldDeleteEverythingOfAnAbortedSnapshot() {
    try (FileSnapshotStore store = TestSnapshots.open(root)) {
      TransientSnapshot snapshot = store.newTransientSnapshot(metadata(1));
      snapshot.writeState(smallState(1));
      assertThat(listTransient()).hasSize(1);

      snapshot.abort();
      snapshot.abort();
      assertThat(listTransient()).isEmpty();
      assertThat(store.snapshots()).isEmpty();
      assertThatThrownBy(snapshot::persist).isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void shouldRejectStateWithSubdirectoryOrReservedName() {
    try (FileSnapshotStore store = TestSnapshots.open(root)) {
      TransientSnapshot nested = store.newTransientSnapshot(metadata(1));
      assertThatThrownBy(
              () -> nested.writeState(target -> Files.createDirectories(target.resolve("sub"))))
          .isInstanceOf(SnapshotException.class)
          .hasMessageContaining("'sub'");
      TransientSnapshot reserved = store.newTransientSnapshot(metadata(1));
      assertThatThrownBy(
              () ->
                  reserved.writeState(
                      target -> {
                        Files.createDirectory(target);
                        Files.writeString(target.resolve(SnapshotLayout.METADATA_FILE), "{}");
                      }))
          .isInstanceOf(SnapshotException.class);
      TransientSnapshot failing = store.newTransientSnapshot(metadata(1));
      assertThatThrownBy(
              () ->
                  failing.writeState(
                      target -> {
                        Files.createDirectory(target);
                        throw new IOException("disk full");
                      }))
          .isInstanceOf(SnapshotException.class)
          .hasMessageContaining("disk full");
      assertThat(listTransient()).isEmpty();
    }
  }

  @Test
  void shouldDeleteLeftoversAndDirectoriesWithoutValidChecksumFileAtOpenWithWarning()
      throws IOException {
    PersistedSnapshot kept;
    try (FileSnapshotStore store = TestSnapshots.open(root, retaining(3))) {
      kept = take(store, 1);
      PersistedSnapshot torn = take(store, 2);
      // torn checksum file: the trailer is gone
      Path checksum = torn.directory().resolve(SnapshotLayout.CHECKSUM_FILE);
      byte[] content = Files.readAllBytes(checksum);
      Files.write(checksum, java.util.Arrays.copyOf(content, content.length - 20));
    }
    Files.createDirectories(root.resolve("snapshots").resolve("30-1-300-303"));
    Files.createDirectories(root.resolve("snapshots").resolve("not-an-id"));
    Files.createDirectories(root.resolve("transient").resolve("40-1-400-403-7"));
    Files.writeString(root.resolve("transient").resolve("40-1-400-403-7").resolve("a"), "x");

    try (LogCapture logs = new LogCapture();
        FileSnapshotStore store = TestSnapshots.open(root, retaining(3))) {
      assertThat(store.snapshots()).containsExactly(kept);
      try (Stream<Path> entries = Files.list(root.resolve("snapshots"))) {
        assertThat(entries).containsExactly(kept.directory());
      }
      assertThat(listTransient()).isEmpty();
      assertThat(logs.messages(Level.WARN))
          .anyMatch(m -> m.contains("20-1-200-197") && m.contains("not a snapshot"))
          .anyMatch(m -> m.contains("30-1-300-303") && m.contains("no checksum file"))
          .anyMatch(m -> m.contains("not-an-id"))
          .anyMatch(m -> m.contains("leftover transient") && m.contains("40-1-400-403-7"));
      assertThat(logs.messages(Level.ERROR)).isEmpty();
    }
  }

  @Test
  void shouldApplyRetentionAtOpen() {
    try (FileSnapshotStore store = TestSnapshots.open(root, retaining(3))) {
      take(store, 1);
      take(store, 2);
      take(store, 3);
    }
    try (FileSnapshotStore store = TestSnapshots.open(root, retaining(1))) {
      assertThat(store.snapshots())
          .extracting(PersistedSnapshot::id)
          .containsExactly(metadata(3).id());
    }
  }

  @Test
  void shouldReportSnapshotMeters() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (FileSnapshotStore store =
        TestSnapshots.open(root, retaining(1), SnapshotPhaseListener.NONE, registry)) {
      PersistedSnapshot first = take(store, 1);
      SnapshotReservation reservation = store.reserve(first.id());
      PersistedSnapshot second = take(store, 2);

      assertThat(registry.get(SnapshotMetrics.COUNT).gauge().value()).isEqualTo(2);
      assertThat(registry.get(SnapshotMetrics.RESERVED_COUNT).gauge().value()).isEqualTo(1);
      assertThat(registry.get(SnapshotMetrics.SIZE).gauge().value()).isEqualTo(second.sizeBytes());
      assertThat(registry.get(SnapshotMetrics.DURATION).tag("operation", "take").timer().count())
          .isEqualTo(2);
      assertThat(registry.get(SnapshotMetrics.DURATION).tag("partition", "1").meters())
          .isNotEmpty();
      reservation.close();
      assertThat(registry.get(SnapshotMetrics.COUNT).gauge().value()).isEqualTo(1);
      assertThat(registry.get(SnapshotMetrics.RESERVED_COUNT).gauge().value()).isZero();
    }
    assertThat(registry.find(SnapshotMetrics.COUNT).gauge()).isNull(); // removed at close
  }

  @Test
  void shouldRefuseWorkAfterClose() {
    FileSnapshotStore store = TestSnapshots.open(root, SnapshotConfig.defaults());
    store.close();
    assertThatThrownBy(() -> store.newTransientSnapshot(metadata(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  private List<Path> listTransient() {
    try (Stream<Path> entries = Files.list(root.resolve("transient"))) {
      return entries.toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
