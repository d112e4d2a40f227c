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
import io.cairn.restore.RestoreProblem;
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

  @Test
  void shouldListTheNewestPointsNewestFirstSayingWhichAreNotRestorableAndWhy() throws Exception {
    // given points 1..3 archived on both partitions, point 4 archived on partition 1 only and
    // point 5 recorded on partition 1 only
    archiveBoth(List.of(1L, 2L, 3L));
    archive(1, 31, checkpoint(4, 35));
    recordPointOnly(2, checkpoint(4, 35));
    archive(1, 41, checkpoint(5, 45));

    // when listing the newest four
    List<RestorePoints.Listed> listed = points.newest(PARTITIONS, 4);

    // then 5, 4, 3, 2: the two newest are not restorable, each naming the partition at fault
    assertThat(listed)
        .extracting(RestorePoints.Listed::checkpointId)
        .containsExactly(5L, 4L, 3L, 2L);
    assertThat(listed.get(0).restorable()).isFalse();
    assertThat(listed.get(0).detail()).isEqualTo("not recorded on partition 2");
    assertThat(listed.get(1).restorable()).isFalse();
    assertThat(listed.get(1).detail()).isEqualTo("not archived yet on partition 2");
    assertThat(listed.subList(2, 4)).allSatisfy(p -> assertThat(p.restorable()).isTrue());
    assertThat(listed.get(2).takenAt()).isEqualTo(Instant.ofEpochMilli(NOW - 1000 + 3));
    // and what it calls restorable, a restore resolves; what it does not, a restore refuses
    assertThat(points.resolve(new BackupSelector.ToCheckpoint(3), PARTITIONS).checkpointId())
        .isEqualTo(3);
    assertThatThrownBy(() -> points.resolve(new BackupSelector.ToCheckpoint(4), PARTITIONS))
        .isInstanceOf(RestoreException.class);
    assertThatThrownBy(() -> points.newest(PARTITIONS, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Expected a limit in [1, 1000], but was 0");
  }

  @Test
  void shouldNotCallAPointInsideAGapOfTheArchiveRestorable() throws Exception {
    // given points 1 and 2 archived on both partitions; on partition 2, point 3 (index 25) was
    // recorded but its records were lost before they were archived, and a later leader started a
    // new chain at index 31 (with point 4)
    archiveBoth(List.of(1L, 2L));
    archive(1, 21, checkpoint(3, 25));
    recordPointOnly(2, checkpoint(3, 25));
    archive(1, 31, checkpoint(4, 35));
    tails.set(2, Optional.empty());
    archive(2, 31, checkpoint(4, 35));

    // when listing them
    List<RestorePoints.Listed> listed = points.newest(PARTITIONS, 10);

    // then point 3 is not restorable, naming the gap; the others are (partition 2's archive holds
    // records up to index 40, past point 3: its tail alone does not tell)
    assertThat(listed)
        .extracting(RestorePoints.Listed::checkpointId)
        .containsExactly(4L, 3L, 2L, 1L);
    assertThat(listed.get(1).restorable()).isFalse();
    assertThat(listed.get(1).detail())
        .isEqualTo("in a gap of partition 2's archive (indexes 21 to 30 are not archived)");
    assertThat(List.of(listed.get(0), listed.get(2), listed.get(3)))
        .allSatisfy(p -> assertThat(p.restorable()).isTrue());
    // and a restore to it is refused before anything is restored, naming the gap
    assertThatThrownBy(() -> points.resolve(new BackupSelector.ToCheckpoint(3), PARTITIONS))
        .isInstanceOf(RestoreException.class)
        .satisfies(
            e ->
                assertThat(((RestoreException) e).problem())
                    .isEqualTo(RestoreProblem.ARCHIVE_DAMAGED))
        .hasMessageContaining("restore point 3 (index 25)")
        .hasMessageContaining("indexes 21 to 30 are not archived");
    // while a restore to the time of point 3 takes point 2, the newest the archive holds
    Instant pointThree = Instant.ofEpochMilli(NOW - 1000 + 3);
    assertThat(points.resolve(new BackupSelector.ToTime(pointThree), PARTITIONS).checkpointId())
        .isEqualTo(2);
  }

  @Test
  void shouldFindTheLinkThatHoldsAPointFarBehindTheNewestLinks() throws Exception {
    // given one link of 100 records holding point 1 at index 95, and 40 links of ten records after
    // it (the look back from a point steps over several links)
    for (int partition = 1; partition <= PARTITIONS; partition++) {
      archive(partition, 1, 100, checkpoint(1, 95));
      for (int link = 0; link < 40; link++) {
        archive(partition, 101 + 10 * link, 10, checkpoint(2 + link, 105 + 10 * link));
      }
    }

    // then every point is restorable, the oldest too
    List<RestorePoints.Listed> listed = points.newest(PARTITIONS, 1000);
    assertThat(listed).hasSize(41).allSatisfy(p -> assertThat(p.restorable()).isTrue());
    assertThat(points.resolve(new BackupSelector.ToCheckpoint(1), PARTITIONS).checkpointId())
        .isEqualTo(1);
  }

  @Test
  void shouldFindTheLinkOfAnOlderCandidateAfterANewerOneFailedInATimeSearch() throws Exception {
    // given points 1 and 2 in one long link (indexes 1 to 100) on both partitions, and point 3 in
    // the next link on partition 1 only: partition 2 archived that link without the point
    for (int partition = 1; partition <= PARTITIONS; partition++) {
      archive(partition, 1, 100, checkpoint(1, 50), checkpoint(2, 95));
    }
    archive(1, 101, checkpoint(3, 105));
    archive(2, 101, 10);

    // when restoring to now: point 3 is tried first (its link on partition 1 found by looking
    // back from index 105), then point 2, whose link starts further back than that look
    RestorePoints.Resolved resolved =
        points.resolve(new BackupSelector.ToTime(Instant.ofEpochMilli(NOW)), PARTITIONS);

    // then point 2 is taken: its records are archived on both partitions
    assertThat(resolved.checkpointId()).isEqualTo(2);
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
    archive(partition, fromIndex, 10, point);
  }

  private void archive(int partition, long fromIndex, int count, ArchivedCheckpoint... points)
      throws Exception {
    List<ArchivedRecord> records = new ArrayList<>();
    for (long index = fromIndex; index < fromIndex + count; index++) {
      records.add(new ArchivedRecord(index, index * 10, (int) index, new byte[] {1, 2, 3}));
    }
    LogArchive archive = new LogArchive(store.archive(), partition);
    tails.set(
        partition,
        archive
            .append(tails.get(partition), records, List.of(points), 0, Instant.ofEpochMilli(NOW))
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
