package io.cairn.backuptestkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupCorruptedException;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupNotCompletedException;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.Compression;
import io.cairn.backupapi.FileProblem;
import io.cairn.backupapi.FileProblemKind;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.ManifestException;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupapi.RestoreProgress;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backupapi.VerificationReport;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestCodec;
import io.cairn.backupapi.manifest.ManifestFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Contract: restore, verify, manifest trust, and compression. */
public abstract class ContentContractTests extends LifecycleContractTests {

  @Test
  void shouldRestoreByteIdenticalFilesAndReportProgress() throws Exception {
    Backup backup = typicalBackup(id(0, 3, 30));
    await(store.save(backup));
    Path target = newDirectory("restore").resolve("data");
    List<RestoreProgress> events = new CopyOnWriteArrayList<>();

    Backup restored = await(store.restore(backup.id(), target, events::add));

    assertRestoredIdentical(backup, restored, target);
    long total = backup.descriptor().sizeBytes();
    assertThat(events).isNotEmpty();
    assertThat(events).extracting(RestoreProgress::totalBytesDone).isSorted();
    RestoreProgress last = events.get(events.size() - 1);
    assertThat(last.totalBytesDone()).isEqualTo(total);
    assertThat(last.totalSizeBytes()).isEqualTo(total);
    assertThat(last.filesDone()).isEqualTo(backup.descriptor().fileCount());
    for (FileSetKind kind : FileSetKind.values()) {
      for (BackupFile file : backup.files(kind).files()) {
        assertThat(events)
            .as("a final progress event of %s", file.name())
            .anyMatch(
                e ->
                    e.fileSet() == kind
                        && e.fileName().equals(file.name())
                        && e.fileBytesDone() == file.lengthBytes()
                        && e.fileSizeBytes() == file.lengthBytes());
      }
    }
  }

  @Test
  void shouldStoreOnlyTheFixedLengthPrefixOfAGrowingFile() throws Exception {
    Path dir = newDirectory("growing");
    Path active = randomFile(dir, "5.log", 40_000, 5);
    Backup backup =
        backup(
            id(0, 1, 31),
            NamedFileSet.empty(),
            NamedFileSet.of(new BackupFile("5.log", active, 25_000)));
    byte[] prefix = readPrefix(active, 25_000);

    await(store.save(backup));
    Files.write(active, new byte[70_000], StandardOpenOption.APPEND);

    Path target = newDirectory("restore");
    Backup restored = await(store.restore(backup.id(), target, RestoreProgressListener.NOOP));
    assertThat(
            java.util.Arrays.mismatch(Files.readAllBytes(target.resolve("segments/5.log")), prefix))
        .as("first differing offset")
        .isEqualTo(-1);
    assertThat(restored.segments().file("5.log").orElseThrow().lengthBytes()).isEqualTo(25_000);
    assertThat(storedManifest(backup.id()).segments().get(0).sizeBytes()).isEqualTo(25_000);
    assertThat(await(store.verify(backup.id())).isClean()).isTrue();
  }

