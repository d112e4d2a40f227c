package io.cairn.gateway.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** One HTTP request being answered: bounded body reading and JSON / problem responses. */
final class Exchange {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpExchange exchange;
  private final int maxBodyBytes;
  private Runnable beforeResponse = () -> {};

  Exchange(final HttpExchange exchange, final int maxBodyBytes) {
    this.exchange = exchange;
    this.maxBodyBytes = maxBodyBytes;
  }

  /** Runs {@code hook} right before the response is sent (status line and headers). */
  void beforeResponse(final Runnable hook) {
    this.beforeResponse = hook;
  }

  String method() {
    return exchange.getRequestMethod();
  }

  String path() {
    return exchange.getRequestURI().getPath();
  }

  static ObjectMapper json() {
    return JSON;
  }

  /**
   * Reads the whole body, at most {@code maxBodyBytes}.
   *
   * @throws Problem 413 when the body is larger
   */
  byte[] body() throws IOException {
    final String declared = exchange.getRequestHeaders().getFirst("Content-Length");
    if (declared != null) {
      try {
        if (Long.parseLong(declared.trim()) > maxBodyBytes) {
          throw tooLarge(declared.trim() + " bytes");
        }
      } catch (final NumberFormatException e) {
        throw Problem.badRequest("Expected a numeric Content-Length, but was '" + declared + "'");
      }
    }
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final byte[] chunk = new byte[4096];
    try (InputStream in = exchange.getRequestBody()) {
      int read;
      while ((read = in.read(chunk)) >= 0) {
        if (out.size() + read > maxBodyBytes) {
          throw tooLarge("more");
        }
        out.write(chunk, 0, read);
      }
    }
    return out.toByteArray();
  }

  private Problem tooLarge(final String actual) {
    return new Problem(
        413,
        "Expected a request body of at most "
            + maxBodyBytes
            + " bytes, but it was "
            + actual
            + " ("
            + method()
            + " "
            + path()
            + ")");
  }

  void sendJson(final int status, final Object body) throws IOException {
    send(status, "application/json", JSON.writeValueAsBytes(body));
  }

  void sendEmpty(final int status) throws IOException {
    beforeResponse.run();
    exchange.sendResponseHeaders(status, -1);
    exchange.close();
  }

  void sendText(final int status, final String contentType, final String body) throws IOException {
    send(status, contentType, body.getBytes(StandardCharsets.UTF_8));
  }

  void sendProblem(final Problem problem) throws IOException {
    final Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", "about:blank");
    body.put("title", Problem.title(problem.status()));
    body.put("status", problem.status());
    body.put("detail", problem.getMessage());
    body.put("instance", path());
    send(problem.status(), "application/problem+json", JSON.writeValueAsBytes(body));
  }

  void header(final String name, final String value) {
    exchange.getResponseHeaders().set(name, value);
  }

  private void send(final int status, final String contentType, final byte[] body)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", contentType);
    beforeResponse.run();
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
    exchange.close();
  }
}
