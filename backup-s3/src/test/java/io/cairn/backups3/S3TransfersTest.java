package io.cairn.backups3;

import static io.cairn.backups3.S3TestSupport.MIB;
import static io.cairn.backups3.S3TestSupport.assertRestoredIdentical;
import static io.cairn.backups3.S3TestSupport.await;
import static io.cairn.backups3.S3TestSupport.backup;
import static io.cairn.backups3.S3TestSupport.counter;
import static io.cairn.backups3.S3TestSupport.file;
import static io.cairn.backups3.S3TestSupport.randomFile;
import static io.cairn.backups3.S3TestSupport.requests;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.Compression;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backups3.layout.S3ObjectLayout;
import io.cairn.backups3.testserver.FaultInjectingProxy;
import io.cairn.backups3.testserver.LocalS3Servers;
import io.cairn.backups3.testserver.LocalS3Servers.Kind;
import io.cairn.backups3.testserver.RawObjects;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.SimClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * What the contract kit's small files do not reach, on both servers: multipart uploads of files
 * larger than a part (also the growing active segment and zstd), restores by ranged GETs only,
 * server-side multipart copies for incremental backups, legacy Content-MD5, the key layout, and
 * deletes in DeleteObjects batches.
 */
@ExtendWith(LocalS3Servers.class)
class S3TransfersTest {

  private static final String BUCKET = "cairn-transfers";
  private static final Clock CLOCK =
      new SimClock(Instant.parse("2025-03-01T10:00:00Z").toEpochMilli());
  private static final AtomicInteger PATHS = new AtomicInteger();

  @TempDir Path dir;
  private final ExecutorService executor = Executors.newFixedThreadPool(4);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final List<S3BackupStore> stores = new ArrayList<>();

  @AfterEach
  void close() {
    stores.forEach(S3BackupStore::close);
    executor.shutdownNow();
  }

  private static LocalS3Servers.Running server(Kind kind) {
    LocalS3Servers.Running server = LocalS3Servers.get(kind);
    server.createBucket(BUCKET);
    return server;
  }

  private S3BackupStore open(S3BackupStoreConfig config) {
    S3BackupStore store = S3BackupStore.open(config, CLOCK, executor, executor, registry);
    stores.add(store);
    return store;
  }

