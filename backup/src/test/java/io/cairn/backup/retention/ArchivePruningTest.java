package io.cairn.backup.retention;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backupapi.archive.ArchiveKeys;
import io.cairn.backupapi.archive.ArchivedCheckpoint;
import io.cairn.backupapi.archive.ArchivedRecord;
import io.cairn.backupapi.archive.LogArchive;
import io.cairn.backupapi.archive.StoredLink;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupfs.FilesystemBackupStoreConfig;
import io.cairn.scheduler.Clock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Archive pruning after retention, on a real filesystem store: the links that end before the oldest
 * kept backup's checkpoint go with their chunks, the link holding it and everything after stay and
 * still read back as a chain, and the restore points below the kept backup's id go.
 */
class ArchivePruningTest {

  private static final int PARTITION = 2;

  @TempDir Path root;
  private final ExecutorService executor = Executors.newFixedThreadPool(2);
  private FilesystemBackupStore store;

  @BeforeEach
  void open() throws Exception {
    Files.createDirectories(root.resolve("store"));
    store =
        FilesystemBackupStore.open(
            FilesystemBackupStoreConfig.of(root.resolve("store")),
            Clock.system(),
            executor,
            executor,
            new SimpleMeterRegistry());
  }

  @AfterEach
  void close() {
    store.close();
    executor.shutdownNow();
  }

  /** Five links of ten records; record i holds positions 10i..10i+9; a point in every link. */
  private List<StoredLink> archive() throws Exception {
    return archive(link -> Instant.EPOCH);
  }

  /** {@link #archive()} with link {@code n} archived at {@code archivedAt(n)}. */
  private List<StoredLink> archive(java.util.function.IntFunction<Instant> archivedAt)
      throws Exception {
    LogArchive archive = new LogArchive(store.archive(), PARTITION);
    List<StoredLink> links = new ArrayList<>();
    Optional<StoredLink> previous = Optional.empty();
    for (int link = 0; link < 5; link++) {
      List<ArchivedRecord> records = new ArrayList<>();
      for (long index = link * 10L + 1; index <= link * 10L + 10; index++) {
        records.add(new ArchivedRecord(index, index * 10, (int) index, new byte[] {1, 2, 3}));
      }
      long pointIndex = link * 10L + 5;
      ArchivedCheckpoint point =
          new ArchivedCheckpoint(100 + link, pointIndex * 10, 0, "00", pointIndex);
      previous =
          archive.append(previous, records, List.of(point), 0, archivedAt.apply(link)).get().link();
      links.add(previous.orElseThrow());
    }
    return links;
  }

  @Test
  void removesWhatEndsBeforeTheOldestKeptBackupAndKeepsTheChainFromIt() throws Exception {
    List<StoredLink> links = archive();
    // the oldest kept backup is checkpoint 102 at position 255 (in the third link, 21..30)
    int deleted =
        new ArchivePruning(store, 3, Duration.ZERO)
            .prune(Map.of(PARTITION, new long[] {102, 255}), 0)
            .get();

    assertThat(deleted).as("two links, their chunks, two points").isEqualTo(6);
    LogArchive archive = new LogArchive(store.archive(), PARTITION);
    assertThat(store.archive().list(ArchiveKeys.linksDirectory(PARTITION), null, 100).get())
        .containsExactly(links.get(2).key(), links.get(3).key(), links.get(4).key());
    assertThat(archive.pointIds(0, 100).get()).containsExactly(102L, 103L, 104L);
    assertThat(archive.chain(25, 50).get())
        .extracting(l -> l.link().fromIndex())
        .containsExactly(21L, 31L, 41L);
    assertThat(archive.read(links.get(2).link()).get()).hasSize(10);
  }

  @Test
  void keepsEverythingOfAPartitionWithoutAKeptBackupOrBeforeItsFirstLink() throws Exception {
    List<StoredLink> links = archive();
    assertThat(new ArchivePruning(store, 3, Duration.ZERO).prune(Map.of(), 0).get()).isZero();
    assertThat(
            new ArchivePruning(store, 3, Duration.ZERO)
                .prune(Map.of(PARTITION, new long[] {100, 15}), 0)
                .get())
        .isZero();
    assertThat(store.archive().list(ArchiveKeys.linksDirectory(PARTITION), null, 100).get())
        .hasSize(links.size());
  }

  /**
   * Under a lock each link goes only once its own lock ended, oldest first, with the restore points
   * it holds; the first link still locked stops the pass.
   */
  @Test
  void underAnObjectLockRemovesOnlyLinksWhoseLockEnded() throws Exception {
    long hour = Duration.ofHours(1).toMillis();
    // link n archived at n hours
    List<StoredLink> links = archive(n -> Instant.ofEpochMilli(n * hour));
    var pruning = new ArchivePruning(store, 3, Duration.ofHours(1));
    Map<Integer, long[]> keptAt102 = Map.of(PARTITION, new long[] {102, 255});

    assertThat(pruning.prune(keptAt102, hour - 1).get())
        .as("the first link is locked until 1 h")
        .isZero();
    assertThat(pruning.prune(keptAt102, hour).get())
        .as("the first link, its chunk and its point")
        .isEqualTo(3);
    assertThat(new LogArchive(store.archive(), PARTITION).pointIds(0, 100).get())
        .containsExactly(101L, 102L, 103L, 104L);
    assertThat(pruning.prune(keptAt102, 10 * hour).get())
        .as("the second link, its chunk and its point; the third holds the kept checkpoint")
        .isEqualTo(3);
    assertThat(store.archive().list(ArchiveKeys.linksDirectory(PARTITION), null, 100).get())
        .containsExactly(links.get(2).key(), links.get(3).key(), links.get(4).key());
    assertThat(new LogArchive(store.archive(), PARTITION).pointIds(0, 100).get())
        .containsExactly(102L, 103L, 104L);
  }
}