  @Test
  void shouldRefuseRestoringIntoATargetThatHoldsRestoredFiles() throws Exception {
    Backup backup = tinyBackup(id(0, 1, 32));
    await(store.save(backup));
    Path target = newDirectory("restore");
    Path existing = write(target, "segments/keep.log", new byte[] {1, 2, 3});

    assertThatThrownBy(
            () -> await(store.restore(backup.id(), target, RestoreProgressListener.NOOP)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("segments");

    assertThat(Files.readAllBytes(existing)).containsExactly(1, 2, 3);
    assertThat(target.resolve("segments/1.log")).doesNotExist();
  }

  @Test
  void shouldRefuseRestoringOrVerifyingBackupThatIsNotCompleted() throws Exception {
    BackupIdentifier failed = id(0, 1, 33);
    await(store.markFailed(failed, "leader changed"));
    Backup running = tinyBackup(id(0, 1, 34));
    writeRawManifest(
        running.id(), CODEC.encode(Manifest.inProgress(running.descriptor(), clock.instant())));

    assertThatThrownBy(
            () -> await(store.restore(failed, newDirectory("r"), RestoreProgressListener.NOOP)))
        .isInstanceOfSatisfying(
            BackupNotCompletedException.class,
            e -> assertThat(e.status()).isEqualTo(BackupStatusCode.FAILED));
    assertThatThrownBy(() -> await(store.verify(running.id())))
        .isInstanceOfSatisfying(
            BackupNotCompletedException.class,
            e -> assertThat(e.status()).isEqualTo(BackupStatusCode.IN_PROGRESS));
  }

  @Test
  void shouldVerifyCleanBackup() throws Exception {
    Backup backup = typicalBackup(id(0, 1, 35));
    await(store.save(backup));

    VerificationReport report = await(store.verify(backup.id()));

    assertThat(report.problems()).isEmpty();
    assertThat(report.isClean()).isTrue();
    assertThat(report.checkedFileCount()).isEqualTo(backup.descriptor().fileCount());
    assertThat(report.checkedBytes()).isEqualTo(backup.descriptor().sizeBytes());
    assertThat(report.descriptor()).isEqualTo(backup.descriptor());
  }

  @Test
  void shouldFindCorruptedObject() throws Exception {
    Backup backup = typicalBackup(id(0, 1, 36));
    await(store.save(backup));
    corruptObject(backup.id(), FileSetKind.SNAPSHOT, "000012.sst");

    VerificationReport report = await(store.verify(backup.id()));

    assertThat(report.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.fileSet()).isEqualTo(FileSetKind.SNAPSHOT);
              assertThat(p.name()).isEqualTo("000012.sst");
              assertThat(p.kind()).isEqualTo(FileProblemKind.CHECKSUM_MISMATCH);
              assertThat(p.actualCrc32c()).isPresent().get().isNotEqualTo(p.expectedCrc32c());
              assertThat(p.actualSizeBytes()).hasValue(300_000);
            });
    assertThat(report.describe()).contains("000012.sst");
  }

