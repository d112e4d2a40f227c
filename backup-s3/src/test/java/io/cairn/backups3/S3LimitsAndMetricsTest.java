package io.cairn.backups3;

import static io.cairn.backups3.S3TestSupport.MIB;
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
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.BackupPage;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.CheckpointPattern;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupapi.PageRequest;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestCodec;
import io.cairn.backups3.testserver.FaultInjectingProxy;
import io.cairn.backups3.testserver.FaultInjectingProxy.Fault;
import io.cairn.backups3.testserver.LocalS3Servers;
import io.cairn.backups3.testserver.LocalS3Servers.Kind;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.SimClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * Limits and cost, observed from outside through a recording proxy on S3Proxy: content requests in
 * flight stay within half the pool, the bytes/s limit holds uploads back, listing reads only
 * manifest keys and jumps over non-matching ones, and the documented meters are there.
 */
@ExtendWith(LocalS3Servers.class)
class S3LimitsAndMetricsTest {

  private static final String BUCKET = "cairn-limits";
  private static final Clock CLOCK =
      new SimClock(Instant.parse("2025-03-01T10:00:00Z").toEpochMilli());
  private static final AtomicInteger PATHS = new AtomicInteger();

  /**
   * Counted answers are held until three requests are in flight at once (the most the store may
   * send), so the counts below do not depend on thread scheduling; below the 30 s call timeout.
   */
  private static final Duration HOLD_AT_MOST = Duration.ofSeconds(20);

