package io.cairn.backups3;

import static io.cairn.backups3.S3TestSupport.MIB;
import static io.cairn.backups3.S3TestSupport.assertRestoredIdentical;
import static io.cairn.backups3.S3TestSupport.await;
import static io.cairn.backups3.S3TestSupport.backup;
import static io.cairn.backups3.S3TestSupport.file;
import static io.cairn.backups3.S3TestSupport.randomFile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backupapi.Backup;
import io.cairn.backupapi.BackupFile;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupMarkedFailedException;
import io.cairn.backupapi.BackupSaveResult;
import io.cairn.backupapi.BackupStatus;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.NamedFileSet;
import io.cairn.backupapi.RestoreProgressListener;
import io.cairn.backups3.testserver.FaultInjectingProxy;
import io.cairn.backups3.testserver.FaultInjectingProxy.Fault;
import io.cairn.backups3.testserver.FaultInjectingProxy.FaultPlan;
import io.cairn.backups3.testserver.LocalS3Servers;
import io.cairn.backups3.testserver.LocalS3Servers.Kind;
import io.cairn.backups3.testserver.RawObjects;
import io.cairn.backuptestkit.FifoGate;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.SimClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fault-injecting proxy between the store and S3Proxy (signatures checked): 500 and 503 answers,
 * slow answers past the call timeout, connections cut in the middle of request and response bodies,
 * responses lost after the server acted. Backups either complete and verify, or end FAILED with a
 * reason — never COMPLETED with a missing or corrupt object.
 */
@ExtendWith(LocalS3Servers.class)
class S3FaultInjectionTest {

  private static final long SEED = Long.getLong("cairn.seed", 4242L);
  private static final String BUCKET = "cairn-faults";
  private static final Clock CLOCK =
      new SimClock(Instant.parse("2025-03-01T10:00:00Z").toEpochMilli());
  private static final AtomicInteger PATHS = new AtomicInteger();

