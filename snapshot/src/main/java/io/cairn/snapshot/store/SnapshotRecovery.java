package io.cairn.snapshot.store;

import io.cairn.files.DurableFiles;
import io.cairn.snapshot.CorruptedSnapshotException;
import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotException;
import io.cairn.snapshot.SnapshotFile;
import io.cairn.snapshot.SnapshotId;
import io.cairn.snapshot.SnapshotReservation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies the newest valid snapshot's state for recovery, checking every byte copied against the
 * checksum file; a snapshot that does not match is marked corrupt and the next older one is tried.
 */
final class SnapshotRecovery {

  private static final Logger LOG = LoggerFactory.getLogger(SnapshotRecovery.class);

  private final FileSnapshotStore store;

  SnapshotRecovery(FileSnapshotStore store) {
    this.store = store;
  }

  Optional<PersistedSnapshot> copyNewestValid(Path target) {
    Set<SnapshotId> tried = new HashSet<>();
    while (true) {
      Optional<SnapshotReservation> next =
          store.reserveNewest(snapshot -> !tried.contains(snapshot.id()));
      if (next.isEmpty()) {
        LOG.warn(
            "No valid snapshot in {} to recover from{}; the whole log is replayed",
            store.directory(),
            tried.isEmpty() ? "" : " (found corrupt: " + tried + ")");
        return Optional.empty();
      }
      try (SnapshotReservation reservation = next.get()) {
        PersistedSnapshot snapshot = reservation.snapshot();
        tried.add(snapshot.id());
        try {
          copyState(snapshot, target);
          LOG.info("Copied snapshot {} to {} for recovery", snapshot.id(), target);
          return Optional.of(snapshot);
        } catch (CorruptedSnapshotException e) {
          store.deleteQuietly(target);
          store.markCorrupt(snapshot, e);
        } catch (IOException e) {
          store.deleteQuietly(target);
          throw new SnapshotException(
              "Expected to copy snapshot " + snapshot.id() + " to " + target + ", but " + e, e);
        }
      }
    }
  }

  /**
   * Copies the state files into {@code target} and reads the metadata and checksum files, checking
   * each against what the snapshot records.
   */
  private static void copyState(PersistedSnapshot snapshot, Path target) throws IOException {
    Files.createDirectory(target);
    for (SnapshotFile file : snapshot.files()) {
      boolean state = !SnapshotLayout.isReservedFileName(file.name());
      FileChecksums.Checksum actual;
      try {
        actual =
            state
                ? FileChecksums.copy(file.path(), target.resolve(file.name()))
                : FileChecksums.checksum(file.path());
      } catch (NoSuchFileException e) {
        throw new CorruptedSnapshotException(
            snapshot.id().toString(), file.name(), SnapshotReader.describe(file), "no such file");
      }
      SnapshotReader.check(snapshot, file, actual);
    }
    DurableFiles.fsyncDirectory(target);
  }
}
