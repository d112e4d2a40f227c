package io.cairn.httpendpoints;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.cairn.scheduler.SimClock;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Every request observed once, before its answer goes out, with operation, result, duration. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class RequestObserverTest {
  private record Seen(Optional<String> operation, String result, Duration duration) {}

  private final SimClock clock = new SimClock(0);
  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private LogCapture quiet;
  private TestServer server;

  @BeforeAll
  void start() {
    quiet = new LogCapture("io.cairn.httpendpoints.test.RequestObserverTest");
    server =
        new TestServer(
            Routes.of(
                Route.exact(
                    "GET",
                    "/slow",
                    "slow",
                    e -> {
                      clock.advance(Duration.ofMillis(5));
                      e.sendEmpty(204);
                    }),
                Route.exact("GET", "/items", "list", e -> e.sendJson(200, List.of())),
                Route.exact("POST", "/items", "add", e -> e.sendEmpty(201)),
                Route.exact(
                    "GET",
                    "/conflict",
                    "conflict",
                    e -> {
                      throw new Problem(409, "Expected a new id, but it exists");
                    }),
                Route.exact(
                    "GET",
                    "/fails",
                    "fails",
                    e -> {
                      throw new IllegalStateException("broken");
                    }),
                Route.exact(
                    "GET",
                    "/fails-after-answering",
                    "late",
                    e -> {
                      e.sendEmpty(204);
                      throw new IllegalStateException("broken after the answer");
                    })),
            settings ->
                settings
                    .logger(quiet.logger)
                    .observer(
                        clock,
                        (operation, result, duration) ->
                            seen.add(new Seen(operation, result, duration))));
  }

  @AfterAll
  void stop() {
    server.close();
    quiet.close();
  }

  @BeforeEach
  void forget() {
    seen.clear();
  }

  @Test
  void shouldObserveEveryRequestOnceBeforeItsAnswer() throws Exception {
    for (int i = 1; i <= 20; i++) {
      assertThat(server.get("/slow").statusCode()).isEqualTo(204);

      // whoever got the answer finds the request observed already, and once
      assertThat(seen).as("observed after answer %s", i).hasSize(i);
    }
    assertThat(seen)
        .containsOnly(new Seen(Optional.of("slow"), RequestObserver.OK, Duration.ofMillis(5)));
  }

  @Test
  void shouldObserveTheOperationAndResultOfEveryKindOfAnswer() throws Exception {
    server.get("/items");
    server.post("/items", "");
    server.get("/conflict");
    server.get("/fails");
    server.get("/nothing");
    server.send(HttpRequest.newBuilder(server.uri("/slow")).DELETE());
    server.send(HttpRequest.newBuilder(server.uri("/items")).DELETE());

    assertThat(seen)
        .extracting(Seen::operation, Seen::result)
        .containsExactly(
            tuple(Optional.of("list"), "ok"),
            tuple(Optional.of("add"), "ok"),
            tuple(Optional.of("conflict"), "http-409"),
            tuple(Optional.of("fails"), "internal"),
            tuple(Optional.empty(), "http-404"),
            // a wrong method on a path of one operation is that operation's
            tuple(Optional.of("slow"), "http-405"),
            tuple(Optional.empty(), "http-405"));
  }

  @Test
  void shouldObserveARequestWhoseHandlerFailsAfterAnsweringOnce() throws Exception {
    assertThat(server.get("/fails-after-answering").statusCode()).isEqualTo(204);

    assertThat(seen).containsExactly(new Seen(Optional.of("late"), "ok", Duration.ZERO));
  }
}
