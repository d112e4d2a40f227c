package io.cairn.backuptestkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupPage;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusAggregator;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.CheckpointPattern;
import io.cairn.backupapi.ClusterBackupStatusCode;
import io.cairn.backupapi.ManifestException;
import io.cairn.backupapi.PageRequest;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backupapi.manifest.Manifest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Contract: listing by pattern, paging, and concurrent saves. */
public abstract class ListingContractTests extends EncryptionContractTests {

  private static final long[] CHECKPOINTS = {1, 2, 12, 21, 120};

  /** Saves a grid of backups; some partitions' ids are failed or in progress instead. */
  private List<BackupIdentifier> saveGrid() throws Exception {
    List<BackupIdentifier> ids = new ArrayList<>();
    for (int partition = 1; partition <= 3; partition++) {
      for (long checkpoint : CHECKPOINTS) {
        int node = (int) ((partition + checkpoint) % 2);
        BackupIdentifier id = id(node, partition, checkpoint);
        if (partition == 2 && checkpoint == 21) {
          await(store.markFailed(id, "leader changed"));
        } else if (partition == 3 && checkpoint == 2) {
          Backup running = tinyBackup(id);
          writeRawManifest(
              id, CODEC.encode(Manifest.inProgress(running.descriptor(), clock.instant())));
        } else {
          await(store.save(tinyBackup(id)));
        }
        ids.add(id);
      }
    }
    return ids.stream().sorted().toList();
  }

  private List<BackupIdentifier> listAll(BackupIdentifierWildcard wildcard, int pageSize) {
    List<BackupIdentifier> all = new ArrayList<>();
    PageRequest request = PageRequest.first(pageSize);
    for (int pages = 0; pages < 1000; pages++) {
      BackupPage page = await(store.list(wildcard, request));
      assertThat(page.statuses()).hasSizeLessThanOrEqualTo(pageSize);
      page.statuses().forEach(s -> all.add(s.id()));
      if (page.nextPageToken().isEmpty()) {
        return all;
      }
      request = request.next(page);
    }
    throw new AssertionError("Expected a listing to end within 1000 pages");
  }

  private static List<BackupIdentifier> filter(
      List<BackupIdentifier> ids, Predicate<BackupIdentifier> predicate) {
    return ids.stream().filter(predicate).toList();
  }

  @Test
  void shouldListByNodePartitionAndCheckpointPattern() throws Exception {
    List<BackupIdentifier> ids = saveGrid();

    assertThat(listAll(BackupIdentifierWildcard.all(), 100)).containsExactlyElementsOf(ids);
    assertThat(listAll(BackupIdentifierWildcard.ofNode(1), 100))
        .containsExactlyElementsOf(filter(ids, id -> id.nodeId() == 1));
    assertThat(listAll(BackupIdentifierWildcard.ofPartition(2), 100))
        .containsExactlyElementsOf(filter(ids, id -> id.partitionId() == 2));
    assertThat(listAll(BackupIdentifierWildcard.ofCheckpoints(CheckpointPattern.exact(12)), 100))
        .containsExactlyElementsOf(filter(ids, id -> id.checkpointId() == 12));
    assertThat(listAll(BackupIdentifierWildcard.ofCheckpoints(CheckpointPattern.parse("1*")), 100))
        .containsExactlyElementsOf(
            filter(
                ids,
                id ->
                    id.checkpointId() == 1 || id.checkpointId() == 12 || id.checkpointId() == 120));
    assertThat(listAll(BackupIdentifierWildcard.ofCheckpoints(CheckpointPattern.parse("12*")), 100))
        .containsExactlyElementsOf(
            filter(ids, id -> id.checkpointId() == 12 || id.checkpointId() == 120));
    assertThat(
            listAll(
                BackupIdentifierWildcard.ofPartition(3)
                    .withNode(0)
                    .withCheckpoints(CheckpointPattern.parse("2*")),
                100))
        .containsExactlyElementsOf(
            filter(
                ids,
                id ->
                    id.partitionId() == 3
                        && id.nodeId() == 0
                        && Long.toString(id.checkpointId()).startsWith("2")));
    assertThat(listAll(BackupIdentifierWildcard.ofPartition(7), 100)).isEmpty();
    assertThat(listAll(BackupIdentifierWildcard.ofCheckpoints(CheckpointPattern.exact(3)), 100))
        .isEmpty();
  }

