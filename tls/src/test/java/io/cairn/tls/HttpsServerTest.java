package io.cairn.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import javax.net.ssl.SSLSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The management servers' path: the JDK's {@code HttpsServer} with the default {@code
 * HttpsConfigurator} over {@link ServerTls#sslContext()} requires client certificates and speaks
 * only TLS 1.3 and 1.2, because the context's default parameters say so.
 */
final class HttpsServerTest {

  private static final Duration INTERVAL = TlsMaterialSource.DEFAULT_CHECK_INTERVAL;

  @TempDir Path dir;
  private Pki pki;
  private HttpsServer https;

  @BeforeEach
  void setUp() throws IOException {
    pki = new Pki(dir);
    PemPair broker = pki.write("broker-0");
    ServerTls tls =
        ServerTls.load(
            pki.identityAndTrust(broker), ClientAuth.REQUIRED, Clock.systemUTC(), INTERVAL);
    https = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    https.setHttpsConfigurator(new HttpsConfigurator(tls.sslContext()));
    https.createContext(
        "/health",
        exchange -> {
          byte[] body = "UP".getBytes(StandardCharsets.US_ASCII);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    https.start();
  }

  @AfterEach
  void tearDown() {
    https.stop(0);
  }

  @Test
  void shouldAnswerAClientWithACertificateOfTheClusterCa() throws Exception {
    HttpResponse<String> response = get(pki.identityAndTrust(pki.write("operator")));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("UP");
    assertThat(response.sslSession().map(SSLSession::getProtocol)).contains("TLSv1.3");
  }

  @Test
  void shouldRefuseAClientWithoutACertificate() {
    assertThatThrownBy(() -> get(pki.trustOnly())).isInstanceOf(IOException.class);
  }

  private HttpResponse<String> get(TlsFiles files) throws IOException, InterruptedException {
    HttpClient client =
        HttpClient.newBuilder()
            .sslContext(ClientTls.load(files, Clock.systemUTC(), INTERVAL).sslContext())
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    URI uri = URI.create("https://127.0.0.1:" + https.getAddress().getPort() + "/health");
    return client.send(
        HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