  @TempDir Path dir;
  private final ExecutorService executor = Executors.newFixedThreadPool(8);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final List<AutoCloseable> closeables = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
    executor.shutdownNow();
  }

  private LocalS3Servers.Running server() {
    LocalS3Servers.Running server = LocalS3Servers.get(Kind.S3PROXY);
    server.createBucket(BUCKET);
    return server;
  }

  private FaultInjectingProxy proxy(LocalS3Servers.Running server) throws Exception {
    var proxy = new FaultInjectingProxy(server.process().endpoint());
    closeables.add(proxy);
    return proxy;
  }

  private S3BackupStore open(S3BackupStoreConfig config) {
    S3BackupStore store = S3BackupStore.open(config, CLOCK, executor, executor, registry);
    closeables.add(store);
    return store;
  }

  @Test
  void shouldKeepContentRequestsInFlightWithinHalfThePool() throws Exception {
    LocalS3Servers.Running server = server();
    FaultInjectingProxy proxy =
        proxy(server)
            .countConcurrent(
                r ->
                    r.path().contains("/contents/")
                        && (r.method().equals("PUT") || r.method().equals("GET")))
            .holdCountedUntilConcurrent(3, HOLD_AT_MOST)
            .slowResponseDelay(Duration.ofMillis(150))
            .plan(r -> r.path().contains("/contents/") ? Fault.SLOW_RESPONSE : Fault.NONE);
    S3BackupStore store =
        open(
            server
                .config(BUCKET, "limits-" + PATHS.incrementAndGet())
                .endpoint(proxy.endpoint())
                .maxConnections(6)
                .build());
    List<CompletableFuture<?>> saves = new ArrayList<>();
    List<Backup> backups = new ArrayList<>();
    for (int partition = 1; partition <= 3; partition++) {
      List<BackupFile> files = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        files.add(
            file(
                i + ".log",
                randomFile(dir, partition + "/" + i + ".log", 50_000, partition * 10 + i)));
      }
      Backup backup =
          backup(
              new BackupIdentifier(0, partition, 1), NamedFileSet.empty(), new NamedFileSet(files));
      backups.add(backup);
      saves.add(store.save(backup));
    }
    saves.forEach(S3TestSupport::await);
    List<CompletableFuture<?>> restores = new ArrayList<>();
    for (Backup backup : backups) {
      restores.add(
          store.restore(
              backup.id(),
              dir.resolve("restore-" + backup.id().partitionId()),
              RestoreProgressListener.NOOP));
    }
    restores.forEach(S3TestSupport::await);

    assertThat(store.config().maxConcurrentTransfers()).isEqualTo(3);
    assertThat(proxy.maxConcurrentCounted())
        .as("content requests in flight at once")
        .isBetween(2, 3);
  }

  @Test
  void shouldSendSeveralPartsOfOneFileAtOnceWithinThePermits() throws Exception {
    LocalS3Servers.Running server = server();
    FaultInjectingProxy proxy =
        proxy(server)
            .countConcurrent(r -> r.path().contains("/contents/") && r.method().equals("PUT"))
            .holdCountedUntilConcurrent(3, HOLD_AT_MOST)
            .slowResponseDelay(Duration.ofMillis(150))
            .plan(
                r ->
                    r.path().contains("/contents/") && r.method().equals("PUT")
                        ? Fault.SLOW_RESPONSE
                        : Fault.NONE);
    S3BackupStore store =
        open(
            server
                .config(BUCKET, "limits-" + PATHS.incrementAndGet())
                .endpoint(proxy.endpoint())
                .maxConnections(6)
                .partSizeBytes(S3BackupStoreConfig.PART_SIZE_BYTES_MIN)
                .build());
    // Five parts and a short last one, in a single file.
    int sizeBytes = (int) (5 * S3BackupStoreConfig.PART_SIZE_BYTES_MIN + 12_345);
    Backup backup =
        backup(
            new BackupIdentifier(0, 1, 1),
            NamedFileSet.empty(),
            NamedFileSet.of(file("1.log", randomFile(dir, "1.log", sizeBytes, 7))));

    await(store.save(backup));

    assertThat(proxy.maxConcurrentCounted())
        .as("parts of one file in flight at once")
        .isEqualTo(store.config().maxConcurrentTransfers())
        .isEqualTo(3);
    assertThat(await(store.verify(backup.id())).isClean()).isTrue();
  }

  @Test
  void shouldHoldUploadsToTheBytesPerSecondLimit() throws Exception {
    S3BackupStore store =
        open(
            server()
                .config(BUCKET, "limits-" + PATHS.incrementAndGet())
                .maxBytesPerSecond(MIB)
                .build());
    Backup backup =
        backup(
            new BackupIdentifier(0, 1, 1),
            NamedFileSet.empty(),
            NamedFileSet.of(file("1.log", randomFile(dir, "1.log", 2 * MIB, 1))));

    await(store.save(backup));

    // One second's worth passes at once; the second MiB waits about a second.
    var throttled = registry.find(S3BackupStoreMetrics.THROTTLED).timer();
    assertThat(throttled.totalTime(TimeUnit.MILLISECONDS)).isBetween(900.0, 1100.0);
  }

  @Test
  void shouldListByScanningOnlyManifestKeysAndJumpingOverOthers() throws Exception {
    LocalS3Servers.Running server = server();
    FaultInjectingProxy proxy = proxy(server);
    String basePath = "limits-" + PATHS.incrementAndGet();
    S3BackupStore store = open(server.config(BUCKET, basePath).endpoint(proxy.endpoint()).build());
    // 3 partitions x 150 checkpoints, written directly; one real backup with many files.
    var codec = new ManifestCodec();
    List<CompletableFuture<?>> puts = new ArrayList<>();
    for (int partition = 1; partition <= 3; partition++) {
      for (long checkpoint = 1; checkpoint <= 150; checkpoint++) {
        var id = new BackupIdentifier((int) (checkpoint % 2), partition, checkpoint);
        Manifest manifest = Manifest.failedWithoutDescriptor(id, "test", CLOCK.instant());
        puts.add(
            server
                .client()
                .putObject(
                    PutObjectRequest.builder()
                        .bucket(BUCKET)
                        .key(store.layout().manifestKey(id))
                        .build(),
                    AsyncRequestBody.fromBytes(codec.encode(manifest))));
      }
    }
    CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).join();
    List<BackupFile> many = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      many.add(file("f" + i, randomFile(dir, "many/f" + i, 10, i)));
    }
    await(
        store.save(
            backup(new BackupIdentifier(0, 2, 200), NamedFileSet.empty(), new NamedFileSet(many))));
    proxy.clearRequests();

    BackupPage page =
        await(
            store.list(
                BackupIdentifierWildcard.ofCheckpoints(CheckpointPattern.exact(12)),
                PageRequest.first(100)));

    assertThat(page.statuses())
        .extracting(BackupStatus::id)
        .containsExactly(
            new BackupIdentifier(0, 1, 12),
            new BackupIdentifier(0, 2, 12),
            new BackupIdentifier(0, 3, 12));
    var requests = proxy.requests();
    assertThat(requests).noneMatch(r -> r.target().contains("contents"));
    assertThat(requests)
        .filteredOn(r -> r.method().equals("GET") && !r.target().contains("list-type"))
        .hasSize(3);
    // A full scan of 451 keys takes 15 pages of 32; the skip-scan needs one per partition.
    assertThat(requests).filteredOn(r -> r.target().contains("list-type")).hasSizeBetween(3, 4);

    // Paging through a prefix pattern with a node filter gives what a brute force would.
    List<BackupIdentifier> expected = new ArrayList<>();
    for (long checkpoint = 1; checkpoint <= 150; checkpoint++) {
      if (Long.toString(checkpoint).startsWith("1") && checkpoint % 2 == 1) {
        expected.add(new BackupIdentifier(1, 2, checkpoint));
      }
    }
    var wildcard =
        BackupIdentifierWildcard.ofPartition(2)
            .withNode(1)
            .withCheckpoints(CheckpointPattern.parse("1*"));
    List<BackupIdentifier> listed = new ArrayList<>();
    PageRequest request = PageRequest.first(7);
    while (true) {
      BackupPage next = await(store.list(wildcard, request));
      next.statuses().forEach(s -> listed.add(s.id()));
      if (next.nextPageToken().isEmpty()) {
        break;
      }
      request = request.next(next);
    }
    assertThat(listed).containsExactlyElementsOf(expected);
  }

  @Test
  void shouldRecordTheDocumentedMeters() throws Exception {
    S3BackupStore store =
        open(server().config(BUCKET, "limits-" + PATHS.incrementAndGet()).build());
    Backup backup =
        backup(
            new BackupIdentifier(0, 1, 1),
            NamedFileSet.empty(),
            NamedFileSet.of(file("1.log", randomFile(dir, "1.log", 300_000, 1))));

    await(store.save(backup));
    await(store.restore(backup.id(), dir.resolve("restore"), RestoreProgressListener.NOOP));

    assertThat(
            registry
                .find(S3BackupStoreMetrics.OPERATIONS)
                .tag("operation", "save")
                .tag("result", "success")
                .timer()
                .count())
        .isEqualTo(1);
    assertThat(
            registry
                .find(S3BackupStoreMetrics.OPERATIONS)
                .tag("operation", "restore")
                .tag("result", "success")
                .timer()
                .count())
        .isEqualTo(1);
    assertThat(
            registry
                .find(S3BackupStoreMetrics.REQUESTS)
                .tag("operation", "PutObject")
                .tag("result", "success")
                .timer()
                .count())
        .isGreaterThanOrEqualTo(3);
    assertThat(
            registry
                .find(S3BackupStoreMetrics.REQUESTS)
                .tag("operation", "ListObjectsV2")
                .tag("result", "success")
                .timer()
                .count())
        .isEqualTo(1);
    assertThat(
            registry
                .find(S3BackupStoreMetrics.REQUESTS)
                .tag("operation", "PutObject")
                .tag("result", "precondition_failed")
                .timer()
                .count())
        .isEqualTo(2);
    assertThat(requests(registry, "GetObject")).isGreaterThanOrEqualTo(2);
    assertThat(counter(registry, S3BackupStoreMetrics.UPLOADED)).isEqualTo(300_000);
    assertThat(counter(registry, S3BackupStoreMetrics.DOWNLOADED)).isEqualTo(300_000);
    assertThat(
            registry
                .find(S3BackupStoreMetrics.TRANSFERS)
                .tag("operation", "upload")
                .tag("result", "success")
                .timer()
                .count())
        .isEqualTo(1);
    assertThat(
            registry
                .find(S3BackupStoreMetrics.TRANSFERS)
                .tag("operation", "download")
                .tag("result", "success")
                .timer()
                .count())
        .isEqualTo(1);
    assertThat(registry.find(S3BackupStoreMetrics.REQUESTS).tag("result", "error").timers())
        .isEmpty();
  }
}
