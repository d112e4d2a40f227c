package io.cairn.backupfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.Compression;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestFile;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.scheduler.SimClock;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a save copies: several files at once, and at most {@code maxBytesPerSecond}. The limit's
 * waits move a simulated clock (the registry's {@link MockClock}) instead of sleeping, so the time
 * a save took at the limit is exact.
 */
class FilesystemCopyTest {

  private static final long MIB = 1L << 20;

  @TempDir Path base;
  @TempDir Path sources;

  private final ExecutorService executor = Executors.newFixedThreadPool(4);
  private final MockClock time = new MockClock();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, time);
  private FilesystemBackupStore store;

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
    executor.shutdownNow();
  }

  private FilesystemBackupStore open(FilesystemBackupStoreConfig config) {
    store =
        FilesystemBackupStore.open(
            config,
            BackupEncryption.off(),
            new SimClock(Instant.parse("2025-03-01T10:00:00Z").toEpochMilli()),
            executor,
            executor,
            registry,
            nanos -> time.add(nanos, TimeUnit.NANOSECONDS));
    return store;
  }

  private static <T> T await(CompletableFuture<T> future) throws Exception {
    return future.get(60, TimeUnit.SECONDS);
  }

  @Test
  void shouldCopyFilesInParallelAndKeepTheirOrderInTheManifest() throws Exception {
    // given 24 files of mixed sizes, some larger than a transfer chunk
    open(FilesystemBackupStoreConfig.of(base).withMaxConcurrentFileCopies(4));
    var random = new Random(5);
    List<BackupFile> snapshot = new ArrayList<>();
    List<BackupFile> segments = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      int size = i % 6 == 0 ? (int) (9 * MIB) + random.nextInt(1000) : random.nextInt(300_000);
      Path source = write("f" + i, size, random, false);
      (i % 3 == 0 ? segments : snapshot)
          .add(
              new BackupFile(
                  String.format("%06d.%s", 24 - i, i % 3 == 0 ? "log" : "sst"), source, size));
    }
    var id = new BackupIdentifier(0, 1, 1);

    // when
    BackupSaveResult result = await(store.save(backup(id, snapshot, segments)));

    // then every entry is in the backup's order with the source's checksum, and restores
    assertThat(result.copiedFileCount()).isEqualTo(24);
    Manifest manifest = store.manifests().read(id).orElseThrow();
    assertEntries(manifest.files(FileSetKind.SNAPSHOT), snapshot);
    assertEntries(manifest.files(FileSetKind.SEGMENTS), segments);
    assertThat(await(store.verify(id)).isClean()).isTrue();
    assertThat(Files.exists(store.layout().tempDirectory(id))).isFalse();
  }

  @Test
  void shouldTakeAsLongAsTheLimitRequires() throws Exception {
    // given a limit of 1 MiB/s (bursts of 1/8 s) and 3 MiB to copy, one file at a time
    long rate = MIB;
    open(
        FilesystemBackupStoreConfig.of(base)
            .withMaxConcurrentFileCopies(1)
            .withMaxBytesPerSecond(rate));
    var random = new Random(7);
    List<BackupFile> files = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      files.add(new BackupFile(i + ".log", write("s" + i, (int) MIB, random, false), MIB));
    }
    long start = time.monotonicTime();

    // when
    await(store.save(backup(new BackupIdentifier(0, 1, 1), List.of(), files)));

    // then it took (3 MiB - burst) / rate: 2.875 s
    long elapsedNanos = time.monotonicTime() - start;
    long expectedNanos = (3 * MIB - FilesystemBackupStore.burstBytes(rate)) * 1_000_000_000L / rate;
    assertThat(elapsedNanos).isBetween(expectedNanos - 1_000_000, expectedNanos + 1_000_000);
    var throttled = registry.get(FilesystemBackupStoreMetrics.THROTTLED).timer();
    assertThat(throttled.totalTime(TimeUnit.NANOSECONDS)).isEqualTo(elapsedNanos);
    assertThat(await(store.verify(new BackupIdentifier(0, 1, 1))).isClean()).isTrue();
  }

  @Test
  void shouldLimitStoredBytesSoCompressedFilesWaitLess() throws Exception {
    // given 3 MiB of zeros compressed with zstd, at 1 MiB/s
    open(
        FilesystemBackupStoreConfig.of(base)
            .withCompression(Compression.ZSTD, 1024)
            .withMaxConcurrentFileCopies(1)
            .withMaxBytesPerSecond(MIB));
    var random = new Random(9);
    List<BackupFile> files = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      files.add(new BackupFile(i + ".log", write("z" + i, (int) MIB, random, true), MIB));
    }

    // when
    BackupSaveResult result =
        await(store.save(backup(new BackupIdentifier(0, 1, 1), List.of(), files)));

    // then the few stored bytes fit in the burst: no wait
    assertThat(result.storedBytes()).isLessThan(FilesystemBackupStore.burstBytes(MIB));
    assertThat(registry.get(FilesystemBackupStoreMetrics.THROTTLED).timer().count()).isZero();
  }

  @Test
  void shouldKeepEveryFileWholeWhenParallelCopiesShareTheLimit() throws Exception {
    // given four copies at once sharing 2 MiB/s
    open(
        FilesystemBackupStoreConfig.of(base)
            .withMaxConcurrentFileCopies(4)
            .withMaxBytesPerSecond(2 * MIB));
    var random = new Random(11);
    List<BackupFile> files = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      int size = (int) MIB / 2 + random.nextInt(1000);
      files.add(new BackupFile(i + ".log", write("p" + i, size, random, false), size));
    }
    var id = new BackupIdentifier(0, 1, 1);

    // when
    await(store.save(backup(id, List.of(), files)));

    // then
    assertEntries(store.manifests().read(id).orElseThrow().files(FileSetKind.SEGMENTS), files);
    assertThat(await(store.verify(id)).isClean()).isTrue();
    assertThat(registry.get(FilesystemBackupStoreMetrics.THROTTLED).timer().count()).isPositive();
  }

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

  private static void assertEntries(List<ManifestFile> entries, List<BackupFile> files)
      throws IOException {
    assertThat(entries)
        .extracting(ManifestFile::name)
        .containsExactlyElementsOf(files.stream().map(BackupFile::name).toList());
    for (int i = 0; i < files.size(); i++) {
      var crc = new CRC32C();
      crc.update(Files.readAllBytes(files.get(i).path()));
      assertThat(entries.get(i).crc32c()).as(files.get(i).name()).isEqualTo(crc.getValue());
      assertThat(entries.get(i).sizeBytes()).isEqualTo(files.get(i).lengthBytes());
    }
  }
}
