package io.cairn.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.cairn.backups3.S3BackupStore;
import io.cairn.backups3.S3BackupStoreConfig;
import io.cairn.backups3.S3BackupStoreStartException;
import io.cairn.scheduler.SimClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

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

  /** Records each wait instead of sleeping; never stopped. */
  private BackupStores.Patience patience(Duration limit) {
    return new BackupStores.Patience(
        limit,
        delay -> {
          waits.add(delay);
          return false;
        });
  }

  @Test
  void shouldTryAgainWhileTheServerFailsThenGiveUpNamingTheTries() throws IOException {
    // given a server that answers 503 to everything
    URI endpoint = serverAnswering(503, "ServiceUnavailable");

    // when the start waits at most 5 s (the waits are recorded, not slept; each try itself takes
    // real time, which counts too)
    assertThatThrownBy(
            () -> BackupStores.untilAnswered(() -> open(endpoint), patience(Duration.ofSeconds(5))))
        .isInstanceOf(BackupStoreOpenException.class)
        .hasMessageContaining("Expected to open the S3 backup store, but")
        .hasMessageContaining("503")
        .hasMessageContaining("the start tried " + (waits.size() + 1) + " times")
        .hasMessageContaining("backup.s3.*");

    // then it tried again after 1 s, then after twice as long, and each try reached the server
    assertThat(waits).isNotEmpty().startsWith(Duration.ofSeconds(1));
    assertThat(waits.size()).isLessThanOrEqualTo(2); // 1 s + 2 s + 4 s would pass the 5 s
    assertThat(requests.get()).isEqualTo(waits.size() + 1);
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
                    new BackupStores.Patience(Duration.ofMinutes(2), delay -> true)))
        .isInstanceOf(BackupStoreOpenException.class)
        .hasMessageStartingWith("Stopped while waiting for the S3 backup store to answer")
        .hasMessageContaining("500");
    assertThat(requests.get()).isEqualTo(1);
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
