package io.cairn.httpendpoints;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/** A real server on 127.0.0.1 (ephemeral port) with its own executor, and a client for it. */
final class TestServer implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  final EndpointServer server;
  private final ExecutorService executor = Executors.newFixedThreadPool(2);
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  TestServer(Routes routes, UnaryOperator<EndpointServer.Builder> settings) {
    server =
        settings
            .apply(
                EndpointServer.builder("test server", routes)
                    .bind("127.0.0.1", 0, "test.host/test.port")
                    .executor(executor))
            .build();
    server.start();
  }

  TestServer(Route... routes) {
    this(Routes.of(routes), settings -> settings);
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.address().getPort() + path);
  }

  HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
    return http.send(
        request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(path)).GET());
  }

  HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  static JsonNode json(HttpResponse<String> response) throws IOException {
    return JSON.readTree(response.body());
  }

  /** Checks the RFC 7807 shape of a problem answer and returns its detail. */
  static String problem(HttpResponse<String> response, int status, String path) throws IOException {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    JsonNode body = json(response);
    assertThat(body.properties())
        .extracting(java.util.Map.Entry::getKey)
        .containsExactly("type", "title", "status", "detail", "instance");
    assertThat(body.get("type").asText()).isEqualTo("about:blank");
    assertThat(body.get("title").asText()).isEqualTo(Problem.title(status));
    assertThat(body.get("status").asInt()).isEqualTo(status);
    assertThat(body.get("instance").asText()).isEqualTo(path);
    return body.get("detail").asText();
  }

  @Override
  public void close() {
    server.close();
    executor.shutdownNow();
    try {
      assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("Interrupted while the executor stopped", e);
    }
  }
}
