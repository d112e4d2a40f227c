package io.cairn.backupfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.FileSetKind;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupapi.PageRequest;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backupfs.layout.StoreLayout;
import io.cairn.scheduler.SimClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the filesystem store leaves on disk, beyond the store contract. */
class FilesystemLayoutTest {

  @TempDir Path base;
  @TempDir Path sources;

  private final ExecutorService executor = Executors.newFixedThreadPool(2);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private FilesystemBackupStore store;
  private StoreLayout layout;

  @BeforeEach
  void open() {
    store =
        FilesystemBackupStore.open(
            FilesystemBackupStoreConfig.of(base),
            new SimClock(Instant.parse("2025-03-01T10:00:00Z").toEpochMilli()),
            executor,
            executor,
            registry);
    layout = store.layout();
  }

  @AfterEach
  void close() {
    store.close();
    executor.shutdownNow();
  }

  private static <T> T await(CompletableFuture<T> future) throws Exception {
    return future.get(30, TimeUnit.SECONDS);
  }

  private Backup backup(BackupIdentifier id, int seed) throws IOException {
    byte[] a = new byte[20_000];
    byte[] b = new byte[30_000];
    new Random(seed).nextBytes(a);
    new Random(seed + 1).nextBytes(b);
    Path fileA = Files.write(sources.resolve("a-" + seed), a);
    Path fileB = Files.write(sources.resolve("b-" + seed), b);
    return Backup.builder(id)
        .checkpointPosition(10)
        .numberOfPartitions(3)
        .brokerVersion("0.1.0")
        .stateDigest("ab")
        .snapshot("s", NamedFileSet.of(new BackupFile("000001.sst", fileA, a.length)))
        .segments(NamedFileSet.of(new BackupFile("1.log", fileB, b.length)))
        .build();
  }

  private static List<Path> filesUnder(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile).toList();
    }
  }

  @Test
  void shouldKeepManifestsApartFromContentsAndLeaveNoTempFiles() throws Exception {
    var id = new BackupIdentifier(1, 2, 7);

    await(store.save(backup(id, 1)));

    assertThat(filesUnder(layout.manifestsRoot()))
        .containsExactly(base.resolve("manifests/2/7/1/manifest.json"));
    assertThat(filesUnder(layout.contentsRoot()))
        .containsExactlyInAnyOrder(
            base.resolve("contents/2/7/1/snapshot/000001.sst"),
            base.resolve("contents/2/7/1/segments/1.log"));
  }

  @Test
  void shouldListFromManifestsWithoutReadingContents() throws Exception {
    await(store.save(backup(new BackupIdentifier(0, 1, 1), 1)));
    await(store.save(backup(new BackupIdentifier(0, 1, 2), 2)));
    io.cairn.files.DurableFiles.deleteRecursively(layout.contentsRoot());

    var page = await(store.list(BackupIdentifierWildcard.all(), PageRequest.first()));

    assertThat(page.statuses())
        .hasSize(2)
        .allSatisfy(s -> assertThat(s.statusCode()).isEqualTo(BackupStatusCode.COMPLETED));
  }

  @Test
  void shouldReuseByHardLinkingThePreviousObject() throws Exception {
    Backup first = backup(new BackupIdentifier(0, 1, 1), 1);
    await(store.save(first));
    Backup second =
        new Backup(
            new BackupIdentifier(1, 1, 2),
            Backup.builder(new BackupIdentifier(1, 1, 2))
                .checkpointPosition(20)
                .numberOfPartitions(3)
                .brokerVersion("0.1.0")
                .stateDigest("cd")
                .snapshot("s2", first.snapshot())
                .segments(first.segments())
                .build()
                .descriptor(),
            first.snapshot(),
            first.segments());

    var result = await(store.save(second, Optional.of(first.id())));

    assertThat(result.reusedFileCount()).isEqualTo(2);
    Path old = layout.object(first.id(), FileSetKind.SEGMENTS, "1.log");
    Path linked = layout.object(second.id(), FileSetKind.SEGMENTS, "1.log");
    assertThat(Files.isSameFile(old, linked)).isTrue();
    assertThat(Files.getAttribute(linked, "unix:nlink")).isEqualTo(2);
    assertThat(registry.get(FilesystemBackupStoreMetrics.REUSED).counter().count())
        .isEqualTo(50_000);
    assertThat(registry.get(FilesystemBackupStoreMetrics.COPIED).counter().count())
        .isEqualTo(50_000);
    assertThat(
            registry
                .get(FilesystemBackupStoreMetrics.OPERATIONS)
                .tag("operation", "save")
                .tag("result", "success")
                .timer()
                .count())
        .isEqualTo(2);
  }

  @Test
  void shouldRemoveLeftoversOfACrashedDeleteBeforeSaving() throws Exception {
    var id = new BackupIdentifier(0, 3, 9);
    Path leftover = layout.object(id, FileSetKind.SEGMENTS, "old.log");
    Files.createDirectories(leftover.getParent());
    Files.write(leftover, new byte[] {1, 2, 3});

    await(store.save(backup(id, 3)));

    assertThat(leftover).doesNotExist();
    assertThat(await(store.verify(id)).isClean()).isTrue();
  }

  @Test
  void shouldIgnoreATempManifestLeftByACrash() throws Exception {
    var id = new BackupIdentifier(0, 1, 4);
    await(store.save(backup(id, 4)));
    Files.writeString(layout.manifestFile(id).resolveSibling("manifest.json.tmp"), "{ torn");

    assertThat(await(store.getStatus(id)).statusCode()).isEqualTo(BackupStatusCode.COMPLETED);
    assertThat(await(store.list(BackupIdentifierWildcard.all(), PageRequest.first())).statuses())
        .hasSize(1);
  }

  @Test
  void shouldPruneEmptyDirectoriesWhenDeleting() throws Exception {
    var kept = new BackupIdentifier(0, 1, 5);
    var deleted = new BackupIdentifier(0, 2, 6);
    await(store.save(backup(kept, 5)));
    await(store.save(backup(deleted, 6)));

    await(store.delete(deleted));

    assertThat(base.resolve("manifests/2")).doesNotExist();
    assertThat(base.resolve("contents/2")).doesNotExist();
    assertThat(layout.manifestFile(kept)).exists();
    Path target = sources.resolve("restore");
    assertThat(await(store.restore(kept, target, RestoreProgressListener.NOOP)).segments().size())
        .isEqualTo(1);
  }
}
