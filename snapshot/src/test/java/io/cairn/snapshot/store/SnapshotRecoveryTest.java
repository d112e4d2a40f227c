package io.cairn.snapshot.store;

import static io.cairn.snapshot.store.TestSnapshots.flipBit;
import static io.cairn.snapshot.store.TestSnapshots.retaining;
import static io.cairn.snapshot.store.TestSnapshots.take;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import io.cairn.snapshot.CorruptedSnapshotException;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotFile;
import io.cairn.snapshot.SnapshotMetrics;
import io.cairn.snapshot.SnapshotNotFoundException;
import io.cairn.snapshot.SnapshotReservation;
import io.cairn.snapshot.StaleSnapshotException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Verified loading, fallback on corruption, and restore from a set of files. */
final class SnapshotRecoveryTest {

  @TempDir Path root;
  @TempDir Path work;

  @Test
  void shouldCopyNewestSnapshotStateForRecovery() throws IOException {
    try (FileSnapshotStore store = TestSnapshots.open(root)) {
      PersistedSnapshot snapshot = take(store, 1);
      Path target = work.resolve("runtime");

      assertThat(store.copyForRecovery(target)).contains(snapshot);

      try (Stream<Path> files = Files.list(target)) {
        assertThat(files.map(p -> p.getFileName().toString()))
            .containsExactlyInAnyOrder("000000.sst", "000001.sst", "000002.sst", "CURRENT");
      }
      for (SnapshotFile file : snapshot.files()) {
        if (!SnapshotLayout.isReservedFileName(file.name())) {
          assertThat(Files.readAllBytes(target.resolve(file.name())))
              .isEqualTo(Files.readAllBytes(file.path()));
        }
      }
      assertThatThrownBy(() -> store.copyForRecovery(target))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("exists");
    }
  }

  @Test
  void shouldFallBackToOlderValidSnapshotWhenNewestIsCorrupt() throws IOException {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (FileSnapshotStore store =
            TestSnapshots.open(root, retaining(2), SnapshotPhaseListener.NONE, registry);
        LogCapture logs = new LogCapture()) {
      PersistedSnapshot older = take(store, 1);
      PersistedSnapshot newer = take(store, 2);
      SnapshotFile victim = stateFile(newer, 1);
      long expectedCrc = victim.crc32c();
      flipBit(victim.path(), victim.sizeBytes() / 2);
      long actualCrc = FileChecksums.checksum(victim.path()).crc32c();
      Path target = work.resolve("runtime");

      assertThat(store.copyForRecovery(target)).contains(older);

      assertThat(logs.messages(Level.ERROR))
          .singleElement()
          .satisfies(
              m ->
                  assertThat(m)
                      .contains(newer.id().toString())
                      .contains(victim.name())
                      .contains(ChecksumFile.hex(expectedCrc))
                      .contains(ChecksumFile.hex(actualCrc)));
      assertThat(store.snapshots()).containsExactly(older);
      assertThat(newer.directory()).doesNotExist();
      assertThat(Files.readAllBytes(target.resolve(stateFile(older, 1).name())))
          .isEqualTo(Files.readAllBytes(stateFile(older, 1).path()));
      assertThat(registry.get(SnapshotMetrics.CORRUPTIONS).counter().count()).isEqualTo(1);
      assertThatThrownBy(() -> store.reserve(newer.id()))
          .isInstanceOf(SnapshotNotFoundException.class);
    }
  }

  @Test
  void shouldReturnEmptyAndLeaveNoStateWhenEverySnapshotIsCorrupt() throws IOException {
    try (FileSnapshotStore store = TestSnapshots.open(root, retaining(2))) {
      PersistedSnapshot older = take(store, 1);
      PersistedSnapshot newer = take(store, 2);
      flipBit(stateFile(older, 0).path(), 0);
      // a truncated file: same CRC could not hold, and the size differs
      Path truncated = stateFile(newer, 2).path();
      Files.write(truncated, new byte[0]);
      Path target = work.resolve("runtime");

      assertThat(store.copyForRecovery(target)).isEmpty();

      assertThat(target).doesNotExist();
      assertThat(store.snapshots()).isEmpty();
      assertThat(store.latestSnapshot()).isEmpty();
    }
  }

  @Test
  void shouldMarkSnapshotCorruptWhenVerifyFindsMismatchButKeepItWhileReserved() throws IOException {
    try (FileSnapshotStore store = TestSnapshots.open(root);
        LogCapture logs = new LogCapture()) {
      PersistedSnapshot snapshot = take(store, 1);
      SnapshotReservation backup = store.reserve(snapshot.id());
      flipBit(snapshot.directory().resolve(SnapshotLayout.METADATA_FILE), 5);

      assertThatThrownBy(() -> store.verify(snapshot.id()))
          .isInstanceOf(CorruptedSnapshotException.class)
          .satisfies(
              e ->
                  assertThat(((CorruptedSnapshotException) e).file())
                      .isEqualTo(SnapshotLayout.METADATA_FILE));
      assertThat(logs.messages(Level.ERROR)).hasSize(1);
      assertThat(store.snapshots()).isEmpty();
      assertThat(store.latestSnapshot()).isEmpty();
      assertThat(snapshot.directory()).isDirectory(); // the backup still holds it

      backup.close();
      assertThat(snapshot.directory()).doesNotExist();
    }
  }

