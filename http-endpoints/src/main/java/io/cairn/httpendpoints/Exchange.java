package io.cairn.httpendpoints;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;

/**
 * One HTTP request being answered: its method, path and path parameters, its body read up to a
 * bound, and one answer (JSON, text, empty or a problem detail).
 *
 * <p>Not thread-safe: one handler answers it on the server's executor.
 */
public final class Exchange {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpExchange exchange;
  private final int maxBodyBytes;
  private final List<Runnable> beforeResponse = new ArrayList<>();
  private Matcher pathMatch;
  private int status;

  Exchange(HttpExchange exchange, int maxBodyBytes) {
    this.exchange = exchange;
    this.maxBodyBytes = maxBodyBytes;
  }

  /**
   * Runs {@code hook} right before the answer's status line and headers are sent, once; hooks run
   * in the order they were added. What a hook records is seen by whoever got the answer.
   */
  public void beforeResponse(Runnable hook) {
    beforeResponse.add(hook);
  }

  public String method() {
    return exchange.getRequestMethod();
  }

  public String path() {
    return exchange.getRequestURI().getPath();
  }

  /**
   * The value of a named group of the route's pattern in this request's path ({@code id} of {@code
   * /actuator/backups/(?<id>[^/]*)}).
   *
   * @throws IllegalArgumentException if the route has no group of that name
   */
  public String pathParameter(String name) {
    if (pathMatch == null) {
      throw new IllegalArgumentException(
          "Expected a route with a pattern for " + path() + ", but it is an exact path");
    }
    return pathMatch.group(name);
  }

  /** The address the request came from (the client's, or the last proxy's). */
  public InetSocketAddress remoteAddress() {
    return exchange.getRemoteAddress();
  }

  /** The first value of a request header, or null. */
  public String requestHeader(String name) {
    return exchange.getRequestHeaders().getFirst(name);
  }

  /** The JSON mapper the answers are written with, for handlers that read JSON bodies. */
  public static ObjectMapper json() {
    return JSON;
  }

  /**
   * Reads the whole body, at most the server's {@code maxBodyBytes}.
   *
   * @throws Problem 413 when the body is larger, 400 when Content-Length is not a number
   */
  public byte[] body() throws IOException {
    String declared = requestHeader("Content-Length");
    if (declared != null) {
      try {
        if (Long.parseLong(declared.trim()) > maxBodyBytes) {
          throw tooLarge(declared.trim() + " bytes");
        }
      } catch (NumberFormatException e) {
        throw Problem.badRequest("Expected a numeric Content-Length, but was '" + declared + "'");
      }
    }
    // read in chunks up to the bound: a chunked body declares no length
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] chunk = new byte[4096];
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

  private Problem tooLarge(String actual) {
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

  /** Answers {@code body} written as JSON, {@code Content-Type: application/json}. */
  public void sendJson(int status, Object body) throws IOException {
    send(status, "application/json", JSON.writeValueAsBytes(body));
  }

  /** Answers with no body. */
  public void sendEmpty(int status) throws IOException {
    send(status, null, new byte[0]);
  }

  /** Answers {@code body} in UTF-8 with the given content type. */
  public void sendText(int status, String contentType, String body) throws IOException {
    send(status, contentType, body.getBytes(StandardCharsets.UTF_8));
  }

  /** Answers the problem, {@code Content-Type: application/problem+json}. */
  public void sendProblem(Problem problem) throws IOException {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", "about:blank");
    body.put("title", Problem.title(problem.status()));
    body.put("status", problem.status());
    body.put("detail", problem.getMessage());
    body.put("instance", path());
    send(problem.status(), "application/problem+json", JSON.writeValueAsBytes(body));
  }

  /** Sets a response header; call it before sending the answer. */
  public void header(String name, String value) {
    exchange.getResponseHeaders().set(name, value);
  }

  /** The status of the answer sent, or 0 while none is. */
  public int status() {
    return status;
  }

  void matched(Matcher match) {
    this.pathMatch = match;
  }

  private void send(int status, String contentType, byte[] body) throws IOException {
    if (this.status != 0) {
      throw new IllegalStateException(
          "Expected one answer to "
              + method()
              + " "
              + path()
              + ", but "
              + this.status
              + " was sent already and now "
              + status);
    }
    this.status = status;
    if (contentType != null) {
      exchange.getResponseHeaders().set("Content-Type", contentType);
    }
    for (Runnable hook : beforeResponse) {
      hook.run();
    }
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
    exchange.close();
  }
}
