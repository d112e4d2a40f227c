package io.cairn.httpendpoints;

import static io.cairn.httpendpoints.TestServer.problem;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Errors as RFC 7807 problem details: thrown problems, the body limit, unexpected failures. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class ProblemAnswersTest {
  private LogCapture logs;
  private TestServer server;

  @BeforeAll
  void start() {
    logs = new LogCapture("io.cairn.httpendpoints.test.ProblemAnswersTest");
    server =
        new TestServer(
            Routes.of(
                Route.exact(
                    "POST",
                    "/echo",
                    "echo",
                    e ->
                        e.sendText(
                            200, "text/plain", new String(e.body(), StandardCharsets.UTF_8))),
                Route.exact(
                    "GET",
                    "/bad",
                    "bad",
                    e -> {
                      throw Problem.badRequest("Expected a good request, but was a bad one");
                    }),
                Route.exact(
                    "GET",
                    "/unavailable",
                    "unavailable",
                    e -> {
                      throw new Problem(503, "Expected a leader, but there is none");
                    }),
                Route.exact(
                    "GET",
                    "/fails",
                    "fails",
                    e -> {
                      throw new IllegalStateException("broken");
                    }),
                Route.exact("GET", "/silent", "silent", e -> {})),
            settings -> settings.maxBodyBytes(1024).logger(logs.logger));
  }

  @AfterAll
  void stop() {
    server.close();
    logs.close();
  }

  @BeforeEach
  void forgetLogs() {
    logs.close();
    logs = new LogCapture("io.cairn.httpendpoints.test.ProblemAnswersTest");
  }

  @Test
  void shouldReadABodyUpToTheLimit() throws Exception {
    String body = "x".repeat(1024);

    HttpResponse<String> echoed = server.post("/echo", body);

    assertThat(echoed.statusCode()).isEqualTo(200);
    assertThat(echoed.body()).isEqualTo(body);
  }

  @Test
  void shouldAnswerPayloadTooLargeForADeclaredLengthOverTheLimit() throws Exception {
    assertThat(problem(server.post("/echo", "x".repeat(1025)), 413, "/echo"))
        .isEqualTo(
            "Expected a request body of at most 1024 bytes, but it was 1025 bytes (POST /echo)");
    assertThat(logs.events()).extracting(ILoggingEvent::getLevel).containsExactly(Level.DEBUG);
  }

  @Test
  void shouldAnswerPayloadTooLargeForAChunkedBodyOverTheLimit() throws Exception {
    byte[] body = new byte[5000];
    HttpResponse<String> response =
        server.send(
            HttpRequest.newBuilder(server.uri("/echo"))
                .POST(
                    HttpRequest.BodyPublishers.ofInputStream(
                        () -> new ByteArrayInputStream(body))));

    assertThat(problem(response, 413, "/echo"))
        .isEqualTo("Expected a request body of at most 1024 bytes, but it was more (POST /echo)");
  }

  @Test
  void shouldAnswerAThrownProblemAndLogItAtDebugBelow500() throws Exception {
    assertThat(problem(server.get("/bad"), 400, "/bad"))
        .isEqualTo("Expected a good request, but was a bad one");

    assertThat(logs.events()).hasSize(1);
    assertThat(logs.events().get(0).getLevel()).isEqualTo(Level.DEBUG);
    assertThat(logs.events().get(0).getFormattedMessage())
        .isEqualTo("GET /bad: Expected a good request, but was a bad one");
  }

  @Test
  void shouldLogAProblemFrom500UpAtWarn() throws Exception {
    assertThat(problem(server.get("/unavailable"), 503, "/unavailable"))
        .isEqualTo("Expected a leader, but there is none");

    assertThat(logs.events()).hasSize(1);
    assertThat(logs.events().get(0).getLevel()).isEqualTo(Level.WARN);
    assertThat(logs.events().get(0).getFormattedMessage())
        .isEqualTo("GET /unavailable: Expected a leader, but there is none");
  }

  @Test
  void shouldAnswerInternalServerErrorForAnUnexpectedExceptionAndLogItAtWarn() throws Exception {
    assertThat(problem(server.get("/fails"), 500, "/fails"))
        .isEqualTo(
            "Expected GET /fails to complete, but the test server failed:"
                + " java.lang.IllegalStateException: broken");

    assertThat(logs.events()).hasSize(1);
    ILoggingEvent event = logs.events().get(0);
    assertThat(event.getLevel()).isEqualTo(Level.WARN);
    assertThat(event.getFormattedMessage()).isEqualTo("GET /fails failed");
    assertThat(event.getThrowableProxy().getMessage()).isEqualTo("broken");
  }

  @Test
  void shouldAnswerInternalServerErrorWhenAHandlerSendsNoAnswer() throws Exception {
    assertThat(problem(server.get("/silent"), 500, "/silent"))
        .contains("Expected the handler of silent to answer, but it did not");
  }

  @Test
  void shouldLogNotFoundAndMethodNotAllowedAtDebug() throws Exception {
    problem(server.get("/nothing"), 404, "/nothing");
    problem(server.get("/echo"), 405, "/echo");

    assertThat(logs.events())
        .extracting(ILoggingEvent::getLevel)
        .containsExactly(Level.DEBUG, Level.DEBUG);
  }
}
