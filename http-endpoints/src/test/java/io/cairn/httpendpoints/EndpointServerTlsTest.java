package io.cairn.httpendpoints;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.tls.ClientAuth;
import io.cairn.tls.ClientTls;
import io.cairn.tls.LocalSecureFiles;
import io.cairn.tls.ServerTls;
import io.cairn.tls.TlsFile;
import io.cairn.tls.TlsFiles;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HTTPS: a client trusting the CA is served; one trusting another CA and a plaintext one fail. */
class EndpointServerTlsTest {

  @TempDir Path dir;

  private static final Routes ROUTES =
      Routes.of(Route.exact("GET", "/health", "health", e -> e.sendEmpty(204)));

  private static HttpResponse<String> get(SSLContext trust, URI uri)
      throws IOException, InterruptedException {
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5));
    if (trust != null) {
      builder.sslContext(trust);
    }
    return builder
        .build()
        .send(
            HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private static SSLContext trusting(Path caFile) {
    return ClientTls.load(
            TlsFiles.trustOnly(new TlsFile("test.caFile", caFile)),
            Clock.systemUTC(),
            Duration.ofSeconds(10))
        .sslContext();
  }

  @Test
  void shouldServeHttpsToClientsTrustingItsCaOnly() throws Exception {
    LocalSecureFiles cluster =
        LocalSecureFiles.create(dir.resolve("cluster"), "test", Instant.now());
    LocalSecureFiles foreign =
        LocalSecureFiles.create(dir.resolve("foreign"), "other", Instant.now());
    ServerTls tls =
        ServerTls.load(
            cluster.issue("server", "test."),
            ClientAuth.NONE,
            Clock.systemUTC(),
            Duration.ofSeconds(10));

    try (var server = new TestServer(ROUTES, settings -> settings.tls(tls.sslContext()))) {
      int port = server.server.address().getPort();
      URI https = URI.create("https://localhost:" + port + "/health");

      assertThat(get(trusting(cluster.caFile()), https).statusCode()).isEqualTo(204);
      assertThatThrownBy(() -> get(trusting(foreign.caFile()), https))
          .as("a client trusting another CA")
          .isInstanceOf(IOException.class);
      assertThatThrownBy(() -> get(null, URI.create("http://localhost:" + port + "/health")))
          .as("a plaintext client")
          .isInstanceOf(IOException.class);
    }
  }
}
