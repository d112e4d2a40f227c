package io.cairn.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.tls.ClientTls;
import io.cairn.tls.ExpiringCertificates;
import io.cairn.tls.LocalSecureFiles;
import io.cairn.tls.TlsConfigurationException;
import io.cairn.tls.TlsFile;
import io.cairn.tls.TlsFiles;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code security.tls.*}: the broker's management endpoints answer HTTPS to clients trusting the
 * cluster's CA and nothing to plaintext or other CAs; a key file open to others or an expired
 * certificate stops the broker before it opens anything, naming the key and the file; once the
 * certificate expires while the broker runs, new clients refuse it.
 */
class BrokerTlsTest {

  @TempDir Path root;

  private static BrokerTestCluster.Builder secure(Path root, TlsFiles files) {
    return BrokerTestCluster.builder(root.resolve("cluster"))
        .brokers(1)
        .partitions(1)
        .noBackupStore()
        .setting("security.tls.enabled", "true")
        .setting(
            "security.tls.certificateFile",
            files.certificateChain().orElseThrow().path().toString())
        .setting("security.tls.privateKeyFile", files.privateKey().orElseThrow().path().toString())
        .setting(
            "security.tls.trustedCaFile",
            files.trustedCertificates().orElseThrow().path().toString());
  }

  /** GET /health over HTTPS from a new client (a new connection) with {@code trust}. */
  private static HttpResponse<String> health(SSLContext trust, int port)
      throws IOException, InterruptedException {
    return HttpClient.newBuilder()
        .connectTimeout(Duration.ofSeconds(5))
        .sslContext(trust)
        .build()
        .send(
            HttpRequest.newBuilder(URI.create("https://localhost:" + port + "/health"))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> health(Path caFile, String scheme, int port)
      throws IOException, InterruptedException {
    HttpClient.Builder client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
    if (caFile != null) {
      client.sslContext(
          ClientTls.load(
                  TlsFiles.trustOnly(new TlsFile("ca", caFile)),
                  java.time.Clock.systemUTC(),
                  Duration.ofSeconds(10))
              .sslContext());
    }
    return client
        .build()
        .send(
            HttpRequest.newBuilder(URI.create(scheme + "://localhost:" + port + "/health"))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void shouldServeManagementOverHttpsToClientsTrustingTheClusterCaOnly() throws Exception {
    LocalSecureFiles tls = LocalSecureFiles.create(root.resolve("tls"), "test", Instant.now());
    LocalSecureFiles foreign =
        LocalSecureFiles.create(root.resolve("other"), "other", Instant.now());

    try (BrokerTestCluster cluster =
        secure(root, tls.issue("broker-0", "security.tls.")).build().awaitReady()) {
      int port = cluster.broker(0).managementAddress().orElseThrow().getPort();

      assertThat(health(tls.caFile(), "https", port).statusCode()).isEqualTo(200);
      assertThatThrownBy(() -> health(foreign.caFile(), "https", port))
          .isInstanceOf(IOException.class);
      assertThatThrownBy(() -> health(null, "http", port)).isInstanceOf(IOException.class);
    }
  }

  @Test
  void shouldRefuseToStartWithAnExpiredCertificateNamingTheFile() {
    ExpiringCertificates certificates = new ExpiringCertificates(root.resolve("tls"));
    ExpiringCertificates.Issued expired = certificates.expired("broker-0", "security.tls.");

    assertThatThrownBy(() -> secure(root, expired.files()).build())
        .isInstanceOf(TlsConfigurationException.class)
        .hasMessageContaining("security.tls.certificateFile = " + expired.certificateFile())
        .hasMessageContaining("has expired")
        .hasMessageContaining("notAfter=" + expired.notAfter())
        .hasMessageContaining("Renew the certificate");
  }

  @Test
  void shouldRefuseNewManagementClientsOnceTheCertificateHasExpired() throws Exception {
    ExpiringCertificates certificates = new ExpiringCertificates(root.resolve("tls"));
    ExpiringCertificates.Issued broker = certificates.shortLived("broker-0", "security.tls.");

    try (BrokerTestCluster cluster = secure(root, broker.files()).build().awaitReady()) {
      int port = cluster.broker(0).managementAddress().orElseThrow().getPort();
      HttpResponse<String> beforeExpiry = health(certificates.trustingClient(), port);
      assertThat(beforeExpiry.statusCode()).isEqualTo(200);
      assertThat(beforeExpiry.sslSession().orElseThrow().getPeerCertificates()[0])
          .isEqualTo(broker.certificate());

      broker.awaitExpiry();

      assertThatThrownBy(() -> health(certificates.trustingClient(), port))
          .isInstanceOf(IOException.class)
          .matches(ExpiringCertificates::refusedAsExpired, "refused as expired");
      assertThat(cluster.broker(0).health().ready()).isTrue();
    }
  }

  @Test
  void shouldRefuseToStartWithAKeyFileOpenToOthers() throws Exception {
    LocalSecureFiles tls = LocalSecureFiles.create(root.resolve("tls"), "test", Instant.now());
    TlsFiles files = tls.issue("broker-0", "security.tls.");
    Path key = files.privateKey().orElseThrow().path();
    Files.setPosixFilePermissions(
        key, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));

    assertThatThrownBy(() -> secure(root, files).build())
        .hasMessageContaining("security.tls.privateKeyFile")
        .hasMessageContaining(key.toString())
        .hasMessageContaining("chmod 600");
  }
}
