package io.cairn.backups3.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.backupapi.BackupStoreException;
import io.cairn.backups3.S3BackupStoreConfig;
import io.cairn.backups3.S3BackupStoreMetrics;
import io.cairn.backups3.client.S3Access;
import io.cairn.backups3.client.S3Calls;
import io.cairn.backups3.client.S3ClientFactory;
import io.cairn.backups3.layout.S3ObjectLayout;
import io.cairn.backups3.testserver.FaultInjectingProxy;
import io.cairn.backups3.testserver.FaultInjectingProxy.Request;
import io.cairn.backups3.testserver.LocalS3Servers;
import io.cairn.backups3.testserver.LocalS3Servers.Kind;
import io.cairn.pacing.Backoff;
import io.cairn.pacing.RateLimiter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * The transfer permits bound content requests on the wire, also when a reader is stopped while its
 * ranged GETs are still unanswered: the proxy holds every answer, the reader is stopped, and what
 * starts next must wait until those requests have really ended — and then gets every permit back.
 */
@ExtendWith(LocalS3Servers.class)
class TransferPermitsTest {

  private static final String BUCKET = "cairn-permits";
  private static final int RANGE_BYTES = 4096;
  private static final Duration WAIT = Duration.ofSeconds(30);

  /** Below the 30 s call timeout: a held answer reaches the client instead of timing out. */
  private static final Duration HOLD_AT_MOST = Duration.ofSeconds(20);

  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final List<AutoCloseable> closeables = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
    threads.shutdownNow();
    scheduler.shutdownNow();
  }

  @Test
  void shouldReturnAPermitOnceWhenItsRequestHasEndedNotWhenItsResultIsCancelled() {
    var calls =
        new S3Calls(
            1,
            new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(1)),
            scheduler,
            new S3BackupStoreMetrics(new SimpleMeterRegistry()));
    var transfers = new Transfers(null, RANGE_BYTES, RateLimiter.unlimited(), 1);
    var onTheWire = new CompletableFuture<String>();
    Supplier<S3Calls.Call<String>> unanswered =
        () -> calls.callTracked("GetObject", "s3://b/k", CompletableFuture::new);

    CompletableFuture<String> cancelled =
        transfers.tryStart(() -> calls.callTracked("GetObject", "s3://b/k", () -> onTheWire));
    assertThat(cancelled).isNotNull();
    cancelled.cancel(true);

    assertThat(transfers.tryStart(unanswered))
        .as("started while the cancelled request is on " + "the wire")
        .isNull();
    onTheWire.complete("late answer");
    assertThat(transfers.tryStart(unanswered)).isNotNull();
    assertThat(transfers.tryStart(unanswered)).as("a second permit from one request").isNull();
  }

  @Test
  void shouldKeepPermitsOfAStoppedReaderUntilItsRequestsHaveEnded() throws Exception {
    LocalS3Servers.Running server = LocalS3Servers.get(Kind.S3PROXY);
    server.createBucket(BUCKET);
    String basePath = "permits";
    String prefetched = basePath + "/contents/prefetched";
    String other = basePath + "/contents/other";
    byte[] otherBytes = put(server, other, RANGE_BYTES, 2);
    put(server, prefetched, 2 * RANGE_BYTES, 1);
    Predicate<Request> contentGets =
        r -> r.method().equals("GET") && r.path().contains("/" + basePath + "/contents/");
    var proxy =
        new FaultInjectingProxy(server.process().endpoint())
            .countConcurrent(contentGets)
            .holdAnswers(contentGets, HOLD_AT_MOST);
    closeables.add(proxy);
    S3BackupStoreConfig config =
        server.config(BUCKET, basePath).endpoint(proxy.endpoint()).maxConnections(4).build();
    int max = config.maxConcurrentTransfers();
    assertThat(max).isEqualTo(2);
    S3Access s3 = access(config);
    var transfers = new Transfers(s3, RANGE_BYTES, RateLimiter.unlimited(), max);

    // Given a reader with both ranges of its object on the wire, unanswered,
    var stopped = new CompletableFuture<Throwable>();
    Thread reading =
        new Thread(
            () -> {
              try (var reader =
                  new RangedObjectReader(transfers, prefetched, 2 * RANGE_BYTES, null, false)) {
                reader.read();
                stopped.complete(null);
              } catch (IOException | RuntimeException e) {
                stopped.complete(e);
              }
            },
            "permits-test-reader");
    reading.setDaemon(true);
    reading.start();
    await().atMost(WAIT).untilAsserted(() -> assertThat(proxy.heldAnswers()).isEqualTo(max));

    // when it is stopped (its wait cancelled, then closed) while they are still held,
    reading.interrupt();
    assertThat(stopped.get(WAIT.toSeconds(), TimeUnit.SECONDS))
        .isInstanceOf(BackupStoreException.class)
        .hasMessageContaining("interrupted");
    // and more transfers try to start: some at once if a permit is free, one waiting for one,
    List<CompletableFuture<byte[]>> started = new ArrayList<>();
    for (int i = 0; i < max; i++) {
      CompletableFuture<byte[]> get = transfers.tryStart(() -> get(s3, other));
      if (get != null) {
        started.add(get);
      }
    }
    CompletableFuture<byte[]> waiting =
        CompletableFuture.supplyAsync(
            () -> S3Calls.await(transfers.start(() -> get(s3, other)), "GetObject"), threads);
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> assertThat(proxy.heldAnswers()).isGreaterThanOrEqualTo(max + started.size()));

    // then no more content requests than permits were ever on the wire at once,
    assertThat(proxy.maxConcurrentCounted())
        .as("content GETs in flight at once while the stopped reader's answers were held")
        .isLessThanOrEqualTo(max);
    // and once the held answers arrive, what waited runs and every permit is back:
    proxy.releaseHeld();
    assertThat(waiting.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(otherBytes);
    for (CompletableFuture<byte[]> get : started) {
      assertThat(get.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(otherBytes);
    }
    proxy.holdAnswers(contentGets, HOLD_AT_MOST);
    List<CompletableFuture<byte[]>> full = new ArrayList<>();
    for (int i = 0; i < max; i++) {
      full.add(
          CompletableFuture.supplyAsync(
              () -> S3Calls.await(transfers.start(() -> get(s3, other)), "GetObject"), threads));
    }
    await()
        .atMost(WAIT)
        .untilAsserted(
            () ->
                assertThat(proxy.heldAnswers())
                    .as("content GETs in flight at once after the stopped reader's requests ended")
                    .isEqualTo(max));
    proxy.releaseHeld();
    for (CompletableFuture<byte[]> get : full) {
      assertThat(get.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(otherBytes);
    }
  }

  private S3Access access(S3BackupStoreConfig config) {
    S3AsyncClient client =
        S3ClientFactory.create(config, S3ClientFactory.credentials(config), scheduler);
    closeables.add(client);
    var metrics = new S3BackupStoreMetrics(new SimpleMeterRegistry());
    var calls =
        new S3Calls(
            config.maxAttempts(),
            new Backoff(config.retryBackoff(), config.retryBackoffMax()),
            scheduler,
            metrics);
    return new S3Access(
        client,
        new S3ObjectLayout(config.bucket(), config.basePath()),
        calls,
        Optional.empty(),
        false,
        Optional.empty(),
        metrics);
  }

  private static S3Calls.Call<byte[]> get(S3Access s3, String key) {
    return s3.calls()
        .callTracked(
            "GetObject",
            s3.url(key),
            () ->
                s3.client()
                    .getObject(s3.get(key).build(), AsyncResponseTransformer.toBytes())
                    .thenApply(ResponseBytes::asByteArray));
  }

  private static byte[] put(LocalS3Servers.Running server, String key, int sizeBytes, long seed)
      throws Exception {
    byte[] bytes = new byte[sizeBytes];
    new Random(seed).nextBytes(bytes);
    server
        .client()
        .putObject(
            PutObjectRequest.builder().bucket(BUCKET).key(key).build(),
            AsyncRequestBody.fromBytes(bytes))
        .get(WAIT.toSeconds(), TimeUnit.SECONDS);
    return bytes;
  }
}
