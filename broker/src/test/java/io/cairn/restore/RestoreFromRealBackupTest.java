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
import io.cairn.broker.node.NodeDescriptor;
import io.cairn.broker.partition.PartitionLayout;
import io.cairn.restore.RestoreException.Kind;
import io.cairn.restore.layout.DataDirectoryLayout;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Restores real backups of a real broker ({@link BackupFixture}) and opens a real broker on the
 * restored directory.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class RestoreFromRealBackupTest {

  private BackupFixture fixture;
  private BackupFixture.Stores stores;
  private FilesystemBackupStore store;

  @BeforeAll
  void takeBackups() {
    fixture = BackupFixture.get();
    stores = new BackupFixture.Stores();
    store = stores.open(fixture.store());
  }

  @AfterAll
  void closeStores() {
    stores.close();
  }

  private BackupRestorer restorer(FilesystemBackupStore from, RestoreListener listener) {
    return BackupRestorer.builder()
        .store(from)
        .listener(listener)
        .meterRegistry(new SimpleMeterRegistry())
        .config(RestoreConfig.builder().progressIntervalBytes(0).build())
        .build();
  }

  @Test
  void shouldRestoreTheStateAtTheCutIntoADirectoryABrokerOpens() {
    // given an empty data directory
    Path data = fixture.newDirectory("restored-");
    List<PartitionProgress> events = Collections.synchronizedList(new ArrayList<>());
    List<RestorePlan> plans = Collections.synchronizedList(new ArrayList<>());
    RestoreListener listener =
        new RestoreListener() {
          @Override
          public void onPlan(RestorePlan plan) {
            plans.add(plan);
          }

          @Override
          public void onProgress(PartitionProgress progress) {
            events.add(progress);
          }
        };

    // when backup 5 is restored
    RestoreResult result =
        restorer(store, listener)
            .restore(BackupFixture.target(data), BackupSelector.exact(BackupFixture.CUT));

    // then every partition was restored, with its snapshot, and the log cut at the checkpoint
    assertThat(result.backupId()).isEqualTo(BackupFixture.CUT);
    assertThat(result.partitions())
        .extracting(PartitionRestoreResult::partitionId)
        .containsExactly(1, 2, 3);
    assertThat(result.partitions()).allSatisfy(p -> assertThat(p.snapshotId()).isPresent());
    // Partitions 2 and 3 took the checkpoint in a [CREATE, credit] batch, so their stored logs
    // always hold the credit after the cut. Whether partition 1's copy caught records appended
    // after its checkpoint depends on when its upload read the log, so it is not asserted.
    assertThat(result.partitions())
        .filteredOn(p -> p.partitionId() != 1)
        .allSatisfy(
            p -> assertThat(p.droppedRecords()).as("records after the cut in %s", p).isPositive());
    assertThat(plans)
        .singleElement()
        .satisfies(
            plan -> {
              assertThat(plan.backupId()).isEqualTo(BackupFixture.CUT);
              assertThat(plan.totalBytes()).isEqualTo(result.totalBytes());
            });
    for (int p = 1; p <= BackupFixture.PARTITIONS; p++) {
      int partitionId = p;
      List<PartitionProgress> ofPartition =
          events.stream().filter(e -> e.partitionId() == partitionId).toList();
      assertThat(ofPartition)
          .extracting(PartitionProgress::phase)
          .startsWith(RestorePhase.DOWNLOADING)
          .contains(RestorePhase.INSTALLING)
          .endsWith(RestorePhase.DONE);
      assertThat(ofPartition.get(ofPartition.size() - 1).bytesDone())
          .isEqualTo(ofPartition.get(0).bytesTotal())
          .isPositive();
    }
    assertThat(data.resolve(DataDirectoryLayout.STAGING_DIRECTORY)).doesNotExist();

    // and a broker opened on it has the balances of the cut, nothing pending, and its leaders
    // processed the kept CHECKPOINT CREATE again into the digest the backup recorded
    Path emptyStore = fixture.newDirectory("store-of-restored-");
    try (LedgerBroker restored = new LedgerBroker(data, emptyStore, BackupFixture.PARTITIONS)) {
      for (int p = 1; p <= BackupFixture.PARTITIONS; p++) {
        restored.awaitCheckpoint(p, BackupFixture.CUT);
        Checkpoint checkpoint = restored.latestCheckpoint(p).orElseThrow();
        assertThat(checkpoint.id()).isEqualTo(BackupFixture.CUT);
        assertThat(checkpoint.stateDigestHex())
            .as("digest of partition %s", p)
            .isEqualTo(fixture.digestsAtCut().get(p));
      }
      assertThat(restored.balances()).isEqualTo(fixture.balancesAtCut());
      assertThat(restored.nothingPending()).isTrue();
      long total = fixture.balancesAtCut().values().stream().mapToLong(Long::longValue).sum();
      assertThat(total)
          .as("conservation: every deposit before the cut")
          .isEqualTo(3 * 1000 + 3 * 10);
    }
  }

  @Test
  void shouldWriteTheLayoutTheBrokerReadsAndRestoreTheLatestBackup() throws IOException {
    // given an empty data directory that does not exist yet
    Path data = fixture.newDirectory("latest-").resolve("node-0");

    // when "latest" is restored
    RestoreResult result =
        restorer(store, RestoreListener.NOOP)
            .restore(BackupFixture.target(data), BackupSelector.parse("latest"));

    // then it is the newest backup completed on every partition
    assertThat(result.backupId()).isEqualTo(BackupFixture.LATER);
    // and node.json and the partitions are where the broker's own classes look
    assertThat(NodeDescriptor.read(data.resolve(NodeDescriptor.FILE_NAME)))
        .isEqualTo(NodeDescriptor.of(LedgerBroker.CLUSTER_ID, 0, BackupFixture.PARTITIONS));
    for (int p = 1; p <= BackupFixture.PARTITIONS; p++) {
      PartitionLayout layout = PartitionLayout.of(data, p);
      String prefix = "raft-partition-" + p + "-";
      try (Stream<Path> segments = Files.list(layout.journal())) {
        assertThat(segments.map(s -> s.getFileName().toString()))
            .isNotEmpty()
            .allMatch(name -> name.startsWith(prefix));
      }
      assertThat(layout.raftMetaFile()).isRegularFile();
      assertThat(layout.snapshots().resolve("snapshots")).isDirectory();
      RestoreMarker marker = RestoreMarker.read(layout.directory()).orElseThrow();
      assertThat(marker.backupId()).isEqualTo(BackupFixture.LATER);
      assertThat(marker.partitionId()).isEqualTo(p);
    }
  }

  @Test
  void shouldRefuseADataDirectoryThatIsNotEmpty() throws IOException {
    // given a data directory holding a file
    Path data = fixture.newDirectory("not-empty-");
    Files.writeString(data.resolve("keep.txt"), "precious");

    // when restoring into it, then it is refused and nothing was written
    assertThatThrownBy(
            () ->
                restorer(store, RestoreListener.NOOP)
                    .restore(BackupFixture.target(data), BackupSelector.exact(BackupFixture.CUT)))
        .isInstanceOfSatisfying(
            RestoreException.class, e -> assertThat(e.kind()).isEqualTo(Kind.REFUSED))
        .hasMessageContaining("empty data directory")
        .hasMessageContaining("keep.txt");
    assertThat(entries(data)).containsExactly("keep.txt");
    assertThat(data.resolve("keep.txt")).hasContent("precious");
  }

  @Test
  void shouldRefuseUnknownIncompleteAndMismatchedBackupsWithoutWriting() {
    Path data = fixture.newDirectory("refused-");
    // a copy of the store: the backup failed below must not reach the other tests of this JVM
    FilesystemBackupStore copy = stores.open(fixture.copyOfStore());
    BackupRestorer restorer = restorer(copy, RestoreListener.NOOP);

    // an unknown id
    assertThatThrownBy(() -> restorer.restore(BackupFixture.target(data), BackupSelector.exact(99)))
        .isInstanceOfSatisfying(
            RestoreException.class, e -> assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND))
        .hasMessageContaining("backup 99");

    // an incomplete backup: only partition 1 has id 40, and it failed
    copy.markFailed(new BackupIdentifier(0, 1, 40), "interrupted by the test").join();
    assertThatThrownBy(() -> restorer.restore(BackupFixture.target(data), BackupSelector.exact(40)))
        .isInstanceOfSatisfying(
            RestoreException.class, e -> assertThat(e.kind()).isEqualTo(Kind.NOT_COMPLETED))
        .hasMessageContaining("COMPLETED on every one of the 3 partitions")
        .hasMessageContaining("partition 1 failed: interrupted by the test");

    // a cluster of another partition count
    RestoreTarget fourPartitions =
        new RestoreTarget(
            data, LedgerBroker.CLUSTER_ID, 0, new ClusterShape(1, 4, 1), "0.1.0-SNAPSHOT");
    assertThatThrownBy(
            () -> restorer.restore(fourPartitions, BackupSelector.exact(BackupFixture.CUT)))
        .isInstanceOfSatisfying(
            RestoreException.class, e -> assertThat(e.kind()).isEqualTo(Kind.REFUSED))
        .hasMessageContaining("cluster of 4 partitions")
        .hasMessageContaining("of a cluster of 3 partitions");

    // a broker of an incompatible version
    RestoreTarget newerMajor =
        new RestoreTarget(data, LedgerBroker.CLUSTER_ID, 0, new ClusterShape(1, 3, 1), "9.0.0");
    assertThatThrownBy(() -> restorer.restore(newerMajor, BackupSelector.exact(BackupFixture.CUT)))
        .isInstanceOfSatisfying(
            RestoreException.class, e -> assertThat(e.kind()).isEqualTo(Kind.REFUSED))
        .hasMessageContaining("major versions differ");

    // then nothing was ever written
    assertThat(entries(data)).isEmpty();
  }

  @Test
  void shouldNameTheCorruptedFileAndLeaveTheDirectoryEmpty() throws IOException {
    // given a copy of the store where one byte of partition 2's segment is flipped
    Path damaged = fixture.copyOfStore();
    BackupIdentifier id = new BackupIdentifier(0, 2, BackupFixture.CUT);
    Path segments = new StoreLayout(damaged).fileSetDirectory(id, FileSetKind.SEGMENTS);
    Path segment;
    try (Stream<Path> files = Files.list(segments)) {
      segment = files.findFirst().orElseThrow();
    }
    flipByte(segment, Files.size(segment) / 2);
    Path data = fixture.newDirectory("corrupted-");

    // when restoring from it
    try (BackupFixture.Stores damagedStores = new BackupFixture.Stores()) {
      FilesystemBackupStore from = damagedStores.open(damaged);
      assertThatThrownBy(
              () ->
                  restorer(from, RestoreListener.NOOP)
                      .restore(BackupFixture.target(data), BackupSelector.exact(BackupFixture.CUT)))
          // then the failure names the partition and the file
          .isInstanceOfSatisfying(
              RestoreException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(Kind.CORRUPTED);
                assertThat(e.partitionId()).hasValue(2);
                assertThat(e.file()).hasValue("segments/" + segment.getFileName());
              })
          .hasMessageContaining("Partition 2")
          .hasMessageContaining(segment.getFileName().toString())
          .hasMessageContaining("CHECKSUM_MISMATCH");
    }
    // and the data directory is empty again
    assertThat(entries(data)).isEmpty();
  }

  @Test
  void shouldRefuseAHostileManifestWithoutWritingOutsideTheTarget() throws IOException {
    // given a copy of the store whose manifest of partition 1 names a file "../../escaped"
    Path damaged = fixture.copyOfStore();
    BackupIdentifier id = new BackupIdentifier(0, 1, BackupFixture.CUT);
    Path manifest = new StoreLayout(damaged).manifestFile(id);
    String json = Files.readString(manifest, StandardCharsets.UTF_8);
    String segmentName;
    try (Stream<Path> files =
        Files.list(new StoreLayout(damaged).fileSetDirectory(id, FileSetKind.SEGMENTS))) {
      segmentName = files.findFirst().orElseThrow().getFileName().toString();
    }
    Files.writeString(
        manifest,
        ManifestTampering.reseal(json.replace("\"" + segmentName + "\"", "\"../../escaped\"")));
    assertThat(Files.readString(manifest)).contains("../../escaped");
    Path parent = fixture.newDirectory("hostile-");
    Path data = parent.resolve("a").resolve("data");
    Files.createDirectories(data);

    // when restoring from it
    try (BackupFixture.Stores damagedStores = new BackupFixture.Stores()) {
      FilesystemBackupStore from = damagedStores.open(damaged);
      assertThatThrownBy(
              () ->
                  restorer(from, RestoreListener.NOOP)
                      .restore(BackupFixture.target(data), BackupSelector.exact(BackupFixture.CUT)))
          .isInstanceOfSatisfying(
              RestoreException.class, e -> assertThat(e.kind()).isEqualTo(Kind.CORRUPTED))
          .hasMessageContaining("segments file '../../escaped'");
    }
    // then nothing is in the target nor beside it
    assertThat(entries(data)).isEmpty();
    try (Stream<Path> all = Files.walk(parent)) {
      assertThat(all.map(p -> p.getFileName().toString())).doesNotContain("escaped");
    }
  }

  @Test
  void shouldRestoreFromAnotherNodesCopyWhenTheFirstIsCorrupted() throws IOException {
    // given a store where node 1 holds a second copy of partition 2's backup, and node 0's is bad
    Path damaged = fixture.copyOfStore();
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
    Path segment;
    try (Stream<Path> files = Files.list(layout.fileSetDirectory(first, FileSetKind.SEGMENTS))) {
      segment = files.findFirst().orElseThrow();
    }
    flipByte(segment, 40);
    Path data = fixture.newDirectory("second-copy-");

    // when restoring
    RestoreResult result;
    try (BackupFixture.Stores damagedStores = new BackupFixture.Stores()) {
      result =
          restorer(damagedStores.open(damaged), RestoreListener.NOOP)
              .restore(BackupFixture.target(data), BackupSelector.exact(BackupFixture.CUT));
    }

    // then partition 2 came from node 1's copy, the others from node 0's
    assertThat(result.partitions()).extracting(p -> p.source().nodeId()).containsExactly(0, 1, 0);
    assertThat(
            RestoreMarker.read(PartitionLayout.of(data, 2).directory())
                .orElseThrow()
                .sourceNodeId())
        .isEqualTo(1);
  }

  @Test
  void shouldRestoreEveryNodeOfAClusterOrNone() throws IOException {
    // given three nodes with one partition each (N=3, P=3, R=1)
    ClusterShape shape = new ClusterShape(3, BackupFixture.PARTITIONS, 1);
    Path parent = fixture.newDirectory("cluster-");
    List<RestoreTarget> targets = new ArrayList<>();
    for (int node = 0; node < 3; node++) {
      targets.add(
          new RestoreTarget(
              parent.resolve("node-" + node),
              LedgerBroker.CLUSTER_ID,
              node,
              shape,
              io.cairn.broker.BrokerVersion.current()));
    }
    BackupRestorer restorer = restorer(store, RestoreListener.NOOP);

    // when node 2's directory is not empty, nothing is restored at all
    Files.createDirectories(targets.get(2).dataDirectory());
    Files.writeString(targets.get(2).dataDirectory().resolve("other.txt"), "x");
    assertThatThrownBy(() -> restorer.restoreCluster(targets, BackupSelector.latest()))
        .isInstanceOfSatisfying(
            RestoreException.class, e -> assertThat(e.kind()).isEqualTo(Kind.REFUSED));
    assertThat(targets.get(0).dataDirectory()).doesNotExist();
    assertThat(targets.get(1).dataDirectory()).doesNotExist();

    // when node 2's partition is corrupted, the nodes restored before it are emptied again
    Files.delete(targets.get(2).dataDirectory().resolve("other.txt"));
    Path damaged = fixture.copyOfStore();
    Path segments =
        new StoreLayout(damaged)
            .fileSetDirectory(
                new BackupIdentifier(0, 3, BackupFixture.LATER), FileSetKind.SEGMENTS);
    try (Stream<Path> files = Files.list(segments)) {
      flipByte(files.findFirst().orElseThrow(), 10);
    }
    try (BackupFixture.Stores damagedStores = new BackupFixture.Stores()) {
      BackupRestorer fromDamaged = restorer(damagedStores.open(damaged), RestoreListener.NOOP);
      assertThatThrownBy(() -> fromDamaged.restoreCluster(targets, BackupSelector.latest()))
          .isInstanceOfSatisfying(
              RestoreException.class, e -> assertThat(e.partitionId()).hasValue(3));
    }
    assertThat(targets.get(0).dataDirectory()).doesNotExist();
    assertThat(targets.get(1).dataDirectory()).doesNotExist();
    assertThat(entries(targets.get(2).dataDirectory())).isEmpty();

    // when every directory is empty and the store is sound, each node gets its own partition
    List<RestoreResult> results = restorer.restoreCluster(targets, BackupSelector.latest());
    for (int node = 0; node < 3; node++) {
      assertThat(results.get(node).backupId()).isEqualTo(BackupFixture.LATER);
      assertThat(results.get(node).partitions())
          .extracting(PartitionRestoreResult::partitionId)
          .containsExactly(node + 1);
      assertThat(entries(targets.get(node).dataDirectory().resolve("partitions")))
          .containsExactly(Integer.toString(node + 1));
    }
  }

  @Test
  void shouldRefuseASnapshotFileThatDoesNotMatchItsChecksumFileEvenWhenTheManifestDoes()
      throws IOException {
    // given a copy of the store where one byte of partition 2's largest state file is flipped
    // and the manifest records the damaged file's CRC32C, so that the store's check passes
    Path damaged = fixture.copyOfStore();
    BackupIdentifier id = new BackupIdentifier(0, 2, BackupFixture.CUT);
    StoreLayout layout = new StoreLayout(damaged);
    Path snapshotFile;
    try (Stream<Path> files = Files.list(layout.fileSetDirectory(id, FileSetKind.SNAPSHOT))) {
      // a state file: not the checksum file, not the metadata
      snapshotFile =
          files
              .filter(f -> !f.getFileName().toString().equals("checksums.crc32c"))
              .filter(f -> !f.getFileName().toString().equals("metadata.json"))
              .max(java.util.Comparator.comparingLong(f -> f.toFile().length()))
              .orElseThrow();
    }
    String before = crc32cHex(snapshotFile);
    flipByte(snapshotFile, Files.size(snapshotFile) / 2);
    String manifest = Files.readString(layout.manifestFile(id));
    assertThat(manifest).containsOnlyOnce("\"" + before + "\"");
    Files.writeString(
        layout.manifestFile(id),
        ManifestTampering.reseal(
            manifest.replace("\"" + before + "\"", "\"" + crc32cHex(snapshotFile) + "\"")));
    Path data = fixture.newDirectory("snapshot-mismatch-");

    // when restoring from it
    try (BackupFixture.Stores damagedStores = new BackupFixture.Stores()) {
      FilesystemBackupStore from = damagedStores.open(damaged);
      assertThatThrownBy(
              () ->
                  restorer(from, RestoreListener.NOOP)
                      .restore(BackupFixture.target(data), BackupSelector.exact(BackupFixture.CUT)))
          // then the snapshot's own checksum file catches it, naming partition and file
          .isInstanceOfSatisfying(
              RestoreException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(Kind.CORRUPTED);
                assertThat(e.partitionId()).hasValue(2);
                assertThat(e.file()).hasValue("snapshot/" + snapshotFile.getFileName());
              })
          .hasMessageContaining("Partition 2")
          .hasMessageContaining("with CRC32C " + before);
    }
    // and the data directory is empty again
    assertThat(entries(data)).isEmpty();
  }

  private static String crc32cHex(Path file) throws IOException {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(Files.readAllBytes(file));
    return String.format("%08x", crc.getValue());
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

  static void flipByte(Path file, long offset) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    bytes[(int) offset] ^= 0x40;
    Files.write(file, bytes);
  }

  static List<String> entries(Path directory) {
    try (Stream<Path> list = Files.list(directory)) {
      return list.map(p -> p.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
