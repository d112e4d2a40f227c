package io.cairn.backup.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupapi.PageRequest;
import io.cairn.backupapi.archive.ArchivedCheckpoint;
import io.cairn.backupapi.archive.ArchivedRecord;
import io.cairn.backupapi.archive.LogArchive;
import io.cairn.backupapi.archive.StoredLink;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupfs.FilesystemBackupStoreConfig;
import io.cairn.scheduler.SimClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A seeded model of retention with the log archive, on a real filesystem store and a real {@link
 * LogArchive}: a partition's log is archived link by link, with restore points (markers) and
 * backups at random records; after each step retention runs with a random policy, an object lock or
 * none, and crashes (a deletion refused) at random. After every step:
 *
 * <ul>
 *   <li>every restore point at or after the oldest completed backup is restorable: the archive
 *       holds an unbroken chain from the checkpoint of the newest completed backup at or before it
 *       to it (points before every backup are unreachable and may linger until pruned);
 *   <li>no restore point at or after the oldest completed backup was removed;
 *   <li>at least {@code min(minCount, completed before)} completed backups remain.
 * </ul>
 *
 * Record {@code i} has journal index {@code i} and position {@code 10 i}. A failure names the seed
 * and step.
 */
class ArchiveRetentionModelTest {

  private static final int PARTITION = 1;
  private static final long MINUTE = 60_000;

  private final ExecutorService executor = Executors.newFixedThreadPool(2);
  private final SimClock clock = new SimClock(1_000 * MINUTE);
  @TempDir Path root;
  private FilesystemBackupStore store;

  @AfterEach
  void close() throws Exception {
    if (store != null) {
      store.close();
    }
    executor.shutdownNow();
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6})
  void neverRemovesWhatARestorePointNeeds(long seed) throws Exception {
    store = open(root.resolve("store"));
    Random random = new Random(seed);
    int minCount = 1 + random.nextInt(2);
    RetentionPolicy policy =
        new RetentionPolicy(
            OptionalInt.of(minCount + random.nextInt(3)), Optional.empty(), minCount);
    Duration lock =
        random.nextBoolean() ? Duration.ZERO : Duration.ofMinutes(5 + random.nextInt(30));
    LogArchive archive = new LogArchive(store.archive(), PARTITION);
    TreeMap<Long, ArchivedCheckpoint> points = new TreeMap<>();
    Optional<StoredLink> tail = Optional.empty();
    long nextIndex = 1;

    for (int step = 0; step < 60; step++) {
      String where = "seed " + seed + ", step " + step + ", " + policy + ", lock " + lock;
      clock.advance(Duration.ofMillis(MINUTE + random.nextInt((int) (5 * MINUTE))));
      // one link of 1..6 records, maybe with a marker and maybe a backup's checkpoint in it
      int count = 1 + random.nextInt(6);
      List<ArchivedRecord> records = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        long index = nextIndex + i;
        records.add(new ArchivedRecord(index, index * 10, (int) index, new byte[] {(byte) index}));
      }
      List<ArchivedCheckpoint> linkPoints = new ArrayList<>();
      Optional<ArchivedCheckpoint> backupPoint = Optional.empty();
      long pointId = clock.millis();
      if (random.nextInt(3) == 0) {
        ArchivedCheckpoint point = point(pointId++, nextIndex + random.nextInt(count));
        backupPoint = Optional.of(point);
        linkPoints.add(point);
      }
      if (random.nextBoolean()) {
        long index = nextIndex + random.nextInt(count);
        if (backupPoint.isEmpty() || backupPoint.get().index() < index) {
          linkPoints.add(point(pointId, index));
        }
      }
      tail =
          archive
              .append(tail, records, linkPoints, 0, Instant.ofEpochMilli(clock.millis()))
              .get()
              .link();
      linkPoints.forEach(p -> points.put(p.id(), p));
      nextIndex += count;
      if (backupPoint.isPresent()) {
        save(backupPoint.get());
      }

      int completedBefore = completed().size();
      Retention retention =
          new Retention(
              policy,
              store,
              1,
              id -> {
                if (random.nextInt(5) == 0) {
                  return CompletableFuture.completedFuture("crashed before deleting " + id);
                }
                return store
                    .delete(new BackupIdentifier(0, PARTITION, id))
                    .thenApply(ignored -> "");
              },
              lock);
      retention.run(clock.millis()).get();

      List<BackupStatus> completed = completed();
      assertThat(completed.size())
          .as("%s: completed backups left", where)
          .isGreaterThanOrEqualTo(Math.min(minCount, completedBefore));
      List<Long> remaining = archive.pointIds(0, 1000).get();
      long oldest = completed.isEmpty() ? Long.MAX_VALUE : completed.get(0).id().checkpointId();
      for (long id : remaining) {
        if (id < oldest) {
          continue; // before every backup: unreachable, and pruned once a backup is kept
        }
        ArchivedCheckpoint point = points.get(id);
        Optional<BackupStatus> base =
            completed.stream().filter(b -> b.id().checkpointId() <= id).reduce((a, b) -> b);
        assertThat(base)
            .as("%s: a completed backup at or before restore point %d", where, id)
            .isPresent();
        long from = base.get().descriptor().orElseThrow().checkpointPosition() / 10;
        assertThatCode(() -> archive.chain(from, point.index()).get())
            .as("%s: the archive from backup %s to restore point %d", where, base.get().id(), id)
            .doesNotThrowAnyException();
      }
      if (!completed.isEmpty()) {
        assertThat(remaining)
            .as("%s: restore points from the oldest completed backup %d on", where, oldest)
            .containsAll(points.tailMap(oldest, true).keySet());
      }
    }
  }

  private static ArchivedCheckpoint point(long id, long index) {
    return new ArchivedCheckpoint(id, index * 10, id, "00", index);
  }

  /** A completed backup whose checkpoint is {@code point}. */
  private void save(ArchivedCheckpoint point) throws Exception {
    BackupIdentifier id = new BackupIdentifier(0, PARTITION, point.id());
    Path file = root.resolve("segment-" + point.id());
    Files.write(file, new byte[] {1, 2, 3});
    store
        .save(
            Backup.builder(id)
                .checkpointPosition(point.position())
                .numberOfPartitions(1)
                .brokerVersion("0.1.0")
                .stateDigest("00")
                .segments(NamedFileSet.of(new BackupFile("1.log", file, 3)))
                .build())
        .get();
  }

  /** The completed backups, oldest first. */
  private List<BackupStatus> completed() throws Exception {
    return store
        .list(BackupIdentifierWildcard.all(), PageRequest.first(1000))
        .get()
        .statuses()
        .stream()
        .filter(s -> s.statusCode() == BackupStatusCode.COMPLETED)
        .sorted(java.util.Comparator.comparingLong(s -> s.id().checkpointId()))
        .toList();
  }

  private FilesystemBackupStore open(Path directory) throws Exception {
    return FilesystemBackupStore.open(
        FilesystemBackupStoreConfig.of(Files.createDirectories(directory)),
        clock,
        executor,
        executor,
        new SimpleMeterRegistry());
  }
}