  @Test
  void shouldDeleteSnapshotWithWrongFileSizeAtOpenWithError() throws IOException {
    PersistedSnapshot older;
    try (FileSnapshotStore store = TestSnapshots.open(root, retaining(2))) {
      older = take(store, 1);
      PersistedSnapshot newer = take(store, 2);
      Files.write(
          stateFile(newer, 0).path(),
          new byte[] {1, 2, 3},
          java.nio.file.StandardOpenOption.APPEND);
    }
    try (LogCapture logs = new LogCapture();
        FileSnapshotStore store = TestSnapshots.open(root, retaining(2))) {
      assertThat(store.snapshots()).containsExactly(older);
      assertThat(logs.messages(Level.ERROR))
          .singleElement()
          .satisfies(m -> assertThat(m).contains("corrupt").contains("000000.sst"));
    }
  }

  @Test
  void shouldRestoreSnapshotFromItsFiles() throws IOException {
    PersistedSnapshot original;
    List<Path> copies = new ArrayList<>();
    try (FileSnapshotStore source = TestSnapshots.open(root.resolve("source"))) {
      original = take(source, 3);
      Path fetched = Files.createDirectories(work.resolve("fetched"));
      for (SnapshotFile file : original.files()) {
        copies.add(Files.copy(file.path(), fetched.resolve(file.name())));
      }
    }
    try (FileSnapshotStore target = TestSnapshots.open(root.resolve("target"))) {
      PersistedSnapshot restored = target.restore(copies);

      assertThat(restored.id()).isEqualTo(original.id());
      assertThat(restored.metadata()).isEqualTo(original.metadata());
      assertThat(restored.checksum()).isEqualTo(original.checksum());
      assertThat(restored.files())
          .extracting(SnapshotFile::name, SnapshotFile::sizeBytes, SnapshotFile::crc32c)
          .isEqualTo(
              original.files().stream()
                  .map(
                      f -> org.assertj.core.groups.Tuple.tuple(f.name(), f.sizeBytes(), f.crc32c()))
                  .toList());
      assertThat(target.latestSnapshot()).contains(restored);
      target.verify(restored.id());
      assertThat(target.restore(copies)).isEqualTo(restored); // same id again: the existing one
    }
    try (FileSnapshotStore reopened = TestSnapshots.open(root.resolve("target"))) {
      assertThat(reopened.latestSnapshot().map(PersistedSnapshot::id)).contains(original.id());
    }
  }

  @Test
  void shouldRefuseRestoreOfCorruptMissingOrExtraFilesAndInstallNothing() throws IOException {
    List<Path> copies = new ArrayList<>();
    Path fetched = Files.createDirectories(work.resolve("fetched"));
    try (FileSnapshotStore source = TestSnapshots.open(root.resolve("source"))) {
      for (SnapshotFile file : take(source, 1).files()) {
        copies.add(Files.copy(file.path(), fetched.resolve(file.name())));
      }
    }
    try (FileSnapshotStore target = TestSnapshots.open(root.resolve("target"))) {
      Path sst = fetched.resolve("000001.sst");
      byte[] good = Files.readAllBytes(sst);
      flipBit(sst, 0);
      assertThatThrownBy(() -> target.restore(copies))
          .isInstanceOf(CorruptedSnapshotException.class)
          .hasMessageContaining("000001.sst");
      Files.write(sst, good);

      List<Path> missing = new ArrayList<>(copies);
      missing.remove(sst);
      assertThatThrownBy(() -> target.restore(missing))
          .isInstanceOf(CorruptedSnapshotException.class)
          .hasMessageContaining("000001.sst")
          .hasMessageContaining("no such file");

      List<Path> extra = new ArrayList<>(copies);
      extra.add(Files.writeString(fetched.resolve("LOG"), "x"));
      assertThatThrownBy(() -> target.restore(extra))
          .isInstanceOf(CorruptedSnapshotException.class)
          .hasMessageContaining("LOG");

      List<Path> noChecksums = new ArrayList<>(copies);
      noChecksums.remove(fetched.resolve(SnapshotLayout.CHECKSUM_FILE));
      assertThatThrownBy(() -> target.restore(noChecksums))
          .isInstanceOf(CorruptedSnapshotException.class)
          .hasMessageContaining(SnapshotLayout.CHECKSUM_FILE);

      assertThat(target.snapshots()).isEmpty();
      try (Stream<Path> leftovers = Files.list(root.resolve("target").resolve("transient"))) {
        assertThat(leftovers).isEmpty();
      }
      assertThat(target.restore(copies).id()).isEqualTo(TestSnapshots.metadata(1).id());
    }
  }

  @Test
  void shouldRefuseRestoreOfSnapshotOlderThanTheLatest() throws IOException {
    List<Path> copies = new ArrayList<>();
    Path fetched = Files.createDirectories(work.resolve("fetched"));
    try (FileSnapshotStore source = TestSnapshots.open(root.resolve("source"))) {
      for (SnapshotFile file : take(source, 1).files()) {
        copies.add(Files.copy(file.path(), fetched.resolve(file.name())));
      }
    }
    try (FileSnapshotStore target = TestSnapshots.open(root.resolve("target"))) {
      take(target, 2);
      assertThatThrownBy(() -> target.restore(copies)).isInstanceOf(StaleSnapshotException.class);
      assertThat(target.snapshots())
          .extracting(PersistedSnapshot::id)
          .containsExactly(TestSnapshots.metadata(2).id());
    }
  }

  private static SnapshotFile stateFile(PersistedSnapshot snapshot, int i) {
    String name = String.format("%06d.sst", i);
    Optional<SnapshotFile> file =
        snapshot.files().stream().filter(f -> f.name().equals(name)).findFirst();
    return file.orElseThrow();
  }
}
