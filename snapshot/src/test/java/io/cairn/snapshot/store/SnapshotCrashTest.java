package io.cairn.snapshot.store;

import static io.cairn.snapshot.store.TestSnapshots.crashAt;
import static io.cairn.snapshot.store.TestSnapshots.retaining;
import static io.cairn.snapshot.store.TestSnapshots.take;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A crash (the store abandoned, nothing cleaned up) in every phase of taking a snapshot: after
 * reopening, the store has the old snapshots, or the old ones plus the complete new one — never a
 * partial one — and no transient leftovers.
 */
final class SnapshotCrashTest {

  private static final Set<SnapshotPhase> NEW_SNAPSHOT_SURVIVES =
      EnumSet.of(SnapshotPhase.RENAMED, SnapshotPhase.PERSISTED);

  @TempDir Path root;

  @ParameterizedTest(name = "crash at {0}")
  @EnumSource(
      value = SnapshotPhase.class,
      names = {"DELETING"},
      mode = EnumSource.Mode.EXCLUDE)
  void shouldLeaveOldSetOrOldSetPlusCompleteNewSnapshot(SnapshotPhase phase) throws IOException {
    List<SnapshotId> old;
    try (FileSnapshotStore store = TestSnapshots.open(root, retaining(3))) {
      take(store, 1);
      take(store, 2);
      old = ids(store.snapshots());
    }
    FileSnapshotStore crashing = TestSnapshots.open(root, retaining(3), crashAt(phase));
    assertThatThrownBy(() -> take(crashing, 3)).isInstanceOf(TestSnapshots.SimulatedCrash.class);
    // the crashing store is abandoned: not closed, nothing cleaned up

    try (FileSnapshotStore reopened = TestSnapshots.open(root, retaining(3))) {
      List<SnapshotId> after = ids(reopened.snapshots());
      if (NEW_SNAPSHOT_SURVIVES.contains(phase)) {
        assertThat(after).containsExactly(old.get(0), old.get(1), TestSnapshots.metadata(3).id());
      } else {
        assertThat(after).isEqualTo(old);
      }
      for (PersistedSnapshot snapshot : reopened.snapshots()) {
        reopened.verify(snapshot.id()); // every byte matches its checksum file
      }
      try (Stream<Path> leftovers = Files.list(root.resolve("transient"))) {
        assertThat(leftovers).isEmpty();
      }
      try (Stream<Path> dirs = Files.list(root.resolve("snapshots"))) {
        assertThat(dirs.map(p -> p.getFileName().toString()))
            .containsExactlyInAnyOrderElementsOf(after.stream().map(SnapshotId::toString).toList());
      }
    }
  }

  @Test
  void shouldFinishDeletionOfSnapshotWhenCrashingMidDeletion() throws IOException {
    SnapshotId newest;
    try (FileSnapshotStore store = TestSnapshots.open(root)) {
      take(store, 1);
    }
    FileSnapshotStore crashing =
        TestSnapshots.open(root, retaining(1), crashAt(SnapshotPhase.DELETING));
    // persisting 2 deletes 1 by retention; the crash comes after 1 left the snapshots directory
    assertThatThrownBy(() -> take(crashing, 2)).isInstanceOf(TestSnapshots.SimulatedCrash.class);
    newest = TestSnapshots.metadata(2).id();

    try (FileSnapshotStore reopened = TestSnapshots.open(root)) {
      assertThat(ids(reopened.snapshots())).containsExactly(newest);
      reopened.verify(newest);
      try (Stream<Path> leftovers = Files.list(root.resolve("transient"))) {
        assertThat(leftovers).isEmpty();
      }
    }
  }

  @Test
  void shouldTakeSnapshotsAgainAfterCrashRecovery() {
    FileSnapshotStore crashing =
        TestSnapshots.open(root, retaining(1), crashAt(SnapshotPhase.CHECKSUM_FILE_HALF_WRITTEN));
    assertThatThrownBy(() -> take(crashing, 1)).isInstanceOf(TestSnapshots.SimulatedCrash.class);

    try (FileSnapshotStore reopened = TestSnapshots.open(root)) {
      assertThat(reopened.snapshots()).isEmpty();
      PersistedSnapshot retaken = take(reopened, 1);
      assertThat(reopened.latestSnapshot()).contains(retaken);
    }
  }

  private static List<SnapshotId> ids(List<PersistedSnapshot> snapshots) {
    return snapshots.stream().map(PersistedSnapshot::id).toList();
  }
}
