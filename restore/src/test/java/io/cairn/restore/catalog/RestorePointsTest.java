package io.cairn.restore.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backupapi.archive.ArchiveKeys;
import io.cairn.backupapi.archive.ArchiveLinkCodec;
import io.cairn.backupapi.archive.ArchivedCheckpoint;
import io.cairn.backupapi.archive.ArchivedRecord;
import io.cairn.backupapi.archive.LogArchive;
import io.cairn.backupapi.archive.StoredLink;
import io.cairn.backupapi.content.CompressionPolicy;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.backuptestkit.InMemoryBackupStore;
import io.cairn.restore.BackupSelector;
import io.cairn.restore.RestoreException;
import io.cairn.scheduler.SimClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Restore points the archive records before it holds their records: a point object is written
 * before the link that archives its records, so while the archive is behind (its store failing, its
 * leader in backoff) a point exists that cannot be restored yet.
 */
final class RestorePointsTest {

  private static final int PARTITIONS = 2;
  private static final long NOW = 1_700_000_100_000L;

  private final SimClock clock = new SimClock(NOW);
  private final InMemoryBackupStore store =
      new InMemoryBackupStore(
          new InMemoryBackupStore.Storage(),
          CompressionPolicy.none(),
          BackupEncryption.off(),
          clock,
          Runnable::run);
  private final RestorePoints points = new RestorePoints(store, Duration.ofSeconds(5), clock);

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void shouldTakeTheNewestPointTheArchiveHoldsOnEveryPartitionForATime() throws Exception {
    // given points 1 (index 5) and 2 (index 15) archived on both partitions, and point 3 (index
    // 25) recorded on both but archived on partition 1 only: partition 2's link failed
    archiveBoth(List.of(1L, 2L));
    archive(1, 21, checkpoint(3, 25));
    recordPointOnly(2, checkpoint(3, 25));

    // when restoring to now
    RestorePoints.Resolved resolved =
        points.resolve(new BackupSelector.ToTime(Instant.ofEpochMilli(NOW)), PARTITIONS);

    // then point 2 is taken, not point 3 (whose restore would fail at partition 2's archive)
    assertThat(resolved.checkpointId()).isEqualTo(2);
  }

  @Test
  void shouldRefuseAPointWhoseRecordsAreNotArchivedYetNamingThePartitionAndIndexes()
      throws Exception {
    // given point 3 recorded on both partitions, archived on partition 1 only
    archiveBoth(List.of(1L, 2L));
    archive(1, 21, checkpoint(3, 25));
    recordPointOnly(2, checkpoint(3, 25));

    // then a restore to it is refused with what is missing, before anything is restored
    assertThatThrownBy(() -> points.resolve(new BackupSelector.ToCheckpoint(3), PARTITIONS))
        .isInstanceOf(RestoreException.class)
        .hasMessageContaining("log archive of partition 2")
        .hasMessageContaining("restore point 3 (index 25)")
        .hasMessageContaining("up to index 20")
        .hasMessageContaining("not archived yet");
    // and the points it holds are still found
    assertThat(points.resolve(new BackupSelector.ToCheckpoint(2), PARTITIONS).checkpointId())
        .isEqualTo(2);
  }

  private final List<Optional<StoredLink>> tails =
      new ArrayList<>(List.of(Optional.empty(), Optional.empty(), Optional.empty()));

  /** Links of ten records on both partitions, point {@code id} at index {@code 10(id-1)+5}. */
  private void archiveBoth(List<Long> ids) throws Exception {
    for (long id : ids) {
      for (int partition = 1; partition <= PARTITIONS; partition++) {
        archive(partition, 10 * (id - 1) + 1, checkpoint(id, 10 * (id - 1) + 5));
      }
    }
  }

  private void archive(int partition, long fromIndex, ArchivedCheckpoint point) throws Exception {
    List<ArchivedRecord> records = new ArrayList<>();
    for (long index = fromIndex; index < fromIndex + 10; index++) {
      records.add(new ArchivedRecord(index, index * 10, (int) index, new byte[] {1, 2, 3}));
    }
    LogArchive archive = new LogArchive(store.archive(), partition);
    tails.set(
        partition,
        archive
            .append(tails.get(partition), records, List.of(point), 0, Instant.ofEpochMilli(NOW))
            .get()
            .link());
  }

  /** What an append leaves when its point was written and its chunk or link failed. */
  private void recordPointOnly(int partition, ArchivedCheckpoint point) throws Exception {
    store
        .archive()
        .create(
            ArchiveKeys.point(partition, point.id()),
            new ArchiveLinkCodec().encodePoint(partition, point))
        .get();
  }

  private static ArchivedCheckpoint checkpoint(long id, long index) {
    return new ArchivedCheckpoint(id, index * 10, NOW - 1000 + id, "00", index);
  }
}