  private static String basePath(Kind kind) {
    return "transfers/" + kind + "-" + PATHS.incrementAndGet();
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void shouldUploadLargeFilesInPartsAndRestoreThemWithRangedGets(Kind kind) throws Exception {
    LocalS3Servers.Running server = server(kind);
    // Requests pass a recording proxy: the restore must never ask for a part number.
    try (var proxy = new FaultInjectingProxy(server.process().endpoint())) {
      S3BackupStore store =
          open(server.config(BUCKET, basePath(kind)).endpoint(proxy.endpoint()).build());
      Path active = randomFile(dir, "log/3.log", 13 * MIB, 3);
      Backup backup =
          backup(
              new BackupIdentifier(0, 1, 1),
              NamedFileSet.of(
                  file("000042.sst", randomFile(dir, "snap/000042.sst", 12 * MIB + 7, 1)),
                  file("CURRENT", randomFile(dir, "snap/CURRENT", 16, 2))),
              NamedFileSet.of(new BackupFile("3.log", active, 11 * MIB + 5)));

      BackupSaveResult result = await(store.save(backup));
      Files.write(active, new byte[MIB], java.nio.file.StandardOpenOption.APPEND);

      assertThat(result.copiedBytes()).isEqualTo(backup.descriptor().sizeBytes());
      assertThat(requests(registry, "CompleteMultipartUpload")).isEqualTo(2);
      // parts as the server saw them: a part the SDK sent again after a transient error counts once
      assertThat(
              proxy.requests().stream()
                  .filter(r -> r.method().equals("PUT") && r.query().contains("partNumber="))
                  .map(FaultInjectingProxy.Request::target)
                  .distinct())
          .hasSize(3 + 3);
      assertThat(counter(registry, S3BackupStoreMetrics.UPLOADED))
          .isEqualTo(backup.descriptor().sizeBytes());
      Path target = dir.resolve("restore");
      Backup restored = await(store.restore(backup.id(), target, RestoreProgressListener.NOOP));
      assertThat(restored.descriptor()).isEqualTo(backup.descriptor());
      assertRestoredIdentical(backup, target);
      assertThat(await(store.verify(backup.id())).isClean()).isTrue();
      assertThat(proxy.requests())
          .filteredOn(r -> r.method().equals("GET"))
          .isNotEmpty()
          .noneMatch(r -> r.target().contains("partNumber"));
      assertThat(counter(registry, S3BackupStoreMetrics.DOWNLOADED))
          .isEqualTo(2.0 * backup.descriptor().sizeBytes());
    }
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void shouldCopyUnchangedLargeFilesServerSideInParts(Kind kind) throws Exception {
    S3BackupStore store = open(server(kind).config(BUCKET, basePath(kind)).build());
    Path sealed = randomFile(dir, "log/1.log", 11 * MIB, 10);
    Path small = randomFile(dir, "log/2.log", 3000, 11);
    Backup first =
        backup(
            new BackupIdentifier(0, 2, 1),
            NamedFileSet.empty(),
            NamedFileSet.of(file("1.log", sealed), file("2.log", small)));
    Backup second =
        backup(
            new BackupIdentifier(1, 2, 2),
            NamedFileSet.empty(),
            NamedFileSet.of(
                file("1.log", sealed),
                file("2.log", small),
                file("3.log", randomFile(dir, "log/3.log", 1000, 12))));
    await(store.save(first));
    long uploadsBefore = requests(registry, "UploadPart");

    BackupSaveResult result = await(store.save(second, Optional.of(first.id())));

    assertThat(result.reusedFileCount()).isEqualTo(2);
    assertThat(result.reusedBytes()).isEqualTo(11 * MIB + 3000);
    assertThat(requests(registry, "UploadPart")).isEqualTo(uploadsBefore);
    assertThat(requests(registry, "UploadPartCopy")).isEqualTo(3);
    assertThat(requests(registry, "CopyObject")).isEqualTo(1);
    assertThat(counter(registry, S3BackupStoreMetrics.COPIED)).isEqualTo(11 * MIB + 3000);
    await(store.delete(first.id()));
    assertThat(await(store.verify(second.id())).problems()).isEmpty();
    Path target = dir.resolve("restore");
    await(store.restore(second.id(), target, RestoreProgressListener.NOOP));
    assertRestoredIdentical(second, target);
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void shouldCompressLargeFilesInPartsWithLegacyMd5(Kind kind) throws Exception {
    S3BackupStore store =
        open(
            server(kind)
                .config(BUCKET, basePath(kind))
                .compression(Compression.ZSTD, 0)
                .legacyMd5(true)
                .build());
    Backup backup =
        backup(
            new BackupIdentifier(0, 3, 1),
            NamedFileSet.empty(),
            NamedFileSet.of(
                file("1.log", randomFile(dir, "1.log", 11 * MIB, 20)),
                file("2.log", randomFile(dir, "2.log", 200, 21))));

    BackupSaveResult result = await(store.save(backup));

    assertThat(requests(registry, "UploadPart")).isEqualTo(3);
    assertThat(result.storedBytes()).isGreaterThan(11 * MIB);
    assertThat(await(store.verify(backup.id())).isClean()).isTrue();
    Path target = dir.resolve("restore");
    await(store.restore(backup.id(), target, RestoreProgressListener.NOOP));
    assertRestoredIdentical(backup, target);
    await(store.delete(backup.id()));
    assertThat(await(store.getStatus(backup.id())).exists()).isFalse();
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void shouldKeepManifestsApartFromContents(Kind kind) throws Exception {
    LocalS3Servers.Running server = server(kind);
    String basePath = basePath(kind);
    S3BackupStore store = open(server.config(BUCKET, basePath).build());
    BackupIdentifier id = new BackupIdentifier(3, 12, 345);
    await(
        store.save(
            backup(
                id,
                NamedFileSet.empty(),
                NamedFileSet.of(file("a/1.log", randomFile(dir, "1.log", 100, 30))))));

    List<String> keys = new RawObjects(server.client(), BUCKET).keys(basePath + "/");

    assertThat(keys)
        .containsExactlyInAnyOrder(
            basePath + "/manifests/0000000012/0000000000000000345/0000000003.json",
            basePath + "/contents/0000000012/0000000000000000345/0000000003/segments/a/1.log");
    assertThat(store.layout().manifestKey(id))
        .isEqualTo(keys.stream().filter(k -> k.contains("/manifests/")).findFirst().orElseThrow());
  }

  /** On S3Proxy only: S3Mock takes ~10 s for the 1 100 extra objects, and batching is ours. */
  @Test
  void shouldDeleteEveryObjectInBatchesOfAtMostOneThousandKeys() throws Exception {
    Kind kind = Kind.S3PROXY;
    LocalS3Servers.Running server = server(kind);
    String basePath = basePath(kind);
    S3BackupStore store = open(server.config(BUCKET, basePath).build());
    BackupIdentifier id = new BackupIdentifier(0, 4, 1);
    BackupIdentifier other = new BackupIdentifier(0, 4, 2);
    await(
        store.save(
            backup(
                id,
                NamedFileSet.empty(),
                NamedFileSet.of(file("1.log", randomFile(dir, "1.log", 100, 40))))));
    await(
        store.save(
            backup(
                other,
                NamedFileSet.empty(),
                NamedFileSet.of(file("1.log", randomFile(dir, "1.log", 100, 40))))));
    // Strays of a crashed save: 1 100 more objects under the backup's contents prefix.
    String prefix = new S3ObjectLayout(BUCKET, basePath).contentsPrefix(id);
    List<CompletableFuture<?>> puts = new ArrayList<>();
    for (int i = 0; i < 1100; i++) {
      puts.add(
          server
              .client()
              .putObject(
                  PutObjectRequest.builder()
                      .bucket(BUCKET)
                      .key(prefix + "segments/stray-" + i)
                      .build(),
                  AsyncRequestBody.fromBytes(new byte[1])));
    }
    CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).join();

    await(store.delete(id));

    var raw = new RawObjects(server.client(), BUCKET);
    assertThat(raw.keys(prefix)).isEmpty();
    assertThat(raw.keys(store.layout().manifestKey(id))).isEmpty();
    assertThat(requests(registry, "DeleteObjects")).isEqualTo(2);
    assertThat(await(store.verify(other)).isClean()).isTrue();
  }
}
