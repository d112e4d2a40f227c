package io.cairn.backupfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupCorruptedException;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.Compression;
import io.cairn.backupapi.FileProblemKind;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupapi.RestoreProgress;
import io.cairn.scheduler.SimClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a restore copies: several files at once (uncompressed ones kernel-side, compressed ones
 * decoded), each checked, in the manifest's order in the result, with progress totals that only
 * grow; a bad file among many leaves nothing behind.
 */
class FilesystemRestoreTest {

  private static final long MIB = 1L << 20;

  /** Files of at least this size are stored zstd-compressed, smaller ones as is. */
  private static final long ZSTD_THRESHOLD = 10 * MIB;

  @TempDir Path base;
  @TempDir Path sources;
  @TempDir Path targets;

  private final ExecutorService executor = Executors.newFixedThreadPool(4);
  private FilesystemBackupStore store;

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
    executor.shutdownNow();
  }

  private static <T> T await(CompletableFuture<T> future) throws Exception {
    return future.get(60, TimeUnit.SECONDS);
  }

  @Test
  void shouldRestoreManyFilesAtOnceByteIdenticalInManifestOrder() throws Exception {
    // given 24 files restored 4 at once: stored as is, of up to 300 KB and of 9 MiB (more than a
    // transfer chunk), and stored compressed (zeros of 11 MiB, above the zstd threshold)
    open(4);
    var random = new Random(13);
    List<BackupFile> snapshot = new ArrayList<>();
    List<BackupFile> segments = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      int size =
          switch (i % 6) {
            case 0 -> (int) (9 * MIB) + random.nextInt(1000);
            case 1 -> (int) (11 * MIB) + random.nextInt(1000);
            default -> random.nextInt(300_000);
          };
      Path source = write("f" + i, size, random, i % 6 == 1);
      (i % 3 == 0 ? segments : snapshot)
          .add(
              new BackupFile(
                  String.format("%06d.%s", 24 - i, i % 3 == 0 ? "log" : "sst"), source, size));
    }
    var id = new BackupIdentifier(0, 1, 1);
    Backup backup = backup(id, snapshot, segments);
    await(store.save(backup));
    assertThat(store.manifests().read(id).orElseThrow().files(FileSetKind.SNAPSHOT))
        .as("some files stored compressed, some as is")
        .anyMatch(e -> e.compression() == Compression.ZSTD)
        .anyMatch(e -> e.compression() == Compression.NONE);
    List<RestoreProgress> events = new CopyOnWriteArrayList<>();
    Path target = targets.resolve("restored");

    // when
    Backup restored = await(store.restore(id, target, events::add));

    // then both sets are in the backup's order, every file byte-identical to its source
    assertRestored(restored.snapshot().files(), snapshot, target.resolve("snapshot"));
    assertRestored(restored.segments().files(), segments, target.resolve("segments"));
    // and the progress totals only grew, ending at every byte and file
    assertThat(events).extracting(RestoreProgress::totalBytesDone).isSorted();
    assertThat(events).extracting(RestoreProgress::filesDone).isSorted();
    RestoreProgress last = events.get(events.size() - 1);
    assertThat(last.totalBytesDone()).isEqualTo(backup.descriptor().sizeBytes());
    assertThat(last.filesDone()).isEqualTo(24);
  }

  @Test
  void shouldLeaveNothingWhenOneOfManyFilesIsCorrupted() throws Exception {
    // given 8 uncompressed files of 2 MiB restored 4 at once, one stored object with a flipped
    // byte and one truncated
    open(4);
    var random = new Random(17);
    List<BackupFile> segments = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      int size = (int) (2 * MIB);
      segments.add(new BackupFile(i + ".log", write("s" + i, size, random, false), size));
    }
    var id = new BackupIdentifier(0, 1, 2);
    await(store.save(backup(id, List.of(), segments)));
    Path flipped = store.layout().object(id, FileSetKind.SEGMENTS, "5.log");
    byte[] bytes = Files.readAllBytes(flipped);
    bytes[(int) MIB + 3] ^= 0x10;
    Files.write(flipped, bytes);
    Path truncated = store.layout().object(id, FileSetKind.SEGMENTS, "2.log");
    Files.write(truncated, Arrays.copyOf(Files.readAllBytes(truncated), (int) MIB));
    Path target = targets.resolve("restored");

    // when, then the first problem found names its file
    assertThatThrownBy(() -> await(store.restore(id, target, progress -> {})))
        .cause()
        .isInstanceOfSatisfying(
            BackupCorruptedException.class,
            e ->
                assertThat(e.problem().name() + " " + e.problem().kind())
                    .isIn(
                        "5.log " + FileProblemKind.CHECKSUM_MISMATCH,
                        "2.log " + FileProblemKind.TRUNCATED));
    // and nothing of the restore is left
    try (Stream<Path> entries = Files.list(target)) {
      assertThat(entries).isEmpty();
    }
    // while a plain check still finds both problems
    assertThat(await(store.verify(id)).problems())
        .extracting(p -> p.name() + " " + p.kind())
        .containsExactlyInAnyOrder(
            "5.log " + FileProblemKind.CHECKSUM_MISMATCH, "2.log " + FileProblemKind.TRUNCATED);
  }

  private void open(int copies) {
    store =
        FilesystemBackupStore.open(
            FilesystemBackupStoreConfig.of(base)
                .withCompression(Compression.ZSTD, ZSTD_THRESHOLD)
                .withMaxConcurrentFileCopies(copies),
            new SimClock(Instant.parse("2025-03-01T10:00:00Z").toEpochMilli()),
            executor,
            executor,
            new SimpleMeterRegistry());
  }

  /** Random bytes, or zeros. */
  private Path write(String name, int size, Random random, boolean zeros) throws IOException {
    byte[] bytes = new byte[size];
    if (!zeros) {
      random.nextBytes(bytes);
    }
    return Files.write(sources.resolve(name), bytes);
  }

  private static Backup backup(
      BackupIdentifier id, List<BackupFile> snapshot, List<BackupFile> segments) {
    var builder =
        Backup.builder(id)
            .checkpointPosition(10)
            .numberOfPartitions(1)
            .brokerVersion("0.1.0")
            .stateDigest("ab")
            .segments(NamedFileSet.of(segments.toArray(BackupFile[]::new)));
    if (!snapshot.isEmpty()) {
      builder.snapshot("s", NamedFileSet.of(snapshot.toArray(BackupFile[]::new)));
    }
    return builder.build();
  }

  private static void assertRestored(
      List<BackupFile> restored, List<BackupFile> sources, Path directory) throws IOException {
    assertThat(restored)
        .extracting(BackupFile::name)
        .containsExactlyElementsOf(sources.stream().map(BackupFile::name).toList());
    for (int i = 0; i < sources.size(); i++) {
      BackupFile file = restored.get(i);
      assertThat(file.path()).isEqualTo(directory.resolve(file.name()));
      assertThat(file.lengthBytes()).isEqualTo(sources.get(i).lengthBytes());
      assertThat(
              Arrays.mismatch(
                  Files.readAllBytes(file.path()), Files.readAllBytes(sources.get(i).path())))
          .as("first differing offset of %s", file.name())
          .isEqualTo(-1);
    }
  }
}
