package io.cairn.backups3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backups3.testserver.FaultInjectingProxy;
import io.cairn.backups3.testserver.LocalS3Servers;
import io.cairn.backups3.testserver.LocalS3Servers.Kind;
import io.cairn.backups3.testserver.S3ServerProcess;
import io.cairn.scheduler.Clock;
import io.cairn.scheduler.SimClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Start-up against real servers: a wrong bucket, wrong credentials and an unreachable endpoint each
 * fail with the key to fix, and a listing the server fails is reported as the server's error;
 * conditional-write support is detected by asking the server.
 */
@ExtendWith(LocalS3Servers.class)
class S3StartupTest {

  private static final String BUCKET = "cairn-startup";
  private static final Clock CLOCK =
      new SimClock(Instant.parse("2025-03-01T10:00:00Z").toEpochMilli());

  private final ExecutorService executor = Executors.newFixedThreadPool(2);

  @AfterEach
  void stopExecutor() {
    executor.shutdownNow();
  }

  private static LocalS3Servers.Running server(Kind kind) {
    LocalS3Servers.Running server = LocalS3Servers.get(kind);
    server.createBucket(BUCKET);
    return server;
  }

  private S3BackupStore open(S3BackupStoreConfig config) {
    return S3BackupStore.open(config, CLOCK, executor, executor, new SimpleMeterRegistry());
  }

  @Test
  void shouldNameTheBucketKeyWhenTheBucketDoesNotExist() {
    var config = server(Kind.S3PROXY).config("no-such-bucket", "").build();

    assertThatThrownBy(() -> open(config))
        .isInstanceOfSatisfying(
            S3BackupStoreStartException.class, e -> assertThat(e.configKey()).isEqualTo("bucket"))
        .hasMessageContaining("Expected bucket 'no-such-bucket' to exist")
        .hasMessageContaining("key bucket");
  }

  @Test
  void shouldNameTheCredentialKeysWhenTheServerRefusesThem() {
    var config =
        server(Kind.S3PROXY)
            .config(BUCKET, "")
            .credentials(S3ServerProcess.ACCESS_KEY, "not-the-secret")
            .build();

    assertThatThrownBy(() -> open(config))
        .isInstanceOfSatisfying(
            S3BackupStoreStartException.class,
            e -> assertThat(e.configKey()).isEqualTo("accessKeyId"))
        .hasMessageContaining("403")
        .hasMessageContaining("key accessKeyId and secretAccessKey")
        .hasMessageNotContaining("not-the-secret");
  }

  @Test
  void shouldNameTheEndpointKeyWhenNothingAnswers() throws Exception {
    // A port bound by this test but not listening: connections are refused, and no other
    // process can start listening on it while the test runs.
    try (Socket reserved = new Socket()) {
      reserved.setReuseAddress(false);
      reserved.bind(new InetSocketAddress("127.0.0.1", 0));
      int closedPort = reserved.getLocalPort();
      var config =
          server(Kind.S3PROXY)
              .config(BUCKET, "")
              .endpoint(URI.create("http://127.0.0.1:" + closedPort))
              .maxAttempts(2)
              // bounds each connection attempt should one go unanswered instead of refused
              .apiCallTimeout(Duration.ofSeconds(2))
              .build();

      assertThatThrownBy(() -> open(config))
          .isInstanceOfSatisfying(
              S3BackupStoreStartException.class,
              e -> assertThat(e.configKey()).isEqualTo("endpoint"))
          .hasMessageContaining("http://127.0.0.1:" + closedPort + " to answer")
          .hasMessageContaining("after 2 attempts")
          .hasMessageContaining("key endpoint");
    }
  }

  @Test
  void shouldReportAListingTheServerFailsAsTheServersErrorNotASetting() throws Exception {
    LocalS3Servers.Running server = server(Kind.S3MOCK);
    try (var proxy =
        new FaultInjectingProxy(server.process().endpoint())
            .refuse(
                request ->
                    request.query().contains("list-type")
                        ? Optional.of(
                            new FaultInjectingProxy.Refusal(500, "InternalError", "listing failed"))
                        : Optional.empty())) {
      var config = server.config(BUCKET, "failing").endpoint(proxy.endpoint()).maxAttempts(2);

      assertThatThrownBy(() -> open(config.build()))
          .isInstanceOfSatisfying(
              S3BackupStoreStartException.class,
              e -> {
                assertThat(e.configKey()).as("the key to fix").isNull();
                assertThat(e.isTransient()).as("tried again at start").isTrue();
              })
          .hasMessageContaining("Expected the server to list bucket '" + BUCKET + "'")
          .hasMessageContaining("500")
          .hasMessageContaining("after 2 attempts")
          .hasMessageContaining("an error on the server's side")
          .hasMessageContaining("not a wrong setting")
          .hasMessageNotContaining("key endpoint")
          .hasMessageNotContaining("S3-compatible");
    }
  }

  @Test
  void shouldDetectConditionalWritesOnBothServers() {
    for (Kind kind : Kind.values()) {
      try (S3BackupStore store = open(server(kind).config(BUCKET, "detect").build())) {
        assertThat(store.usesConditionalWrites()).as("%s honours conditions", kind).isTrue();
      }
    }
  }

  @Test
  void shouldFallBackWhenTheServerIgnoresConditionsAndRefuseWhenTheyAreRequired() throws Exception {
    // S3Mock checks no signatures, so a proxy may drop the condition headers on their way.
    LocalS3Servers.Running server = server(Kind.S3MOCK);
    try (var proxy =
        new FaultInjectingProxy(server.process().endpoint())
            .stripRequestHeaders(Set.of("If-Match", "If-None-Match"))) {
      var config = server.config(BUCKET, "ignored").endpoint(proxy.endpoint());

      try (S3BackupStore store = open(config.build())) {
        assertThat(store.usesConditionalWrites()).isFalse();
      }
      assertThatThrownBy(() -> open(config.conditionalWrites(ConditionalWrites.REQUIRED).build()))
          .isInstanceOfSatisfying(
              S3BackupStoreStartException.class,
              e -> assertThat(e.configKey()).isEqualTo("conditionalWrites"))
          .hasMessageContaining("If-None-Match on an existing object: accepted");
    }
  }

  @Test
  void shouldSkipTheProbeWhenConditionalWritesAreDisabled() {
    try (S3BackupStore store =
        open(
            server(Kind.S3PROXY)
                .config(BUCKET, "off")
                .conditionalWrites(ConditionalWrites.DISABLED)
                .build())) {
      assertThat(store.usesConditionalWrites()).isFalse();
    }
  }

  @Test
  void shouldRemoveTheProbeObject() {
    LocalS3Servers.Running server = server(Kind.S3PROXY);
    try (S3BackupStore store = open(server.config(BUCKET, "probe-clean").build())) {
      assertThat(store.usesConditionalWrites()).isTrue();
    }
    assertThat(
            new io.cairn.backups3.testserver.RawObjects(server.client(), BUCKET)
                .keys("probe-clean/"))
        .isEmpty();
  }
}
