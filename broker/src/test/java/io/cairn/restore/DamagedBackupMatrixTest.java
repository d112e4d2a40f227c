package io.cairn.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.CheckpointPattern;
import io.cairn.backupapi.FileProblemKind;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.PageRequest;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupfs.layout.StoreLayout;
import io.cairn.restore.RestoreException.Kind;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Damages one stored object of partition 2's copy of backup {@value BackupFixture#CUT} in the
 * filesystem store's layout — a snapshot file, a segment or the manifest; a flipped bit, a
 * truncation or a deletion — and checks that a full verification and a restore both report it,
 * naming the file, and that the restore leaves the data directory empty. Every case damages its own
 * copy of the store.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class DamagedBackupMatrixTest {

  private static final int PARTITION = 2;
  private static final BackupIdentifier DAMAGED =
      new BackupIdentifier(0, PARTITION, BackupFixture.CUT);

  /** The kind of stored object damaged. */
  enum StoredObject {
    SNAPSHOT_FILE,
    SEGMENT,
    MANIFEST
  }

  /** What is done to it, and what the store's check must call it. */
  enum Damage {
    FLIP_BIT(FileProblemKind.CHECKSUM_MISMATCH),
    TRUNCATE(FileProblemKind.TRUNCATED),
    DELETE(FileProblemKind.MISSING);

    private final FileProblemKind expected;

    Damage(FileProblemKind expected) {
      this.expected = expected;
    }
  }

  private BackupFixture fixture;

  @BeforeAll
  void takeBackups() {
    fixture = BackupFixture.get();
  }

  static Stream<Arguments> cases() {
    return Arrays.stream(StoredObject.values())
        .flatMap(object -> Arrays.stream(Damage.values()).map(d -> Arguments.of(object, d)));
  }

  @ParameterizedTest(name = "{1} the {0}")
  @MethodSource("cases")
  void shouldReportTheDamagedObjectInVerifyAndRestoreAndLeaveTheDirectoryEmpty(
      StoredObject object, Damage damage) throws IOException {
    // given a copy of the store where one object of partition 2's backup is damaged
    Path store = fixture.copyOfStore();
    StoreLayout layout = new StoreLayout(store);
    Path damaged = objectOf(layout, object);
    String stored = layout.describe(damaged);
    damage(damaged, damage);

    try (BackupFixture.Stores stores = new BackupFixture.Stores()) {
      FilesystemBackupStore from = stores.open(store);
      if (object == StoredObject.MANIFEST) {
        assertManifestReported(from, damage, stored, refusal(damage));
      } else {
        assertFileReported(from, damage, object, damaged.getFileName().toString());
      }
    }
  }

  @Test
  void shouldReportAManifestWhoseContentNoLongerMatchesItsChecksum() throws IOException {
    // given a copy of the store where a bit of a letter in the middle of partition 2's manifest
    // is flipped: still valid JSON, so only the manifest's own checksum can tell
    Path store = fixture.copyOfStore();
    StoreLayout layout = new StoreLayout(store);
    Path file = layout.manifestFile(DAMAGED);
    byte[] bytes = Files.readAllBytes(file);
    int offset = bytes.length / 2;
    while (!Character.isLetter(bytes[offset])) {
      offset++;
    }
    bytes[offset] ^= 0x01;
    Files.write(file, bytes);

    // when it is verified and restored, then both fail naming the manifest and the mismatch
    try (BackupFixture.Stores stores = new BackupFixture.Stores()) {
      assertManifestReported(
          stores.open(store),
          Damage.FLIP_BIT,
          layout.describe(file),
          "to match the manifest's content");
    }
  }

  @ParameterizedTest(name = "{0} partition 2's manifest of backup 5")
  @EnumSource(
      value = Damage.class,
      names = {"FLIP_BIT", "TRUNCATE"})
  void shouldListUnreadableManifestAsFailedAndPickTheCompleteLaterBackupAsLatest(Damage damage)
      throws IOException {
    // given a copy of the store where partition 2's manifest of backup 5 cannot be trusted
    Path store = fixture.copyOfStore();
    StoreLayout layout = new StoreLayout(store);
    String manifest = layout.describe(layout.manifestFile(DAMAGED));
    damage(layout.manifestFile(DAMAGED), damage);

    try (BackupFixture.Stores stores = new BackupFixture.Stores()) {
      FilesystemBackupStore from = stores.open(store);

      // when backup 5 is listed, then its damaged copy is FAILED, naming the manifest
      List<BackupStatus> statuses =
          from.list(
                  BackupIdentifierWildcard.ofCheckpoints(
                      CheckpointPattern.exact(BackupFixture.CUT)),
                  PageRequest.first())
              .orTimeout(LedgerBroker.TIMEOUT.toSeconds(), TimeUnit.SECONDS)
              .join()
              .statuses();
      assertThat(statuses).hasSize(BackupFixture.PARTITIONS);
      assertThat(statuses)
          .filteredOn(s -> s.id().equals(DAMAGED))
          .singleElement()
          .satisfies(
              s -> {
                assertThat(s.statusCode()).isEqualTo(BackupStatusCode.FAILED);
                assertThat(s.failureReason())
                    .hasValueSatisfying(
                        r -> assertThat(r).contains(manifest).containsAnyOf(refusal(damage)));
              });

      // when the latest backup is verified and restored, then it is the complete backup 6
      Path scratch = fixture.newDirectory("scratch-");
      VerifyReport report = verifier(from).verify(BackupSelector.latest(), scratch, true);
      assertThat(report.backupId()).isEqualTo(BackupFixture.LATER);
      assertThat(report.isClean()).as(report.describe()).isTrue();
      Path data = fixture.newDirectory("latest-" + damage + "-");
      RestoreResult result =
          BackupRestorer.builder()
              .store(from)
              .meterRegistry(new SimpleMeterRegistry())
              .config(RestoreConfig.builder().progressIntervalBytes(0).build())
              .build()
              .restore(BackupFixture.target(data), BackupSelector.latest());
      assertThat(result.backupId()).isEqualTo(BackupFixture.LATER);
    }
  }

  /** A damaged snapshot file or segment is named by both, with what is wrong with it. */
  private void assertFileReported(
      FilesystemBackupStore from, Damage damage, StoredObject object, String name) {
    String file =
        (object == StoredObject.SNAPSHOT_FILE ? FileSetKind.SNAPSHOT : FileSetKind.SEGMENTS)
                .directoryName()
            + "/"
            + name;

    // when it is verified in full, then partition 2 lists exactly that file, and only it is bad
    VerifyReport report = verify(from, false);
    assertThat(report.isClean()).as(report.describe()).isFalse();
    PartitionVerification second = report.partitions().get(PARTITION - 1);
    assertThat(second.partitionId()).isEqualTo(PARTITION);
    assertThat(second.fileProblems())
        .as(report.describe())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.fileSet().directoryName() + "/" + p.name()).isEqualTo(file);
              assertThat(p.kind()).isEqualTo(damage.expected);
            });
    assertThat(second.digest()).as("no rebuild from damaged files").isEmpty();
    assertThat(report.partitions().get(0).isClean(false)).as(report.describe()).isTrue();
    assertThat(report.partitions().get(2).isClean(false)).as(report.describe()).isTrue();
    assertThat(report.describe())
        .contains("partition " + PARTITION)
        .contains(file + ": " + damage.expected)
        .contains("NOT CLEAN: 1 of 3 partitions");

    // and a quick verification names the same file
    assertThat(verify(from, true).partitions().get(PARTITION - 1).fileProblems())
        .extracting(p -> p.fileSet().directoryName() + "/" + p.name(), p -> p.kind())
        .containsExactly(org.assertj.core.groups.Tuple.tuple(file, damage.expected));

    // when it is restored, then the failure names the partition, the file and the problem
    Path data = fixture.newDirectory("damaged-" + damage + "-");
    RestoreException failure = restore(from, data);
    assertThat(failure.kind()).as(failure.getMessage()).isEqualTo(Kind.CORRUPTED);
    assertThat(failure.partitionId()).hasValue(PARTITION);
    assertThat(failure.file()).hasValue(file);
    assertThat(failure.getMessage())
        .contains("Partition " + PARTITION)
        .contains(file + ": " + damage.expected);
    // and the data directory is empty again
    assertThat(RestoreFromRealBackupTest.entries(data)).isEmpty();
  }

  /**
   * A manifest that cannot be read fails both before anything is written, naming the manifest; a
   * deleted one leaves partition 2 without a backup, which both name.
   */
  private void assertManifestReported(
      FilesystemBackupStore from, Damage damage, String manifest, String... refusal) {
    Path data = fixture.newDirectory("damaged-manifest-" + damage + "-");
    Path scratch = fixture.newDirectory("scratch-");
    RestoreException verifyFailure =
        catchThrowableOfType(
            RestoreException.class, () -> verifier(from).verify(exactCut(), scratch, false));
    RestoreException restoreFailure = restore(from, data);

    for (RestoreException failure : new RestoreException[] {verifyFailure, restoreFailure}) {
      assertThat(failure).as("verify and restore both fail").isNotNull();
      if (damage == Damage.DELETE) {
        assertThat(failure.kind()).as(failure.getMessage()).isEqualTo(Kind.NOT_COMPLETED);
        assertThat(failure.getMessage())
            .contains("backup " + BackupFixture.CUT)
            .contains("INCOMPLETE")
            .contains("partition " + PARTITION + " without a backup")
            .contains("2 of 3 partitions completed");
      } else {
        assertThat(failure.kind()).as(failure.getMessage()).isEqualTo(Kind.CORRUPTED);
        assertThat(failure.getMessage())
            .contains("Expected a trustworthy manifest")
            .containsAnyOf(refusal)
            .contains(manifest);
      }
    }
    assertThat(RestoreFromRealBackupTest.entries(scratch)).as("scratch untouched").isEmpty();
    assertThat(RestoreFromRealBackupTest.entries(data)).as("nothing written").isEmpty();
  }

  /**
   * How a damaged manifest is refused: cut short, it cannot be parsed; with a bit flipped, either
   * it cannot be parsed or its content no longer matches its {@code manifestChecksum}.
   */
  private static String[] refusal(Damage damage) {
    return damage == Damage.FLIP_BIT
        ? new String[] {"cannot be parsed", "to match the manifest's content"}
        : new String[] {"cannot be parsed"};
  }

  private static Path objectOf(StoreLayout layout, StoredObject object) throws IOException {
    return switch (object) {
      // a RocksDB table file: the state itself, not the snapshot's bookkeeping
      case SNAPSHOT_FILE ->
          largest(
              layout.fileSetDirectory(DAMAGED, FileSetKind.SNAPSHOT),
              name -> name.endsWith(".sst"));
      case SEGMENT -> largest(layout.fileSetDirectory(DAMAGED, FileSetKind.SEGMENTS), name -> true);
      case MANIFEST -> layout.manifestFile(DAMAGED);
    };
  }

  private static void damage(Path file, Damage damage) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    assertThat(bytes).as("a file with content to damage: %s", file).hasSizeGreaterThan(1);
    switch (damage) {
      case FLIP_BIT -> {
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(file, bytes);
      }
      case TRUNCATE -> Files.write(file, Arrays.copyOf(bytes, bytes.length / 2));
      case DELETE -> Files.delete(file);
    }
  }

  private static Path largest(Path directory, java.util.function.Predicate<String> accept)
      throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files
          .filter(f -> accept.test(f.getFileName().toString()))
          .max(Comparator.comparingLong(DamagedBackupMatrixTest::size))
          .orElseThrow(() -> new AssertionError("Expected a file to damage in " + directory));
    }
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private VerifyReport verify(FilesystemBackupStore from, boolean quick) {
    Path scratch = fixture.newDirectory("scratch-");
    VerifyReport report = verifier(from).verify(exactCut(), scratch, quick);
    assertThat(RestoreFromRealBackupTest.entries(scratch)).as("scratch left empty").isEmpty();
    return report;
  }

  private static BackupVerifier verifier(FilesystemBackupStore from) {
    return BackupVerifier.builder().store(from).meterRegistry(new SimpleMeterRegistry()).build();
  }

  private static RestoreException restore(FilesystemBackupStore from, Path data) {
    BackupRestorer restorer =
        BackupRestorer.builder()
            .store(from)
            .meterRegistry(new SimpleMeterRegistry())
            .config(RestoreConfig.builder().progressIntervalBytes(0).build())
            .build();
    RestoreException failure =
        catchThrowableOfType(
            RestoreException.class, () -> restorer.restore(BackupFixture.target(data), exactCut()));
    assertThat(failure).as("the restore fails").isNotNull();
    return failure;
  }

  private static BackupSelector exactCut() {
    return BackupSelector.exact(BackupFixture.CUT);
  }
}
