package io.cairn.broker.management;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.broker.BrokerHealth;
import io.cairn.broker.partition.PartitionHealthStatus;
import io.cairn.broker.partition.PartitionRole;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The broker's management endpoints over real HTTP, against a health the test sets. */
final class ManagementServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final BrokerHealth HEALTHY =
      new BrokerHealth(
          1,
          PartitionHealthStatus.HEALTHY,
          "",
          true,
          List.of(
              new BrokerHealth.Partition(
                  1, PartitionRole.LEADER, 3, PartitionHealthStatus.HEALTHY, "")));

  private final AtomicReference<BrokerHealth> health = new AtomicReference<>(HEALTHY);
  private final ExecutorService executor = Executors.newSingleThreadExecutor();
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private ManagementServer server;

  @BeforeEach
  void start() {
    server =
        ManagementServer.start(
            "127.0.0.1",
            0,
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
            health::get,
            executor,
            java.util.Optional.empty());
  }

  @AfterEach
  void stop() {
    server.close();
    executor.shutdownNow();
  }

  private HttpResponse<String> send(HttpRequest.Builder request)
      throws IOException, InterruptedException {
    return http.send(
        request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(path)).GET());
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.address().getPort() + path);
  }

  /** Checks an RFC 7807 problem and returns its detail. */
  private static String problem(HttpResponse<String> response, int status, String path)
      throws IOException {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    JsonNode body = JSON.readTree(response.body());
    assertThat(body.get("type").asText()).isEqualTo("about:blank");
    assertThat(body.get("status").asInt()).isEqualTo(status);
    assertThat(body.get("title").asText()).isNotBlank();
    assertThat(body.get("instance").asText()).isEqualTo(path);
    return body.get("detail").asText();
  }

  @Test
  void shouldAnswerHealthAndReadinessAsJson() throws Exception {
    HttpResponse<String> healthy = get("/health");
    assertThat(healthy.statusCode()).isEqualTo(200);
    assertThat(healthy.headers().firstValue("Content-Type"))
        .hasValue("application/json; charset=utf-8");
    assertThat(healthy.body()).isEqualTo(ManagementServer.healthJson(HEALTHY));

    HttpResponse<String> ready = get("/ready");
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(ready.body()).isEqualTo("{\"nodeId\":1,\"ready\":true,\"reason\":\"\"}");

    assertThat(get("/metrics").statusCode()).isEqualTo(200);
  }

  @Test
  void shouldAnswerServiceUnavailableWhenFailedOrNotReady() throws Exception {
    health.set(
        new BrokerHealth(
            1,
            PartitionHealthStatus.FAILED,
            "partition 1 FAILED: disk full",
            false,
            List.of(
                new BrokerHealth.Partition(
                    1, PartitionRole.INACTIVE, 3, PartitionHealthStatus.FAILED, "disk full"))));

    HttpResponse<String> failed = get("/health");
    assertThat(failed.statusCode()).isEqualTo(503);
    assertThat(JSON.readTree(failed.body()).get("status").asText()).isEqualTo("FAILED");

    HttpResponse<String> notReady = get("/ready");
    assertThat(notReady.statusCode()).isEqualTo(503);
    assertThat(JSON.readTree(notReady.body()).get("reason").asText())
        .isEqualTo("partition 1 FAILED: disk full; partition 1 is INACTIVE");
  }

  @Test
  void shouldAnswerAnotherPathAndAnotherMethodWithProblemDetails() throws Exception {
    assertThat(problem(get("/nothing"), 404, "/nothing"))
        .isEqualTo("Expected one of /metrics, /health, /ready, but was /nothing");

    HttpResponse<String> post =
        send(HttpRequest.newBuilder(uri("/ready")).POST(HttpRequest.BodyPublishers.noBody()));
    assertThat(problem(post, 405, "/ready"))
        .isEqualTo("Expected method GET on /ready, but was POST");
    assertThat(post.headers().firstValue("Allow")).hasValue("GET");
  }

  @Test
  void shouldAnswerInternalServerErrorWhenTheHealthCannotBeRead() throws Exception {
    health.set(null); // healthJson fails on it

    assertThat(problem(get("/health"), 500, "/health"))
        .startsWith("Expected GET /health to complete, but the broker failed: ");
  }

  @Test
  void shouldNameTheAddressAndTheKeysWhenThePortIsTaken() throws Exception {
    try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      assertThatThrownBy(
              () ->
                  ManagementServer.start(
                      "127.0.0.1",
                      busy.getLocalPort(),
                      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
                      health::get,
                      executor,
                      java.util.Optional.empty()))
          .isInstanceOf(UncheckedIOException.class)
          .hasMessageContaining("127.0.0.1:" + busy.getLocalPort())
          .hasMessageEndingWith("Free the port or change management.host/management.port");
    }
  }
}
