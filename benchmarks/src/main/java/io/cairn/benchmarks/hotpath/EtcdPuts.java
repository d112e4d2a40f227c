package io.cairn.benchmarks.hotpath;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * etcd puts through each member's v3 HTTP/JSON gateway ({@code POST /v3/kv/put} with {@code {"key":
 * base64, "value": base64}}), call {@code n} to member {@code n mod 3} (a follower forwards to the
 * leader, as Cairn's gateway forwards to partition leaders). Keys {@code hp/<index>} over as many
 * keys as Cairn has accounts, values of {@value #VALUE_BYTES} random bytes (about the size of a
 * deposit command). HTTP/1.1 with keep-alive: the client opens one connection per call in flight
 * and reuses it.
 */
final class EtcdPuts implements Workload, AutoCloseable {

  /** About a deposit command's size in Cairn's log. */
  static final int VALUE_BYTES = 100;

  private final HttpClient http;
  private final ExecutorService executor;
  private final List<URI> putUrls;
  private final byte[][] bodies;
  private final Duration requestTimeout;

  EtcdPuts(List<URI> clientUrls, int keys, Duration requestTimeout, long seed) {
    // a small fixed pool for the client's callbacks (the default executor is unbounded)
    executor =
        Executors.newFixedThreadPool(
            2,
            runnable -> {
              Thread thread = new Thread(runnable, "etcd-client");
              thread.setDaemon(true);
              return thread;
            });
    http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .executor(executor)
            .build();
    putUrls = clientUrls.stream().map(url -> url.resolve("/v3/kv/put")).toList();
    this.requestTimeout = requestTimeout;
    SplittableRandom random = new SplittableRandom(seed);
    Base64.Encoder base64 = Base64.getEncoder();
    bodies = new byte[keys][];
    for (int i = 0; i < keys; i++) {
      byte[] value = new byte[VALUE_BYTES];
      random.nextBytes(value);
      String key = base64.encodeToString(("hp/" + i).getBytes(StandardCharsets.UTF_8));
      bodies[i] =
          ("{\"key\":\"" + key + "\",\"value\":\"" + base64.encodeToString(value) + "\"}")
              .getBytes(StandardCharsets.US_ASCII);
    }
  }

  @Override
  public String side() {
    return "etcd";
  }

  @Override
  public String name() {
    return "put";
  }

  @Override
  public CompletableFuture<?> send(long sequence) {
    HttpRequest request =
        HttpRequest.newBuilder(putUrls.get((int) (sequence % putUrls.size())))
            .timeout(requestTimeout)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(bodies[(int) (sequence % bodies.length)]))
            .build();
    return http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
        .thenApply(
            response -> {
              // a put answers {"header": {...}}; errors come as {"error": ..., "code": ...}
              if (response.statusCode() != 200 || !response.body().contains("\"header\"")) {
                throw new EtcdHttpException(response.statusCode(), abbreviate(response.body()));
              }
              return response;
            });
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }

  private static String abbreviate(String body) {
    return body.length() <= 200 ? body : body.substring(0, 200) + "...";
  }
}
