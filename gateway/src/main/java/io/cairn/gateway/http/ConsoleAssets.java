package io.cairn.gateway.http;

import io.cairn.httpendpoints.Exchange;
import io.cairn.httpendpoints.Problem;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The web console's files (HTML, CSS, JavaScript; no build step, no third-party code), read from
 * the gateway's jar once and served from memory under {@code /console/}. They hold no data: the
 * page reads everything from the management endpoints with the caller's own credentials, so the
 * files are open like {@code /health}.
 *
 * <p>Every answer forbids inline and foreign scripts ({@code Content-Security-Policy}), framing and
 * content sniffing, and asks browsers to check for a newer file each time (a gateway upgraded under
 * an open tab serves its own console, not the cached one).
 */
final class ConsoleAssets {
  static final String PATH = "/console/";

  private static final String RESOURCES = "/io/cairn/gateway/console/";
  private static final List<String> NAMES = List.of("index.html", "console.css", "console.js");
  private static final Map<String, String> TYPES =
      Map.of(
          "index.html", "text/html; charset=utf-8",
          "console.css", "text/css; charset=utf-8",
          "console.js", "text/javascript; charset=utf-8");

  private final Map<String, String> files = new LinkedHashMap<>();

  /**
   * Reads every file from the classpath.
   *
   * @throws IllegalStateException when one is missing (a broken jar: fail at start, not per page)
   */
  ConsoleAssets() {
    for (String name : NAMES) {
      try (InputStream in = ConsoleAssets.class.getResourceAsStream(RESOURCES + name)) {
        if (in == null) {
          throw new IllegalStateException(
              "Expected the console file "
                  + RESOURCES
                  + name
                  + " in the gateway's jar, but it is"
                  + " missing");
        }
        files.put(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException("Could not read the console file " + name, e);
      }
    }
  }

  /** Answers {@code name} ({@code ""} is the page itself) or 404 naming the files there are. */
  void serve(Exchange exchange, String name) throws IOException {
    String file = name.isEmpty() ? "index.html" : name;
    String content = files.get(file);
    if (content == null) {
      throw new Problem(
          404,
          "Expected one of the console's files "
              + files.keySet()
              + " under "
              + PATH
              + ", but was '"
              + ManagementHttpServer.shorten(name)
              + "'");
    }
    exchange.header(
        "Content-Security-Policy",
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self';"
            + " img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
    exchange.header("X-Content-Type-Options", "nosniff");
    exchange.header("Cache-Control", "no-cache");
    exchange.sendText(200, TYPES.get(file), content);
  }

  /** Sends the browser to the console's page. */
  static void redirect(Exchange exchange) throws IOException {
    exchange.header("Location", PATH);
    exchange.sendEmpty(302);
  }
}