  @Test
  void shouldFindMissingObject() throws Exception {
    Backup backup = typicalBackup(id(0, 1, 37));
    await(store.save(backup));
    deleteObject(backup.id(), FileSetKind.SEGMENTS, "1.log");

    VerificationReport report = await(store.verify(backup.id()));

    assertThat(report.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.name()).isEqualTo("1.log");
              assertThat(p.kind()).isEqualTo(FileProblemKind.MISSING);
              assertThat(p.actualStoredSizeBytes()).isEmpty();
            });
  }

  @Test
  void shouldFindTruncatedObject() throws Exception {
    Backup backup = typicalBackup(id(0, 1, 38));
    await(store.save(backup));
    truncateObject(backup.id(), FileSetKind.SEGMENTS, "3.log", 1000);

    VerificationReport report = await(store.verify(backup.id()));

    assertThat(report.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.name()).isEqualTo("3.log");
              assertThat(p.kind()).isEqualTo(FileProblemKind.TRUNCATED);
              assertThat(p.expectedStoredSizeBytes()).isEqualTo(120_000);
              assertThat(p.actualStoredSizeBytes()).hasValue(1000);
            });
  }

  @Test
  void shouldReportEveryProblemAtOnce() throws Exception {
    Backup backup = typicalBackup(id(0, 1, 39));
    await(store.save(backup));
    corruptObject(backup.id(), FileSetKind.SEGMENTS, "1.log");
    deleteObject(backup.id(), FileSetKind.SNAPSHOT, "meta/checksums");
    truncateObject(backup.id(), FileSetKind.SNAPSHOT, "MANIFEST-000007", 0);

    VerificationReport report = await(store.verify(backup.id()));

    Map<String, FileProblemKind> kinds =
        report.problems().stream().collect(Collectors.toMap(FileProblem::name, FileProblem::kind));
    assertThat(kinds)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "1.log", FileProblemKind.CHECKSUM_MISMATCH,
                "meta/checksums", FileProblemKind.MISSING,
                "MANIFEST-000007", FileProblemKind.TRUNCATED));
    assertThat(report.checkedFileCount()).isEqualTo(backup.descriptor().fileCount());
  }

  @Test
  void shouldUndoRestoreOfCorruptedBackupAndNameTheFile() throws Exception {
    Backup backup = typicalBackup(id(0, 1, 40));
    await(store.save(backup));
    corruptObject(backup.id(), FileSetKind.SEGMENTS, "3.log");
    Path target = newDirectory("restore");

    assertThatThrownBy(
            () -> await(store.restore(backup.id(), target, RestoreProgressListener.NOOP)))
        .isInstanceOfSatisfying(
            BackupCorruptedException.class,
            e -> {
              assertThat(e.problem().name()).isEqualTo("3.log");
              assertThat(e.problem().kind()).isEqualTo(FileProblemKind.CHECKSUM_MISMATCH);
            })
        .hasMessageContaining("3.log");

    try (var entries = Files.list(target)) {
      assertThat(entries).isEmpty();
    }
  }

  @Test
  void shouldRejectManifestNamesThatEscapeTheirDirectory() throws Exception {
    List<String> hostile =
        List.of("../escaped", "/tmp/escaped", "a//b", "a\\b", "", "sub/../../escaped", ".", "ok/");
    long checkpoint = 41;
    for (String name : hostile) {
      BackupIdentifier id = id(0, 4, checkpoint++);
      Path target = newDirectory("hostile").resolve("target");
      writeRawManifest(id, manifestWithSegmentName(id, name));

      assertThatThrownBy(() -> await(store.getStatus(id)))
          .as("name '%s'", name)
          .isInstanceOf(ManifestException.class)
          .hasMessageContaining("'" + name + "'")
          .hasMessageContaining("manifest");
      assertThatThrownBy(() -> await(store.restore(id, target, RestoreProgressListener.NOOP)))
          .isInstanceOf(ManifestException.class);
      assertThatThrownBy(() -> await(store.verify(id))).isInstanceOf(ManifestException.class);
      try (var siblings = Files.list(target.getParent())) {
        assertThat(siblings).allMatch(p -> p.equals(target));
      }
      await(store.delete(id));
      assertThat(await(store.getStatus(id)).exists()).isFalse();
    }
  }

  @Test
  void shouldRefuseManifestOfUnknownMajorVersion() throws Exception {
    Backup backup = tinyBackup(id(0, 1, 50));
    await(store.save(backup));
    writeRawManifest(
        backup.id(),
        ManifestTampering.rewrite(
            readRawManifest(backup.id()), tree -> tree.put("manifestVersion", "2.0")));

    assertThatThrownBy(() -> await(store.getStatus(backup.id())))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining("2.0");
  }

  @Test
  void shouldIgnoreUnknownManifestFieldsOfTheSameMajorVersion() throws Exception {
    Backup backup = typicalBackup(id(0, 1, 51));
    await(store.save(backup));
    // as a writer of a newer minor version would: new fields, sealed with them
    writeRawManifest(
        backup.id(),
        ManifestTampering.rewrite(
            readRawManifest(backup.id()),
            tree -> {
              tree.put("manifestVersion", "1.7");
              tree.put("retentionClass", "gold");
              ((ObjectNode) tree.get("descriptor")).put("exporterPositions", "future");
              ((ObjectNode) ((ArrayNode) tree.get("files").get("segments")).get(0))
                  .put("sha256", "ab");
            }));

    assertThat(await(store.getStatus(backup.id())).descriptor()).contains(backup.descriptor());
    Path target = newDirectory("restore");
    assertRestoredIdentical(
        backup, await(store.restore(backup.id(), target, RestoreProgressListener.NOOP)), target);
  }

  @Test
  void shouldCompressLargeFilesWhenCompressionIsOn() throws Exception {
    var zstdStore = openStore(io.cairn.backupapi.content.CompressionPolicy.zstd(10_000));
    Path dir = newDirectory("text");
    Backup backup =
        backup(
            id(0, 1, 52),
            NamedFileSet.of(
                file("000001.sst", textFile(dir, "000001.sst", 400_000, 1)),
                file("CURRENT", textFile(dir, "CURRENT", 100, 2))),
            NamedFileSet.of(
                file("1.log", textFile(dir, "1.log", 700_000, 3)),
                file("2.log", randomFile(dir, "2.log", 50_000, 4))));

    var result = await(zstdStore.save(backup));

    Manifest manifest = storedManifest(backup.id());
    Map<String, ManifestFile> files = new java.util.HashMap<>();
    manifest.snapshot().forEach(f -> files.put(f.name(), f));
    manifest.segments().forEach(f -> files.put(f.name(), f));
    assertThat(files.get("000001.sst").compression()).isEqualTo(Compression.ZSTD);
    assertThat(files.get("000001.sst").storedSizeBytes()).isLessThan(400_000 / 3);
    assertThat(files.get("1.log").compression()).isEqualTo(Compression.ZSTD);
    assertThat(files.get("CURRENT").compression()).isEqualTo(Compression.NONE);
    assertThat(files.get("2.log").compression()).isEqualTo(Compression.ZSTD);
    assertThat(result.storedBytes()).isLessThan(backup.descriptor().sizeBytes() / 2);
    assertThat(await(zstdStore.verify(backup.id())).isClean()).isTrue();
    Path target = newDirectory("restore");
    assertRestoredIdentical(
        backup, await(store.restore(backup.id(), target, RestoreProgressListener.NOOP)), target);
  }

  @Test
  void shouldStoreEverythingUncompressedWhenCompressionIsOff() throws Exception {
    Path dir = newDirectory("text");
    Backup backup =
        backup(
            id(0, 1, 53),
            NamedFileSet.empty(),
            NamedFileSet.of(file("1.log", textFile(dir, "1.log", 300_000, 1))));

    var result = await(store.save(backup));

    assertThat(storedManifest(backup.id()).segments())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.compression()).isEqualTo(Compression.NONE);
              assertThat(f.storedSizeBytes()).isEqualTo(300_000);
            });
    assertThat(result.storedBytes()).isEqualTo(300_000);
  }

  @Test
  void shouldFindCorruptionInCompressedObject() throws Exception {
    var zstdStore = openStore(io.cairn.backupapi.content.CompressionPolicy.zstd(0));
    Path dir = newDirectory("text");
    Backup backup =
        backup(
            id(0, 1, 54),
            NamedFileSet.empty(),
            NamedFileSet.of(
                file("1.log", textFile(dir, "1.log", 500_000, 1)),
                file("2.log", textFile(dir, "2.log", 500_000, 2))));
    await(zstdStore.save(backup));
    corruptObject(backup.id(), FileSetKind.SEGMENTS, "1.log");
    truncateObject(backup.id(), FileSetKind.SEGMENTS, "2.log", 100);

    VerificationReport report = await(zstdStore.verify(backup.id()));

    assertThat(report.problems()).hasSize(2);
    assertThat(report.problems())
        .filteredOn(p -> p.name().equals("1.log"))
        .singleElement()
        .satisfies(
            p ->
                assertThat(p.kind())
                    .isIn(
                        FileProblemKind.CHECKSUM_MISMATCH,
                        FileProblemKind.UNREADABLE,
                        FileProblemKind.SIZE_MISMATCH));
    assertThat(report.problems())
        .filteredOn(p -> p.name().equals("2.log"))
        .singleElement()
        .satisfies(p -> assertThat(p.kind()).isEqualTo(FileProblemKind.TRUNCATED));
    assertThatThrownBy(
            () ->
                await(
                    zstdStore.restore(
                        backup.id(), newDirectory("restore"), RestoreProgressListener.NOOP)))
        .isInstanceOf(BackupCorruptedException.class);
  }

  private byte[] manifestWithSegmentName(BackupIdentifier id, String name) {
    String json =
        """
        {
          "manifestVersion": "%s",
          "id": {"nodeId": %d, "partitionId": %d, "checkpointId": %d},
          "status": "COMPLETED",
          "createdAt": "2025-03-01T10:00:00Z",
          "updatedAt": "2025-03-01T10:00:00Z",
          "descriptor": {
            "checkpointId": %d, "partitionId": %d, "nodeId": %d, "checkpointPosition": 10,
            "numberOfPartitions": 8, "brokerVersion": "0.1.0", "stateDigest": "00aa",
            "fileCount": 1, "sizeBytes": 3
          },
          "files": {
            "snapshot": [],
            "segments": [
              {"name": "%s", "sizeBytes": 3, "crc32c": "00000000", "storedSizeBytes": 3,
               "compression": "none"}
            ]
          }
        }
        """
            .formatted(
                ManifestCodec.FORMAT_VERSION,
                id.nodeId(),
                id.partitionId(),
                id.checkpointId(),
                id.checkpointId(),
                id.partitionId(),
                id.nodeId(),
                name.replace("\\", "\\\\"));
    return ManifestTampering.reseal(json.getBytes(StandardCharsets.UTF_8));
  }
}
