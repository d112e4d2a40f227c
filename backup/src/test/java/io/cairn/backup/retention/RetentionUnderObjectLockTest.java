package io.cairn.backup.retention;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupfs.FilesystemBackupStoreConfig;
import io.cairn.scheduler.SimClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retention over a store whose objects are locked for an hour from their last write: a backup the
 * policy gives up is kept, and reported with the end of its lock, until that lock has ended; then
 * the next pass asks for its deletion. Without a lock the same pass deletes at once.
 */
class RetentionUnderObjectLockTest {

  private static final long HOUR = Duration.ofHours(1).toMillis();
  private static final long T0 = 1_000 * HOUR;

  @TempDir Path root;
  private final ExecutorService executor = Executors.newFixedThreadPool(2);
  private final SimClock clock = new SimClock(T0);
  private final List<Long> asked = new CopyOnWriteArrayList<>();
  private FilesystemBackupStore store;

  @BeforeEach
  void open() throws Exception {
    store =
        FilesystemBackupStore.open(
            FilesystemBackupStoreConfig.of(Files.createDirectories(root.resolve("store"))),
            clock,
            executor,
            executor,
            new SimpleMeterRegistry());
  }

  @AfterEach
  void close() {
    store.close();
    executor.shutdownNow();
  }

  @Test
  void keepsADueBackupUntilItsLockEndsAndSaysUntilWhen() throws Exception {
    save(1); // last written at T0
    clock.advanceTo(T0 + 10 * 60_000);
    save(2); // at T0 + 10 min
    Retention retention = retention(Duration.ofHours(1));

    RetentionRun early = retention.run(T0 + 30 * 60_000).get();
    assertThat(early.requested()).isEmpty();
    assertThat(early.kept()).isEqualTo(2);
    long lockEnd = T0 + HOUR;
    assertThat(early.locked()).containsExactly(new RetentionRun.Locked(1, lockEnd));
    assertThat(early.locked().get(0).toString()).contains("1 (locked until ");
    assertThat(asked).isEmpty();

    assertThat(retention.run(lockEnd - 1).get().requested()).isEmpty();
    RetentionRun after = retention.run(lockEnd).get();
    assertThat(after.locked()).isEmpty();
    assertThat(after.requested()).containsExactly(1L);
    assertThat(asked).containsExactly(1L);
  }

  @Test
  void withoutALockDeletesAtOnce() throws Exception {
    save(1);
    save(2);

    RetentionRun run = retention(Duration.ZERO).run(T0 + 1).get();

    assertThat(run.requested()).containsExactly(1L);
    assertThat(run.locked()).isEmpty();
  }

  private Retention retention(Duration lockPeriod) {
    return new Retention(
        new RetentionPolicy(OptionalInt.of(1), Optional.empty(), 1),
        store,
        2,
        id -> {
          asked.add(id);
          return CompletableFuture.completedFuture("");
        },
        lockPeriod);
  }

  private void save(long id) throws Exception {
    for (int partition = 1; partition <= 2; partition++) {
      Path file = root.resolve("segment-" + partition + "-" + id);
      Files.write(file, new byte[] {1, 2, 3});
      store
          .save(
              Backup.builder(new BackupIdentifier(0, partition, id))
                  .checkpointPosition(10 * id)
                  .numberOfPartitions(2)
                  .brokerVersion("0.1.0")
                  .stateDigest("0a")
                  .segments(NamedFileSet.of(new BackupFile("1.log", file, 3)))
                  .build())
          .get();
    }
  }
}
