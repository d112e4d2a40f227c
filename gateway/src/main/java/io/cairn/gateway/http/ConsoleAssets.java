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

  private record File(String name, String type) {}

  private static final List<File> FILES =
      List.of(
          new File("index.html", "text/html; charset=utf-8"),
          new File("console.css", "text/css; charset=utf-8"),
          new File("console.js", "text/javascript; charset=utf-8"));

  /** Name → file and its content, in the order of {@link #FILES}. */
  private final Map<String, Map.Entry<File, String>> files = new LinkedHashMap<>();

  /**
   * Reads every file from the classpath.
   *
   * @throws IllegalStateException when one is missing (a broken jar: fail at start, not per page)
   */
  ConsoleAssets() {
    for (File file : FILES) {
      String name = file.name();
      try (InputStream in = ConsoleAssets.class.getResourceAsStream(RESOURCES + name)) {
        if (in == null) {
          throw new IllegalStateException(
              "Expected the console file "
                  + RESOURCES
                  + name
                  + " in the gateway's jar, but it is"
                  + " missing");
        }
        files.put(name, Map.entry(file, new String(in.readAllBytes(), StandardCharsets.UTF_8)));
      } catch (IOException e) {
        throw new UncheckedIOException("Could not read the console file " + name, e);
      }
    }
  }

  /** Answers {@code name} ({@code ""} is the page itself) or 404 naming the files there are. */
  void serve(Exchange exchange, String name) throws IOException {
    Map.Entry<File, String> file = files.get(name.isEmpty() ? "index.html" : name);
    if (file == null) {
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
    exchange.sendText(200, file.getKey().type(), file.getValue());
  }

  /**
   * Sends the browser to the console's page ({@code /} and {@code /console} both lead there with
   * the relative {@code console/}, which keeps a proxy's path prefix).
   */
  static void redirect(Exchange exchange) throws IOException {
    exchange.header("Location", "console/");
    exchange.sendEmpty(302);
  }
}
