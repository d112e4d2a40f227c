package io.cairn.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.cairn.backups3.S3BackupStore;
import io.cairn.backups3.S3BackupStoreConfig;
import io.cairn.backups3.S3BackupStoreStartException;
import io.cairn.broker.config.BrokerConfig;
import io.cairn.scheduler.SimClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker's start against an S3 server that answers with errors (a real HTTP server on loopback,
 * through the real S3 client): it tries again while the server fails, for a bounded time, and stops
 * at once on an answer about its settings.
 */
class BackupStoresStartTest {

  private final ExecutorService executor = Executors.newFixedThreadPool(2);
  private final AtomicInteger requests = new AtomicInteger();
  private final List<Duration> waits = new ArrayList<>();
  private HttpServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
    executor.shutdownNow();
  }

  /** A server that answers every request with {@code status} and an S3 error document. */
  private URI serverAnswering(int status, String code) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          requests.incrementAndGet();
          exchange.getRequestBody().readAllBytes();
          byte[] body =
              ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>"
                      + code
                      + "</Code><Message>answered by the test</Message></Error>")
                  .getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/xml");
          exchange.sendResponseHeaders(status, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  private S3BackupStore open(URI endpoint) {
    S3BackupStoreConfig config =
        S3BackupStoreConfig.builder("cairn-backups")
            .region("us-east-1")
            .endpoint(endpoint)
            .pathStyleAccess(true)
            .credentials("test-access", "test-secret")
            .maxAttempts(1)
            .apiCallTimeout(Duration.ofSeconds(5))
            .build();
    return S3BackupStore.open(
        config, new SimClock(0), executor, executor, new SimpleMeterRegistry());
  }

  /**
   * Records each wait instead of sleeping, on a clock that only the waits move (a try takes no time
   * on it); never stopped.
   */
  private BackupStores.Patience patience(Duration limit) {
    AtomicLong nanos = new AtomicLong();
    return new BackupStores.Patience(
        limit,
        nanos::get,
        delay -> {
          if (!delay.isZero()) {
            waits.add(delay);
            nanos.addAndGet(delay.toNanos());
          }
          return false;
        });
  }

  @Test
  void shouldTryAgainWhileTheServerFailsThenGiveUpNamingTheTries() throws IOException {
    // given a server that answers 503 to everything
    URI endpoint = serverAnswering(503, "ServiceUnavailable");

    // when the start starts no try more than 5 s after the first
    assertThatThrownBy(
            () -> BackupStores.untilAnswered(() -> open(endpoint), patience(Duration.ofSeconds(5))))
        .isInstanceOf(BackupStoreOpenException.class)
        .hasMessageContaining("Expected to open the S3 backup store, but")
        .hasMessageContaining("503")
        .hasMessageContaining("the start tried 3 times in 3 s")
        // the server failed: no setting is named
        .hasMessageContaining("not a wrong setting")
        .hasMessageNotContaining("backup.s3.*");

    // then it tried three times, waiting 1 s and 2 s (after 3 s, a wait of 4 s would pass 5 s)
    assertThat(waits).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    assertThat(requests.get()).isEqualTo(3);
  }

  @Test
  void shouldStopAtOnceWhenTheServerRefusesTheCredentials() throws IOException {
    // given a server that refuses every request
    URI endpoint = serverAnswering(403, "AccessDenied");

    // when / then: one try, no wait, the key to fix named
    assertThatThrownBy(
            () -> BackupStores.untilAnswered(() -> open(endpoint), patience(Duration.ofMinutes(2))))
        .isInstanceOf(BackupStoreOpenException.class)
        .hasMessageContaining("key accessKeyId")
        .hasMessageNotContaining("the start tried");
    assertThat(waits).isEmpty();
    assertThat(requests.get()).isEqualTo(1);
  }

  @Test
  void shouldOpenOnceTheServerAnswersAgain() throws IOException {
    // given the start-up failure a server answering 503 causes
    URI endpoint = serverAnswering(503, "SlowDown");
    S3BackupStoreStartException unavailable =
        (S3BackupStoreStartException) catchStart(() -> open(endpoint));
    assertThat(unavailable.isTransient()).isTrue();

    // when the store fails to open twice like that, then opens
    AtomicInteger tries = new AtomicInteger();
    String opened =
        BackupStores.untilAnswered(
            () -> {
              if (tries.incrementAndGet() <= 2) {
                throw unavailable;
              }
              return "opened";
            },
            patience(Duration.ofMinutes(2)));

    // then the start went on after two waits
    assertThat(opened).isEqualTo("opened");
    assertThat(waits).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
  }

  @Test
  void shouldGiveUpWhenTheBrokerIsStoppedWhileWaiting() throws IOException {
    URI endpoint = serverAnswering(500, "InternalError");

    assertThatThrownBy(
            () ->
                BackupStores.untilAnswered(
                    () -> open(endpoint),
                    new BackupStores.Patience(
                        Duration.ofMinutes(2), System::nanoTime, delay -> true)))
        .isInstanceOf(BackupStoreOpenException.class)
        .hasMessageStartingWith("Stopped while waiting for the S3 backup store to answer")
        .hasMessageContaining("500");
    assertThat(requests.get()).isEqualTo(1);
  }

  @Test
  void shouldLetABrokerStoppedWhileItsStartWaitsForTheStoreClose(@TempDir Path directory)
      throws Exception {
    // given a broker whose S3 store answers 503 to everything, starting
    URI endpoint = serverAnswering(503, "ServiceUnavailable");
    BrokerConfig config =
        BrokerTestCluster.builder(directory)
            .alone()
            .partitions(1)
            .env(
                Map.of(
                    "CAIRN_BACKUP_STORE", "s3",
                    "CAIRN_BACKUP_S3_BUCKET", "cairn-backups",
                    "CAIRN_BACKUP_S3_REGION", "us-east-1",
                    "CAIRN_BACKUP_S3_ENDPOINT", endpoint.toString(),
                    "CAIRN_BACKUP_S3_PATHSTYLEACCESS", "true",
                    "CAIRN_BACKUP_S3_ACCESSKEYID", "test-access",
                    "CAIRN_BACKUP_S3_SECRETACCESSKEY", "test-secret",
                    "CAIRN_BACKUP_S3_MAXATTEMPTS", "1"))
            .config(0);
    Broker broker = Broker.open(config);
    CompletableFuture<Void> start = CompletableFuture.runAsync(broker::start, executor);
    await().atMost(Duration.ofSeconds(30)).until(() -> requests.get() >= 1);
    assertThat(start).isNotDone(); // it waits to try again

    // when it is stopped
    long stoppedAt = System.nanoTime();
    broker.close();

    // then the start gave up at once instead of waiting out its patience, and the broker closed
    assertThat(Duration.ofNanos(System.nanoTime() - stoppedAt)).isLessThan(Duration.ofSeconds(20));
    assertThatThrownBy(() -> start.get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(BackupStoreOpenException.class)
        .hasMessageStartingWith("Stopped while waiting for the S3 backup store to answer");
    assertThat(broker.isStopRequested()).isTrue();
    assertThat(broker.isClosed()).isTrue();
  }

  private static RuntimeException catchStart(Runnable start) {
    try {
      start.run();
    } catch (RuntimeException e) {
      return e;
    }
    throw new AssertionError("Expected the start to fail");
  }
}
