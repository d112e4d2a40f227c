package io.cairn.backups3.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backupapi.BackupDescriptor;
import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupStatusCode;
import io.cairn.backupapi.manifest.Manifest;
import io.cairn.backupapi.manifest.ManifestCodec;
import io.cairn.backups3.S3BackupStoreConfig;
import io.cairn.backups3.S3BackupStoreMetrics;
import io.cairn.backups3.client.S3Access;
import io.cairn.backups3.client.S3Calls;
import io.cairn.backups3.client.S3ClientFactory;
import io.cairn.backups3.layout.S3ObjectLayout;
import io.cairn.backups3.testserver.FaultInjectingProxy;
import io.cairn.backups3.testserver.FaultInjectingProxy.Fault;
import io.cairn.backups3.testserver.FaultInjectingProxy.FaultPlan;
import io.cairn.backups3.testserver.LocalS3Servers;
import io.cairn.backups3.testserver.LocalS3Servers.Kind;
import io.cairn.pacing.Backoff;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * Manifest state changes on real servers: a create never overwrites, a replace never lands on a
 * manifest that changed since it was read — with conditional writes (the server decides) and
 * without (read-check-write in this process) — and a write whose response was lost is recognised as
 * our own on retry.
 */
@ExtendWith(LocalS3Servers.class)
class ManifestObjectsTest {

  private static final String BUCKET = "cairn-manifests";
  private static final AtomicInteger PATHS = new AtomicInteger();
  private static final Instant T0 = Instant.parse("2025-03-01T10:00:00Z");

  private final ScheduledExecutorService scheduler = new ScheduledThreadPoolExecutor(1);
  private S3AsyncClient client;
  private S3Calls calls;

  @AfterEach
  void close() {
    if (client != null) {
      client.close();
    }
    scheduler.shutdownNow();
  }

  private ManifestObjects manifests(Kind kind, URI endpoint, boolean conditional) {
    LocalS3Servers.Running server = LocalS3Servers.get(kind);
    server.createBucket(BUCKET);
    S3BackupStoreConfig config =
        server
            .config(BUCKET, "manifests-" + PATHS.incrementAndGet())
            .endpoint(endpoint == null ? server.process().endpoint() : endpoint)
            .build();
    client = S3ClientFactory.create(config, S3ClientFactory.credentials(config), scheduler);
    var metrics = new S3BackupStoreMetrics(new SimpleMeterRegistry());
    calls =
        new S3Calls(
            config.maxAttempts(),
            new Backoff(config.retryBackoff(), config.retryBackoffMax()),
            scheduler,
            metrics);
    var s3 =
        new S3Access(
            client,
            new S3ObjectLayout(BUCKET, config.basePath()),
            calls,
            Optional.empty(),
            false,
            Optional.empty(),
            metrics);
    return new ManifestObjects(s3, new ManifestCodec(), conditional, "writer-a");
  }

  static java.util.stream.Stream<Arguments> serversAndModes() {
    return java.util.stream.Stream.of(Kind.values())
        .flatMap(
            kind ->
                java.util.stream.Stream.of(Arguments.of(kind, true), Arguments.of(kind, false)));
  }

  private static Manifest inProgress(BackupIdentifier id) {
    return Manifest.inProgress(
        new BackupDescriptor(
            id.checkpointId(),
            id.partitionId(),
            id.nodeId(),
            10,
            Optional.empty(),
            3,
            "0.1.0",
            "00aa",
            0,
            0),
        T0);
  }

  @ParameterizedTest(name = "{0}, conditional {1}")
  @MethodSource("serversAndModes")
  void shouldNeverOverwriteAnExistingManifestOnCreate(Kind kind, boolean conditional) {
    ManifestObjects manifests = manifests(kind, null, conditional);
    BackupIdentifier id = new BackupIdentifier(0, 1, 1);
    Manifest first = inProgress(id);

    assertThat(manifests.create(first, calls)).isTrue();
    assertThat(manifests.create(Manifest.failedWithoutDescriptor(id, "late", T0), calls)).isFalse();

    assertThat(manifests.read(id).orElseThrow().manifest()).isEqualTo(first);
  }

  @ParameterizedTest(name = "{0}, conditional {1}")
  @MethodSource("serversAndModes")
  void shouldRefuseReplacingAManifestThatChangedSinceItWasRead(Kind kind, boolean conditional) {
    ManifestObjects manifests = manifests(kind, null, conditional);
    BackupIdentifier id = new BackupIdentifier(0, 1, 2);
    manifests.create(inProgress(id), calls);
    ManifestObjects.Stored seenBySave = manifests.read(id).orElseThrow();

    // Another writer marks it failed after the save read it ...
    Manifest failed = seenBySave.manifest().fail("leader changed", T0.plusSeconds(5));
    assertThat(manifests.replace(failed, seenBySave.etag(), calls)).isTrue();
    // ... so the save's completion, based on the stale read, must not land.
    Manifest completed =
        seenBySave
            .manifest()
            .complete(
                java.util.List.of(),
                java.util.List.of(),
                java.util.Optional.empty(),
                T0.plusSeconds(6));
    assertThat(manifests.replace(completed, seenBySave.etag(), calls)).isFalse();

    Manifest stored = manifests.read(id).orElseThrow().manifest();
    assertThat(stored.status()).isEqualTo(BackupStatusCode.FAILED);
    assertThat(stored.failureReason()).contains("leader changed");
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void shouldRecogniseItsOwnWriteWhenTheResponseWasLost(Kind kind) throws Exception {
    LocalS3Servers.Running server = LocalS3Servers.get(kind);
    try (var proxy = new FaultInjectingProxy(server.process().endpoint())) {
      ManifestObjects manifests = manifests(kind, proxy.endpoint(), true);
      BackupIdentifier id = new BackupIdentifier(0, 1, 3);
      proxy.plan(FaultPlan.first(2, r -> r.method().equals("PUT"), Fault.DROP_RESPONSE));

      assertThat(manifests.create(inProgress(id), calls)).isTrue();
      ManifestObjects.Stored stored = manifests.read(id).orElseThrow();
      Manifest failed = stored.manifest().fail("disk full", T0.plusSeconds(1));
      assertThat(manifests.replace(failed, stored.etag(), calls)).isTrue();

      assertThat(proxy.faultsInjected()).isEqualTo(2);
      assertThat(proxy.requests()).filteredOn(r -> r.method().equals("PUT")).hasSize(4);
      assertThat(manifests.read(id).orElseThrow().manifest()).isEqualTo(failed);
    }
  }
}
