package io.cairn.httpendpoints;

import static io.cairn.httpendpoints.TestServer.json;
import static io.cairn.httpendpoints.TestServer.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The routing table over real HTTP: exact paths, patterns, 404 listing the paths, 405 + Allow. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class RoutingTest {
  private TestServer server;

  @BeforeAll
  void start() {
    server =
        new TestServer(
            Route.exact("GET", "/health", "health", e -> e.sendJson(200, Map.of("status", "UP"))),
            Route.exact("GET", "/items", "list", e -> e.sendJson(200, List.of("a", "b"))),
            Route.exact("POST", "/items", "add", e -> e.sendEmpty(201)),
            Route.pattern(
                "GET",
                "/items/(?<id>[^/]*)",
                "/items/{id}",
                "get",
                e -> e.sendText(200, "text/plain; charset=utf-8", "item " + e.pathParameter("id"))),
            Route.pattern(
                "DELETE", "/items/(?<id>[^/]*)", "/items/{id}", "delete", e -> e.sendEmpty(204)),
            Route.exact(List.of("PUT", "PATCH"), "/settings", "settings", e -> e.sendEmpty(204)));
  }

  @AfterAll
  void stop() {
    server.close();
  }

  @Test
  void shouldAnswerEachRouteWithItsHandler() throws Exception {
    HttpResponse<String> health = server.get("/health");
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(json(health).get("status").asText()).isEqualTo("UP");

    assertThat(server.get("/items").body()).isEqualTo("[\"a\",\"b\"]");
    assertThat(server.post("/items", "x").statusCode()).isEqualTo(201);

    HttpResponse<String> item = server.get("/items/42");
    assertThat(item.statusCode()).isEqualTo(200);
    assertThat(item.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
    assertThat(item.body()).isEqualTo("item 42");

    HttpResponse<String> deleted =
        server.send(HttpRequest.newBuilder(server.uri("/items/42")).DELETE());
    assertThat(deleted.statusCode()).isEqualTo(204);
    assertThat(deleted.body()).isEmpty();

    assertThat(
            server
                .send(
                    HttpRequest.newBuilder(server.uri("/settings"))
                        .method("PATCH", HttpRequest.BodyPublishers.noBody()))
                .statusCode())
        .isEqualTo(204);
  }

  @Test
  void shouldMatchAPatternOnTheWholePathOnly() throws Exception {
    assertThat(server.get("/items/").body()).isEqualTo("item ");
    assertThat(problem(server.get("/items/4/2"), 404, "/items/4/2")).endsWith("but was /items/4/2");
    assertThat(problem(server.get("/health/more"), 404, "/health/more"))
        .endsWith("but was /health/more");
  }

  @Test
  void shouldAnswerNotFoundListingEveryKnownPathOnce() throws Exception {
    HttpResponse<String> response = server.get("/nothing/here");

    assertThat(problem(response, 404, "/nothing/here"))
        .isEqualTo(
            "Expected one of /health, /items, /items/{id}, /settings, but was /nothing/here");
    assertThat(response.headers().firstValue("Allow")).isEmpty();
  }

  @Test
  void shouldAnswerMethodNotAllowedWithTheMethodsOfEveryRouteOnThePath() throws Exception {
    HttpResponse<String> put =
        server.send(
            HttpRequest.newBuilder(server.uri("/items"))
                .PUT(HttpRequest.BodyPublishers.ofString("{}")));
    assertThat(problem(put, 405, "/items"))
        .isEqualTo("Expected method GET or POST on /items, but was PUT");
    assertThat(put.headers().firstValue("Allow")).hasValue("GET, POST");

    HttpResponse<String> post = server.post("/items/7", "");
    assertThat(problem(post, 405, "/items/7"))
        .isEqualTo("Expected method GET or DELETE on /items/7, but was POST");
    assertThat(post.headers().firstValue("Allow")).hasValue("GET, DELETE");

    HttpResponse<String> get = server.get("/settings");
    assertThat(problem(get, 405, "/settings"))
        .isEqualTo("Expected method PUT or PATCH on /settings, but was GET");
    assertThat(get.headers().firstValue("Allow")).hasValue("PUT, PATCH");
  }

  @Test
  void shouldRefuseATableWithoutRoutesOrARouteWithoutMethods() {
    assertThatThrownBy(() -> Routes.of()).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Route.exact(List.of(), "/x", "x", e -> e.sendEmpty(204)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Route.exact("get", "/x", "x", e -> e.sendEmpty(204)))
        .hasMessage("Expected HTTP methods in upper case, but was 'get'");
  }
}
