package io.cairn.snapshot.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.snapshot.PersistedSnapshot;
import io.cairn.snapshot.SnapshotFile;
import io.cairn.snapshot.SnapshotReservation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The partition takes snapshots while a backup uploader reserves the newest one, reads every file
 * and checks it against the checksum file, and releases it: the uploader never sees a missing or
 * changed file, and afterwards only the retained snapshot is left.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
final class SnapshotStoreConcurrencyTest {

  private static final int SNAPSHOTS = 60;

  @TempDir Path root;

  @Test
  void shouldKeepReservedSnapshotsIntactWhileNewOnesAreTakenConcurrently() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try (FileSnapshotStore store = TestSnapshots.open(root)) {
      TestSnapshots.take(store, 1);
      AtomicBoolean taking = new AtomicBoolean(true);
      Future<Integer> uploads =
          threads.submit(
              () -> {
                int uploaded = 0;
                while (taking.get() || uploaded == 0) {
                  Optional<SnapshotReservation> reservation = store.reserveNewest(snapshot -> true);
                  if (reservation.isEmpty()) {
                    continue;
                  }
                  try (SnapshotReservation held = reservation.get()) {
                    PersistedSnapshot snapshot = held.snapshot();
                    for (SnapshotFile file : snapshot.files()) {
                      FileChecksums.Checksum read = FileChecksums.checksum(file.path());
                      assertThat(read.sizeBytes()).isEqualTo(file.sizeBytes());
                      assertThat(read.crc32c()).isEqualTo(file.crc32c());
                    }
                    assertThat(store.compactionBoundIndex()).isLessThanOrEqualTo(snapshot.index());
                    uploaded++;
                  }
                }
                return uploaded;
              });
      Future<?> partition =
          threads.submit(
              () -> {
                try {
                  for (long n = 2; n <= SNAPSHOTS; n++) {
                    TestSnapshots.take(store, n);
                  }
                } finally {
                  taking.set(false);
                }
                return null;
              });

      partition.get(50, TimeUnit.SECONDS);
      assertThat(uploads.get(50, TimeUnit.SECONDS)).isPositive();

      List<PersistedSnapshot> left = store.snapshots();
      assertThat(left)
          .extracting(PersistedSnapshot::id)
          .containsExactly(TestSnapshots.metadata(SNAPSHOTS).id());
      try (Stream<Path> dirs = Files.list(root.resolve("snapshots"))) {
        assertThat(dirs).hasSize(1);
      }
      try (Stream<Path> leftovers = Files.list(root.resolve("transient"))) {
        assertThat(leftovers).isEmpty();
      }
    } finally {
      threads.shutdownNow();
      assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void shouldNeverLetTwoThreadsReleaseIntoANegativeCount() throws IOException, Exception {
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try (FileSnapshotStore store = TestSnapshots.open(root)) {
      PersistedSnapshot snapshot = TestSnapshots.take(store, 1);
      SnapshotReservation shared = store.reserve(snapshot.id());
      Future<?> a = threads.submit(shared::close);
      Future<?> b = threads.submit(shared::close);
      a.get(10, TimeUnit.SECONDS);
      b.get(10, TimeUnit.SECONDS); // the second close is a no-op, not an error

      SnapshotReservation again = store.reserve(snapshot.id());
      TestSnapshots.take(store, 2);
      assertThat(store.snapshots()).hasSize(2);
      again.close();
      assertThat(store.snapshots()).hasSize(1);
    } finally {
      threads.shutdownNow();
    }
  }
}
