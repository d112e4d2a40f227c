package io.cairn.httpendpoints;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * An interceptor runs in place of every matched handler: it may answer itself (a 401 with its own
 * header, the handler never runs), or run the handler and see how the request ended.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class RouteInterceptorTest {
  private record Seen(String operation, String remote, int status, String problem) {}

  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private final AtomicInteger handled = new AtomicInteger();
  private LogCapture quiet;
  private TestServer server;

  @BeforeAll
  void start() {
    quiet = new LogCapture("io.cairn.httpendpoints.test.RouteInterceptorTest");
    server =
        new TestServer(
            Routes.of(
                Route.exact("GET", "/open", "open", e -> count(e, 200)),
                Route.exact("POST", "/closed", "closed", e -> count(e, 204)),
                Route.exact(
                    "GET",
                    "/conflict",
                    "conflict",
                    e -> {
                      handled.incrementAndGet();
                      throw new Problem(409, "Expected a new id, but it exists");
                    })),
            settings -> settings.logger(quiet.logger).interceptor(this::intercept));
  }

  private void count(Exchange exchange, int status) throws java.io.IOException {
    handled.incrementAndGet();
    if (status == 204) {
      exchange.sendEmpty(status);
    } else {
      exchange.sendJson(status, Map.of("ok", true));
    }
  }

  /** Refuses {@code closed} without the header; records how every request ended. */
  private void intercept(Exchange exchange, Route route) throws java.io.IOException {
    String remote = exchange.remoteAddress().getAddress().getHostAddress();
    if (route.operation().equals("closed") && exchange.requestHeader("Authorization") == null) {
      seen.add(new Seen(route.operation(), remote, 401, "refused"));
      exchange.header("WWW-Authenticate", "ApiKey");
      throw new Problem(401, "Expected credentials, but there are none");
    }
    try {
      route.handler().handle(exchange);
      seen.add(new Seen(route.operation(), remote, exchange.status(), null));
    } catch (Problem problem) {
      seen.add(new Seen(route.operation(), remote, problem.status(), problem.getMessage()));
      throw problem;
    }
  }

  @AfterAll
  void stop() {
    server.close();
    quiet.close();
  }

  @BeforeEach
  void clear() {
    seen.clear();
    handled.set(0);
  }

  @Test
  void shouldAnswerTheInterceptorsProblemWithItsHeaderWithoutRunningTheHandler() throws Exception {
    var response = server.post("/closed", "");

    assertThat(TestServer.problem(response, 401, "/closed"))
        .isEqualTo("Expected credentials, but there are none");
    assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("ApiKey");
    assertThat(handled).hasValue(0);
    assertThat(seen).containsExactly(new Seen("closed", "127.0.0.1", 401, "refused"));
  }

  @Test
  void shouldRunTheHandlerAndLetTheInterceptorSeeTheAnswer() throws Exception {
    var open = server.get("/open");
    var closed =
        server.send(
            HttpRequest.newBuilder(server.uri("/closed"))
                .header("Authorization", "ApiKey x")
                .POST(HttpRequest.BodyPublishers.noBody()));

    assertThat(open.statusCode()).isEqualTo(200);
    assertThat(closed.statusCode()).isEqualTo(204);
    assertThat(handled).hasValue(2);
    // the interceptor records an answer after the handler sent it: the client may read it first
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    while (seen.size() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(seen)
        .containsExactly(
            new Seen("open", "127.0.0.1", 200, null), new Seen("closed", "127.0.0.1", 204, null));
  }

  @Test
  void shouldLetTheInterceptorSeeTheHandlersProblem() throws Exception {
    var response = server.get("/conflict");

    assertThat(TestServer.problem(response, 409, "/conflict"))
        .isEqualTo("Expected a new id, but it exists");
    assertThat(seen)
        .containsExactly(
            new Seen("conflict", "127.0.0.1", 409, "Expected a new id, but it exists"));
  }

  @Test
  void shouldNotInterceptWhatTheRoutingTableAnswers() throws Exception {
    assertThat(server.get("/nothing").statusCode()).isEqualTo(404);
    assertThat(server.get("/closed").statusCode()).isEqualTo(405);

    assertThat(seen).isEmpty();
    assertThat(handled).hasValue(0);
  }
}