  @Test
  void shouldListTheStatusOfEveryState() throws Exception {
    saveGrid();

    List<BackupStatus> statuses =
        await(store.list(BackupIdentifierWildcard.all(), PageRequest.first())).statuses();

    assertThat(statuses).hasSize(15);
    assertThat(statuses)
        .filteredOn(s -> s.id().equals(id(1, 2, 21)))
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.statusCode()).isEqualTo(BackupStatusCode.FAILED);
              assertThat(s.failureReason()).contains("leader changed");
            });
    assertThat(statuses)
        .filteredOn(s -> s.id().equals(id(1, 3, 2)))
        .singleElement()
        .satisfies(s -> assertThat(s.statusCode()).isEqualTo(BackupStatusCode.IN_PROGRESS));
    assertThat(statuses)
        .filteredOn(s -> s.statusCode() == BackupStatusCode.COMPLETED)
        .hasSize(13)
        .allSatisfy(s -> assertThat(s).isEqualTo(await(store.getStatus(s.id()))));
  }

  @Test
  void shouldPageThroughEveryBackupExactlyOnce() throws Exception {
    List<BackupIdentifier> ids = saveGrid();

    for (int pageSize : new int[] {1, 2, 4, 5, 15, 16}) {
      assertThat(listAll(BackupIdentifierWildcard.all(), pageSize))
          .as("page size %d", pageSize)
          .containsExactlyElementsOf(ids);
    }
    assertThat(listAll(BackupIdentifierWildcard.ofPartition(1), 2))
        .containsExactlyElementsOf(filter(ids, id -> id.partitionId() == 1));
  }

  @Test
  void shouldListCorruptManifestAsFailedWithItsPathAndListTheOtherBackups() throws Exception {
    // given backups 4, 5 and 6 of partitions 1 and 2, where both copies of 5 have a damaged
    // manifest: partition 1's cut in half, partition 2's opening brace bit-flipped
    List<BackupIdentifier> ids = new ArrayList<>();
    for (int partition = 1; partition <= 2; partition++) {
      for (long checkpoint = 4; checkpoint <= 6; checkpoint++) {
        BackupIdentifier id = id(0, partition, checkpoint);
        await(store.save(tinyBackup(id)));
        ids.add(id);
      }
    }
    BackupIdentifier truncated = id(0, 1, 5);
    BackupIdentifier flipped = id(0, 2, 5);
    byte[] whole = readRawManifest(truncated);
    writeRawManifest(truncated, Arrays.copyOf(whole, whole.length / 2));
    byte[] flippedBytes = readRawManifest(flipped);
    flippedBytes[0] ^= 0x01;
    writeRawManifest(flipped, flippedBytes);
    String truncatedPath =
        catchThrowableOfType(() -> await(store.getStatus(truncated)), ManifestException.class)
            .manifest();
    String flippedPath =
        catchThrowableOfType(() -> await(store.getStatus(flipped)), ManifestException.class)
            .manifest();

    // when everything is listed, in one page and one backup per page
    List<BackupStatus> statuses =
        await(store.list(BackupIdentifierWildcard.all(), PageRequest.first())).statuses();

    // then every backup is listed, the damaged ones FAILED naming their manifest and the problem
    assertThat(statuses).extracting(BackupStatus::id).containsExactlyElementsOf(ids);
    assertThat(listAll(BackupIdentifierWildcard.all(), 1)).containsExactlyElementsOf(ids);
    for (var bad : List.of(List.of(truncated, truncatedPath), List.of(flipped, flippedPath))) {
      assertThat(statuses)
          .filteredOn(s -> s.id().equals(bad.get(0)))
          .singleElement()
          .satisfies(
              s -> {
                assertThat(s.statusCode()).isEqualTo(BackupStatusCode.FAILED);
                assertThat(s.isManifestUnreadable()).isTrue();
                assertThat(s.descriptor()).isEmpty();
                assertThat(s.createdAt()).isPresent();
                assertThat(s.failureReason())
                    .hasValueSatisfying(
                        reason ->
                            assertThat(reason)
                                .contains((String) bad.get(1))
                                .contains("cannot be parsed"));
              });
    }
    assertThat(statuses)
        .filteredOn(s -> s.id().checkpointId() != 5)
        .hasSize(4)
        .allSatisfy(
            s -> {
              assertThat(s.statusCode()).isEqualTo(BackupStatusCode.COMPLETED);
              assertThat(s.isManifestUnreadable()).isFalse();
            });
    // and backup 5 is FAILED for the cluster, while 6 is COMPLETED
    assertThat(
            BackupStatusAggregator.aggregate(
                    5, 2, statuses.stream().filter(s -> s.id().checkpointId() == 5).toList())
                .statusCode())
        .isEqualTo(ClusterBackupStatusCode.FAILED);
    assertThat(
            BackupStatusAggregator.aggregate(
                    6, 2, statuses.stream().filter(s -> s.id().checkpointId() == 6).toList())
                .statusCode())
        .isEqualTo(ClusterBackupStatusCode.COMPLETED);
    // and deleting a damaged backup clears it from the listing
    await(store.delete(truncated));
    assertThat(listAll(BackupIdentifierWildcard.ofPartition(1), 100))
        .containsExactly(id(0, 1, 4), id(0, 1, 6));
  }

  @Test
  void shouldReturnEmptyPageWithoutTokenWhenNothingMatches() {
    BackupPage page = await(store.list(BackupIdentifierWildcard.all(), PageRequest.first()));

    assertThat(page.statuses()).isEmpty();
    assertThat(page.nextPageToken()).isEmpty();
  }

  @Test
  void shouldRejectPageTokenTheStoreDidNotHandOut() {
    var request = new PageRequest(Optional.of("not-a-token"), 10);

    assertThatThrownBy(() -> await(store.list(BackupIdentifierWildcard.all(), request)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not-a-token");
  }

  @Test
  void shouldSaveBackupsOfDifferentPartitionsConcurrently() throws Exception {
    List<Backup> backups = new ArrayList<>();
    for (int partition = 1; partition <= 4; partition++) {
      backups.add(typicalBackup(id(partition % 2, partition, 60)));
    }

    List<CompletableFuture<BackupSaveResult>> saves = backups.stream().map(store::save).toList();

    for (var save : saves) {
      assertThat(await(save).status().statusCode()).isEqualTo(BackupStatusCode.COMPLETED);
    }
    for (Backup backup : backups) {
      Path target = newDirectory("restore");
      assertRestoredIdentical(
          backup, await(store.restore(backup.id(), target, RestoreProgressListener.NOOP)), target);
    }
    assertThat(listAll(BackupIdentifierWildcard.ofCheckpoints(CheckpointPattern.exact(60)), 2))
        .containsExactlyElementsOf(backups.stream().map(Backup::id).sorted().toList());
  }
}
