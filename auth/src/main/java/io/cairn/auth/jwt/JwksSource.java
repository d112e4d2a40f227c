package io.cairn.auth.jwt;

import io.cairn.scheduler.Clock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;

/**
 * Where a JWKS is read from: a file the operator keeps, or a URL of the identity provider. A read
 * is blocking and bounded: at most {@value #MAX_BYTES} bytes, and for a URL the timeout bounds the
 * connection, each read and the whole body (on the injected clock), so a server that trickles
 * cannot hold a request; redirects are not followed (a JWKS that moves is reconfigured, not
 * chased).
 */
public interface JwksSource {

  /** The largest JWKS read. */
  int MAX_BYTES = 512 * 1024;

  /** The JWKS document, as text. */
  String read() throws IOException;

  /** What to call it in messages: {@code JWKS file /etc/cairn/jwks.json}. */
  String describe();

  /** A JWKS file. */
  static JwksSource file(Path path) {
    return new JwksSource() {
      @Override
      public String read() throws IOException {
        long size = Files.size(path);
        if (size > MAX_BYTES) {
          throw new IOException("it has " + size + " bytes, more than " + MAX_BYTES);
        }
        return Files.readString(path, StandardCharsets.UTF_8);
      }

      @Override
      public String describe() {
        return "JWKS file " + path;
      }
    };
  }

  /**
   * A JWKS fetched with {@code GET}; the answer must be 200.
   *
   * @param tls for {@code https}: whose certificates to trust; null for the JVM's default
   */
  static JwksSource url(URI uri, Duration timeout, SSLContext tls, Clock clock) {
    return new JwksSource() {
      @Override
      public String read() throws IOException {
        // HttpURLConnection blocks on the caller's thread and starts none of its own
        HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection();
        try {
          if (tls != null && connection instanceof HttpsURLConnection https) {
            https.setSSLSocketFactory(tls.getSocketFactory());
          }
          int timeoutMs = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
          connection.setConnectTimeout(timeoutMs);
          connection.setReadTimeout(timeoutMs);
          connection.setInstanceFollowRedirects(false);
          connection.setUseCaches(false);
          connection.setRequestProperty("Accept", "application/jwk-set+json, application/json");
          int status = connection.getResponseCode();
          if (status != 200) {
            throw new IOException("it answered HTTP " + status + ", not 200");
          }
          try (InputStream in = connection.getInputStream()) {
            return new String(readBounded(in, clock, timeout), StandardCharsets.UTF_8);
          }
        } finally {
          connection.disconnect();
        }
      }

      @Override
      public String describe() {
        return "JWKS " + uri;
      }
    };
  }

  /** The body, up to {@link #MAX_BYTES} and within {@code timeout} from now. */
  private static byte[] readBounded(InputStream in, Clock clock, Duration timeout)
      throws IOException {
    long deadline = clock.nanos() + timeout.toNanos();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    byte[] chunk = new byte[8192];
    for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
      body.write(chunk, 0, n);
      if (body.size() > MAX_BYTES) {
        throw new IOException("its answer has more than " + MAX_BYTES + " bytes");
      }
      if (clock.nanos() - deadline > 0) {
        throw new IOException("its answer took longer than " + timeout.toMillis() + " ms");
      }
    }
    return body.toByteArray();
  }
}