  @TempDir Path dir;
  private final ExecutorService executor = Executors.newFixedThreadPool(4);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final List<AutoCloseable> closeables = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
    executor.shutdownNow();
  }

  /**
   * Faults drawn with these probabilities from seeded random sources, one per distinct request
   * (method, path and query, without the upload id the server chose): the attempts of one call take
   * the next draws of its own source. So which call gets which fault does not depend on the order
   * in which concurrent requests reach the proxy, and a run is reproducible from its seed.
   */
  private static FaultPlan randomPlan(
      long seed, double errors, double cuts, double drops, double slow) {
    Map<String, Random> sources = new ConcurrentHashMap<>();
    return request -> {
      String key = request.method() + " " + request.target().replaceAll("uploadId=[^&]*", "");
      Random random = sources.computeIfAbsent(key, k -> new Random(seed * 31 + k.hashCode()));
      double draw;
      synchronized (random) {
        draw = random.nextDouble();
      }
      if (draw < errors / 2) {
        return Fault.ANSWER_503;
      }
      if (draw < errors) {
        return Fault.ANSWER_500;
      }
      if (draw < errors + cuts / 2) {
        return Fault.CUT_REQUEST_BODY;
      }
      if (draw < errors + cuts) {
        return Fault.CUT_RESPONSE_BODY;
      }
      if (draw < errors + cuts + drops) {
        return Fault.DROP_RESPONSE;
      }
      return draw < errors + cuts + drops + slow ? Fault.SLOW_RESPONSE : Fault.NONE;
    };
  }

  private record Setup(S3BackupStore faulty, S3BackupStore direct, FaultInjectingProxy proxy) {}

  private Setup setup(int maxAttempts, Duration apiCallTimeout) throws Exception {
    LocalS3Servers.Running server = LocalS3Servers.get(Kind.S3PROXY);
    server.createBucket(BUCKET);
    var proxy =
        new FaultInjectingProxy(server.process().endpoint())
            .slowResponseDelay(Duration.ofMillis(1300));
    closeables.add(proxy);
    String basePath = "faults-" + PATHS.incrementAndGet();
    S3BackupStoreConfig.Builder config = server.config(BUCKET, basePath);
    S3BackupStore direct =
        S3BackupStore.open(config.build(), CLOCK, executor, executor, new SimpleMeterRegistry());
    closeables.add(direct);
    S3BackupStore faulty =
        S3BackupStore.open(
            config
                .endpoint(proxy.endpoint())
                .apiCallTimeout(apiCallTimeout)
                .maxAttempts(maxAttempts)
                .retryBackoff(Duration.ofMillis(10))
                .retryBackoffMax(Duration.ofMillis(200))
                .build(),
            CLOCK,
            executor,
            executor,
            registry);
    closeables.add(faulty);
    return new Setup(faulty, direct, proxy);
  }

  private Backup someBackup(int partition, long checkpoint, int largeBytes) throws Exception {
    long seed = SEED * 31 + partition * 1000 + checkpoint;
    Path source = dir.resolve("p" + partition + "-" + checkpoint);
    return backup(
        new BackupIdentifier(0, partition, checkpoint),
        NamedFileSet.of(
            file("CURRENT", randomFile(source, "CURRENT", 16, seed)),
            file("000007.sst", randomFile(source, "000007.sst", 200_000, seed + 1))),
        NamedFileSet.of(
            file("1.log", randomFile(source, "1.log", largeBytes, seed + 2)),
            new BackupFile("2.log", randomFile(source, "2.log", 90_000, seed + 3), 70_000)));
  }

  @Test
  void shouldCompleteVerifyAndRestoreThroughTransientFaults() throws Exception {
    Setup s = setup(12, Duration.ofSeconds(20));
    s.proxy().plan(randomPlan(SEED, 0.10, 0.08, 0.04, 0.0));
    List<Backup> backups =
        List.of(someBackup(1, 1, 11 * MIB), someBackup(2, 1, 300_000), someBackup(3, 1, 600_000));

    for (Backup backup : backups) {
      BackupSaveResult result = await(s.faulty().save(backup));
      assertThat(result.status().statusCode())
          .as("seed %d", SEED)
          .isEqualTo(BackupStatusCode.COMPLETED);
    }
    for (Backup backup : backups) {
      assertThat(await(s.direct().verify(backup.id())).problems()).as("seed %d", SEED).isEmpty();
      Path target = dir.resolve("restore-" + backup.id().partitionId());
      await(s.faulty().restore(backup.id(), target, RestoreProgressListener.NOOP));
      assertRestoredIdentical(backup, target);
    }

    assertThat(s.proxy().faultsInjected()).as("seed %d", SEED).isGreaterThan(3);
    assertThat(
            registry.find(S3BackupStoreMetrics.RETRIES).counters().stream()
                .mapToDouble(c -> c.count())
                .sum())
        .as("seed %d", SEED)
        .isGreaterThan(3);
  }

  @Test
  void shouldEndEachBackupCompletedAndVerifiedOrFailedWithAReason() throws Exception {
    Setup s = setup(2, Duration.ofSeconds(20));
    s.proxy().plan(randomPlan(SEED + 1, 0.16, 0.12, 0.06, 0.0));
    int completed = 0;
    int notCompleted = 0;
    var raw = new RawObjects(LocalS3Servers.get(Kind.S3PROXY).client(), BUCKET);
    for (int checkpoint = 1; checkpoint <= 8; checkpoint++) {
      Backup backup = someBackup(4, checkpoint, 400_000);
      CompletableFuture<BackupSaveResult> save = s.faulty().save(backup);
      Throwable error = save.handle((value, e) -> e).get();
      BackupStatus status = await(s.direct().getStatus(backup.id()));
      String context = "seed " + SEED + ", " + backup.id() + ", save failed with " + error;
      if (status.statusCode() == BackupStatusCode.COMPLETED) {
        completed++;
        assertThat(error).as(context).isNull();
        assertThat(await(s.direct().verify(backup.id())).problems()).as(context).isEmpty();
        continue;
      }
      notCompleted++;
      assertThat(error).as(context).isNotNull();
      switch (status.statusCode()) {
        case FAILED -> assertThat(status.failureReason().orElseThrow()).as(context).isNotBlank();
        case IN_PROGRESS ->
            assertThat(error).as(context).hasMessageContaining("could not be marked FAILED");
        default ->
            assertThat(raw.keys(s.direct().layout().contentsPrefix(backup.id())))
                .as("nothing stored without a manifest; " + context)
                .isEmpty();
      }
    }
    assertThat(s.proxy().faultsInjected()).as("seed %d", SEED).isGreaterThan(3);
    assertThat(completed).as("seed %d: some saves got through", SEED).isGreaterThan(0);
    assertThat(notCompleted)
        .as("seed %d: the faults were heavy enough to fail some", SEED)
        .isGreaterThan(0);
  }

  @Test
  void shouldRetryAnswersSlowerThanTheCallTimeout() throws Exception {
    // Up to 8 attempts: a loaded machine may make an answer late on its own now and then.
    Setup s = setup(8, Duration.ofSeconds(1));
    // Three answers come 1.3 s late: past the 1 s call timeout, each attempt is retried.
    s.proxy()
        .plan(
            FaultPlan.first(
                3,
                r -> r.path().contains("/contents/") || r.path().contains("/manifests/"),
                Fault.SLOW_RESPONSE));
    Backup backup = someBackup(6, 1, 100_000);

    BackupSaveResult result = await(s.faulty().save(backup));

    assertThat(result.status().statusCode()).isEqualTo(BackupStatusCode.COMPLETED);
    assertThat(s.proxy().faultsInjected()).isEqualTo(3);
    // At least the three late answers timed out (a cold server may add one more).
    assertThat(
            registry
                .find(S3BackupStoreMetrics.REQUESTS)
                .tag("result", "transient_error")
                .timers()
                .stream()
                .mapToLong(t -> t.count())
                .sum())
        .isGreaterThanOrEqualTo(3);
    assertThat(
            registry.find(S3BackupStoreMetrics.RETRIES).counters().stream()
                .mapToDouble(c -> c.count())
                .sum())
        .isGreaterThanOrEqualTo(3);
    assertThat(await(s.direct().verify(backup.id())).isClean()).isTrue();
  }

  @Test
  void shouldNotCompleteABackupThatAnotherStoreMarkedFailedDuringItsSave() throws Exception {
    Setup s = setup(4, Duration.ofSeconds(20));
    byte[] content = new byte[300_000];
    new Random(SEED).nextBytes(content);
    try (FifoGate gate = FifoGate.create(dir.resolve("gate.log"))) {
      Backup backup =
          backup(
              new BackupIdentifier(1, 5, 1),
              NamedFileSet.empty(),
              NamedFileSet.of(new BackupFile("1.log", gate.path(), content.length)));
      CompletableFuture<BackupSaveResult> save = s.faulty().save(backup);
      gate.awaitReader(Duration.ofSeconds(60));

      // Another broker (its own store instance, so no shared lock) marks it failed.
      BackupStatus marked = await(s.direct().markFailed(backup.id(), "leader changed"));
      gate.write(content);

      assertThat(marked.statusCode()).isEqualTo(BackupStatusCode.FAILED);
      assertThatThrownBy(() -> await(save)).isInstanceOf(BackupMarkedFailedException.class);
      BackupStatus status = await(s.direct().getStatus(backup.id()));
      assertThat(status.statusCode()).isEqualTo(BackupStatusCode.FAILED);
      assertThat(status.failureReason()).contains("leader changed");
    }
  }
}
