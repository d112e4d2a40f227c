package io.cairn.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backup.Checkpoint;
import io.cairn.backup.restore.RestoreMarker;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupfs.layout.StoreLayout;
import io.cairn.backuptestkit.ManifestTampering;
import io.cairn.broker.partition.PartitionLayout;
import io.cairn.restore.RestoreException.Kind;
import io.cairn.restore.layout.DataDirectoryLayout;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@link RestoreConfig#allowPartial()}: a store where partition 2's segment is corrupted in both
 * nodes' copies of backup 5.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class PartialRestoreTest {

  private BackupFixture fixture;
  private Path damaged;
  private String segmentName;

  @BeforeAll
  void damagePartitionTwoInEveryCopy() throws IOException {
    fixture = BackupFixture.get();
    damaged = fixture.copyOfStore();
    StoreLayout layout = new StoreLayout(damaged);
    BackupIdentifier first = new BackupIdentifier(0, 2, BackupFixture.CUT);
    BackupIdentifier second = new BackupIdentifier(1, 2, BackupFixture.CUT);
    copyTree(layout.contentsDirectory(first), layout.contentsDirectory(second));
    Files.createDirectories(layout.manifestDirectory(second));
    Files.writeString(
        layout.manifestFile(second),
        ManifestTampering.reseal(
            Files.readString(layout.manifestFile(first))
                .replace("\"nodeId\" : 0", "\"nodeId\" : 1")));
    for (BackupIdentifier id : new BackupIdentifier[] {first, second}) {
      Path segment;
      try (Stream<Path> files = Files.list(layout.fileSetDirectory(id, FileSetKind.SEGMENTS))) {
        segment = files.sorted().findFirst().orElseThrow();
      }
      segmentName = segment.getFileName().toString();
      RestoreFromRealBackupTest.flipByte(segment, Files.size(segment) / 2);
    }
  }

  private static BackupRestorer restorer(FilesystemBackupStore from, boolean allowPartial) {
    return BackupRestorer.builder()
        .store(from)
        .meterRegistry(new SimpleMeterRegistry())
        .config(RestoreConfig.builder().allowPartial(allowPartial).build())
        .build();
  }

  @Test
  void shouldRestoreTheOtherPartitionsAndReportTheOneWhoseEveryCopyIsCorrupted() {
    // given an empty data directory
    Path data = fixture.newDirectory("partial-");

    // when backup 5 is restored with partial restores allowed
    RestoreResult result;
    try (BackupFixture.Stores stores = new BackupFixture.Stores()) {
      result =
          restorer(stores.open(damaged), true)
              .restore(BackupFixture.target(data), BackupSelector.exact(BackupFixture.CUT));
    }

    // then partitions 1 and 3 were restored, and partition 2 is reported with the file and both
    // copies' reasons
    assertThat(result.isComplete()).isFalse();
    assertThat(result.partitions())
        .extracting(PartitionRestoreResult::partitionId)
        .containsExactly(1, 3);
    assertThat(result.skipped())
        .singleElement()
        .satisfies(
            skipped -> {
              assertThat(skipped.partitionId()).isEqualTo(2);
              assertThat(skipped.problem()).isEqualTo(RestoreProblem.FILE_CORRUPTED);
              assertThat(skipped.file()).hasValue("segments/" + segmentName);
              assertThat(skipped.reason())
                  .contains(segmentName)
                  .contains("CHECKSUM_MISMATCH")
                  .contains("node=0")
                  .contains("node=1");
            });
    // and partition 2 has no directory (a broker starts it as a new, empty replica), the others
    // are laid out with their markers, and node.json is written
    assertThat(PartitionLayout.of(data, 2).directory()).doesNotExist();
    assertThat(RestoreMarker.read(PartitionLayout.of(data, 1).directory())).isPresent();
    assertThat(RestoreMarker.read(PartitionLayout.of(data, 3).directory())).isPresent();
    assertThat(data.resolve(DataDirectoryLayout.NODE_DESCRIPTOR_FILE)).isRegularFile();
    assertThat(data.resolve(DataDirectoryLayout.STAGING_DIRECTORY)).doesNotExist();

    // and a broker opened on it: partitions 1 and 3 reproduce the backup's digests and balances,
    // partition 2 starts empty
    Path emptyStore = fixture.newDirectory("store-of-partial-");
    try (LedgerBroker restored = new LedgerBroker(data, emptyStore, BackupFixture.PARTITIONS)) {
      for (int p : new int[] {1, 3}) {
        restored.awaitCheckpoint(p, BackupFixture.CUT);
        assertThat(restored.latestCheckpoint(p).map(Checkpoint::stateDigestHex))
            .as("digest of partition %s", p)
            .hasValue(fixture.digestsAtCut().get(p));
      }
      restored.awaitLeaders();
      assertThat(restored.latestCheckpoint(2)).isEmpty();
      Map<String, Long> expected =
          fixture.balancesAtCut().entrySet().stream()
              .filter(e -> restored.placement().partitionOf(e.getKey()) != 2)
              .collect(
                  Collectors.toMap(
                      Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
      assertThat(expected).isNotEmpty().hasSizeLessThan(fixture.balancesAtCut().size());
      assertThat(restored.balances()).isEqualTo(expected);
    }
  }

  @Test
  void shouldRefuseTheSameBackupWithoutPartialRestoresAndLeaveTheDirectoryEmpty() {
    Path data = fixture.newDirectory("not-partial-");

    try (BackupFixture.Stores stores = new BackupFixture.Stores()) {
      FilesystemBackupStore from = stores.open(damaged);
      assertThatThrownBy(
              () ->
                  restorer(from, false)
                      .restore(BackupFixture.target(data), BackupSelector.exact(BackupFixture.CUT)))
          .isInstanceOfSatisfying(
              RestoreException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(Kind.CORRUPTED);
                assertThat(e.partitionId()).hasValue(2);
              });
    }
    assertThat(RestoreFromRealBackupTest.entries(data)).isEmpty();
  }

  @Test
  void shouldStillRefuseAnUnknownBackupWithPartialRestoresAllowed() {
    Path data = fixture.newDirectory("partial-unknown-");

    try (BackupFixture.Stores stores = new BackupFixture.Stores()) {
      FilesystemBackupStore from = stores.open(damaged);
      assertThatThrownBy(
              () ->
                  restorer(from, true)
                      .restore(BackupFixture.target(data), BackupSelector.exact(999)))
          .isInstanceOfSatisfying(
              RestoreException.class, e -> assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND));
    }
    assertThat(RestoreFromRealBackupTest.entries(data)).isEmpty();
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path source : paths.sorted().toList()) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.copy(source, target);
        }
      }
    }
  }
}
