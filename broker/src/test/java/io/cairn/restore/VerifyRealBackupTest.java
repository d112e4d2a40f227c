package io.cairn.restore;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backup.restore.FamilyState;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.FileProblemKind;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.manifest.ManifestCodec;
import io.cairn.backupfs.FilesystemBackupStore;
import io.cairn.backupfs.layout.StoreLayout;
import io.cairn.backuptestkit.ManifestTampering;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Verifies real backups of a real broker ({@link BackupFixture}), clean and damaged. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class VerifyRealBackupTest {

  private BackupFixture fixture;
  private BackupFixture.Stores stores;

  @BeforeAll
  void takeBackups() {
    fixture = BackupFixture.get();
    stores = new BackupFixture.Stores();
  }

  @AfterAll
  void closeStores() {
    stores.close();
  }

  private VerifyReport verify(Path storePath, boolean quick) {
    FilesystemBackupStore store = stores.open(storePath);
    Path scratch = fixture.newDirectory("scratch-");
    VerifyReport report =
        BackupVerifier.builder()
            .store(store)
            .meterRegistry(new SimpleMeterRegistry())
            .build()
            .verify(BackupSelector.exact(BackupFixture.CUT), scratch, quick);
    assertThat(RestoreFromRealBackupTest.entries(scratch)).as("scratch left empty").isEmpty();
    return report;
  }

  @Test
  void shouldRebuildEveryPartitionToTheRecordedDigest() {
    // when the backup taken through the consistent cut is verified
    VerifyReport report = verify(fixture.store(), false);

    // then every file matches and every partition's rebuilt state has the recorded digest
    assertThat(report.isClean()).as(report.describe()).isTrue();
    assertThat(report.partitionCount()).isEqualTo(BackupFixture.PARTITIONS);
    assertThat(report.partitions())
        .hasSize(BackupFixture.PARTITIONS)
        .allSatisfy(
            p -> {
              assertThat(p.filesChecked()).isPositive();
              assertThat(p.bytesChecked()).isPositive();
              assertThat(p.checksumsMatch()).isTrue();
              assertThat(p.actualDigest()).hasValue(fixture.digestsAtCut().get(p.partitionId()));
              assertThat(p.expectedDigest()).isEqualTo(fixture.digestsAtCut().get(p.partitionId()));
            });
    assertThat(report.describe()).contains("CLEAN").doesNotContain("NOT CLEAN");
  }

  @Test
  void shouldCheckFilesOnlyWhenQuick() {
    VerifyReport report = verify(fixture.store(), true);

    assertThat(report.isClean()).as(report.describe()).isTrue();
    assertThat(report.quick()).isTrue();
    assertThat(report.partitions()).allSatisfy(p -> assertThat(p.digest()).isEmpty());
  }

  @Test
  void shouldReportATamperedDigestForThatPartitionOnly() throws IOException {
    // given a copy of the store whose descriptor of partition 3 records another digest
    Path tampered = fixture.copyOfStore();
    Path manifest =
        new StoreLayout(tampered).manifestFile(new BackupIdentifier(0, 3, BackupFixture.CUT));
    String recorded = fixture.digestsAtCut().get(3);
    String other = (recorded.charAt(0) == '0' ? "1" : "0") + recorded.substring(1);
    String json = Files.readString(manifest, StandardCharsets.UTF_8);
    assertThat(json).contains(recorded);
    Files.writeString(manifest, ManifestTampering.reseal(json.replace(recorded, other)));

    // when it is verified
    VerifyReport report = verify(tampered, false);

    // then partition 3's rebuilt digest is the real one, not the recorded one, and only it is bad
    assertThat(report.isClean()).isFalse();
    PartitionVerification third = report.partitions().get(2);
    assertThat(third.checksumsMatch()).isTrue();
    assertThat(third.expectedDigest()).isEqualTo(other);
    assertThat(third.actualDigest()).hasValue(recorded);
    assertThat(third.digest().orElseThrow().families())
        .extracting(FamilyState::family)
        .contains("LEDGER_ACCOUNTS");
    assertThat(report.partitions().get(0).isClean(false)).isTrue();
    assertThat(report.partitions().get(1).isClean(false)).isTrue();
    assertThat(report.describe())
        .contains("partition 3")
        .contains("MISMATCH")
        .contains("NOT CLEAN: 1 of 3 partitions");
  }

  @Test
  void shouldNameTheFamilyWhoseRecordedDigestDiffers() throws IOException {
    // given a copy of the store whose descriptor of partition 2 records another digest for one
    // family, and a total that differs accordingly
    Path tampered = fixture.copyOfStore();
    BackupIdentifier id = new BackupIdentifier(0, 2, BackupFixture.CUT);
    Path manifest = new StoreLayout(tampered).manifestFile(id);
    String json = Files.readString(manifest, StandardCharsets.UTF_8);
    var descriptor =
        new ManifestCodec()
            .decode(json.getBytes(StandardCharsets.UTF_8), manifest.toString(), id)
            .descriptor()
            .orElseThrow();
    assertThat(descriptor.familyDigests()).containsKey("LEDGER_ACCOUNTS");
    String recordedFamily = descriptor.familyDigests().get("LEDGER_ACCOUNTS");
    String otherFamily = flipFirstDigit(recordedFamily);
    String recordedTotal = descriptor.stateDigest();
    String otherTotal = flipFirstDigit(recordedTotal);
    String familyField = "\"LEDGER_ACCOUNTS\" : \"" + recordedFamily + "\"";
    String totalField = "\"stateDigest\" : \"" + recordedTotal + "\"";
    assertThat(json).contains(familyField).contains(totalField);
    Files.writeString(
        manifest,
        ManifestTampering.reseal(
            json.replace(familyField, "\"LEDGER_ACCOUNTS\" : \"" + otherFamily + "\"")
                .replace(totalField, "\"stateDigest\" : \"" + otherTotal + "\"")));

    // when it is verified
    VerifyReport report = verify(tampered, false);

    // then partition 2's report names that family, what the backup recorded and what was rebuilt
    assertThat(report.isClean()).isFalse();
    PartitionVerification second = report.partitions().get(1);
    assertThat(second.actualDigest()).hasValue(recordedTotal);
    assertThat(second.digest().orElseThrow().differingFamilies())
        .containsExactly("LEDGER_ACCOUNTS expected " + otherFamily + ", actual " + recordedFamily);
    assertThat(report.describe())
        .contains("Differing families: LEDGER_ACCOUNTS expected " + otherFamily)
        .contains("NOT CLEAN: 1 of 3 partitions");
  }

  private static String flipFirstDigit(String hex) {
    return (hex.charAt(0) == '0' ? "1" : "0") + hex.substring(1);
  }

  @Test
  void shouldListEveryCorruptedFileWithoutRebuilding() throws IOException {
    // given a copy of the store with a flipped byte in partition 1's segment and a truncated
    // snapshot file
    Path damaged = fixture.copyOfStore();
    BackupIdentifier id = new BackupIdentifier(0, 1, BackupFixture.CUT);
    StoreLayout layout = new StoreLayout(damaged);
    Path segment = first(layout.fileSetDirectory(id, FileSetKind.SEGMENTS));
    RestoreFromRealBackupTest.flipByte(segment, 100);
    Path snapshotFile = largest(layout.fileSetDirectory(id, FileSetKind.SNAPSHOT));
    byte[] bytes = Files.readAllBytes(snapshotFile);
    Files.write(snapshotFile, java.util.Arrays.copyOf(bytes, bytes.length / 2));

    // when it is verified
    VerifyReport report = verify(damaged, false);

    // then partition 1 reports both files by name, and the others are clean
    assertThat(report.isClean()).isFalse();
    PartitionVerification firstPartition = report.partitions().get(0);
    assertThat(firstPartition.checksumsMatch()).isFalse();
    assertThat(firstPartition.fileProblems())
        .extracting(p -> p.fileSet().directoryName() + "/" + p.name(), p -> p.kind())
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(
                "segments/" + segment.getFileName(), FileProblemKind.CHECKSUM_MISMATCH),
            org.assertj.core.groups.Tuple.tuple(
                "snapshot/" + snapshotFile.getFileName(), FileProblemKind.TRUNCATED));
    assertThat(firstPartition.digest()).isEmpty();
    assertThat(report.partitions().get(1).isClean(false)).isTrue();
    assertThat(report.describe()).contains(segment.getFileName().toString());

    // and a quick verification finds the same files
    VerifyReport quick = verify(damaged, true);
    assertThat(quick.partitions().get(0).fileProblems()).hasSize(2);
  }

  private static Path largest(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files
          .max(
              java.util.Comparator.comparingLong(
                  (Path p) -> {
                    try {
                      return Files.size(p);
                    } catch (IOException e) {
                      throw new java.io.UncheckedIOException(e);
                    }
                  }))
          .orElseThrow();
    }
  }

  private static Path first(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.sorted().findFirst().orElseThrow();
    }
  }
}
