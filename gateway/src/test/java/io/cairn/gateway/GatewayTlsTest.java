package io.cairn.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.gateway.v1.CreateAccountRequest;
import io.cairn.gateway.v1.LedgerServiceGrpc;
import io.cairn.tls.ClientAuth;
import io.cairn.tls.ClientTls;
import io.cairn.tls.ExpiringCertificates;
import io.cairn.tls.LocalCertificateAuthority;
import io.cairn.tls.LocalSecureFiles;
import io.cairn.tls.PemPair;
import io.cairn.tls.ServerTls;
import io.cairn.tls.TlsConfigurationException;
import io.cairn.tls.TlsFile;
import io.cairn.tls.TlsFiles;
import io.cairn.transport.TransportTls;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * With {@code gateway.security.tls.*} the gateway serves gRPC and HTTP over TLS and talks to its
 * brokers over mutual TLS: a client trusting the cluster's CA is served; one trusting another CA
 * and a plaintext one are refused on both listeners; an expired certificate stops the gateway from
 * starting, naming the file, and one that expires while the gateway runs is refused by new clients
 * on both listeners.
 */
// mostly waits for certificates to expire: it runs beside the other classes
@Execution(ExecutionMode.CONCURRENT)
class GatewayTlsTest {

  @TempDir Path dir;

  private ManagedChannel channel(int port, Optional<Path> caFile) throws IOException {
    NettyChannelBuilder builder = NettyChannelBuilder.forAddress("localhost", port);
    if (caFile.isPresent()) {
      builder.sslContext(GrpcSslContexts.forClient().trustManager(caFile.get().toFile()).build());
    } else {
      builder.usePlaintext();
    }
    return builder.build();
  }

  private static void createAccount(ManagedChannel channel, String account) {
    LedgerServiceGrpc.newBlockingStub(channel)
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .createAccount(CreateAccountRequest.newBuilder().setAccountId(account).build());
  }

  private static HttpResponse<String> health(Optional<Path> caFile, String scheme, int port)
      throws IOException, InterruptedException {
    HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
    caFile.ifPresent(
        ca ->
            builder.sslContext(
                ClientTls.load(
                        TlsFiles.trustOnly(new TlsFile("ca", ca)),
                        java.time.Clock.systemUTC(),
                        Duration.ofSeconds(10))
                    .sslContext()));
    return builder
        .build()
        .send(
            HttpRequest.newBuilder(URI.create(scheme + "://localhost:" + port + "/health"))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /**
   * A gateway serving {@code gateway}'s certificate, ready: it reached its brokers over mutual TLS
   * (the brokers' certificates stay valid) while its certificate was valid.
   */
  private static GatewayHarness expiringGateway(
      ExpiringCertificates certificates, ExpiringCertificates.Issued gateway) {
    return GatewayHarness.secure(
        gateway.files(), certificates.valid("broker", "security.tls.").files());
  }

  /**
   * A gRPC channel with a TLS context of its own (no session to resume) that checks the gateway's
   * certificate with {@code tls}'s trust manager, as {@code CairnClient} does.
   */
  private static ManagedChannel channel(int port, ClientTls tls) throws IOException {
    return NettyChannelBuilder.forAddress("localhost", port)
        .sslContext(
            GrpcSslContexts.forClient()
                .trustManager(tls.trustManager())
                .protocols(tls.protocols())
                .build())
        .build();
  }

  /** GET over a new client (a new connection) with {@code trust}. */
  private static HttpResponse<String> get(SSLContext trust, URI uri)
      throws IOException, InterruptedException {
    return HttpClient.newBuilder()
        .connectTimeout(Duration.ofSeconds(5))
        .sslContext(trust)
        .build()
        .send(
            HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void shouldServeGrpcAndHttpOverTlsToClientsTrustingTheClusterCaOnly() throws Exception {
    LocalSecureFiles cluster = LocalSecureFiles.create(dir.resolve("tls"), "test", Instant.now());
    LocalSecureFiles foreign =
        LocalSecureFiles.create(dir.resolve("other"), "other", Instant.now());
    TlsFiles files = cluster.issue("gateway", "gateway.security.tls.");
    ServerTls brokers =
        ServerTls.load(
            cluster.issue("broker", "security.tls."),
            ClientAuth.REQUIRED,
            java.time.Clock.systemUTC(),
            Duration.ofSeconds(10));
    Optional<TransportTls> brokerTls =
        Optional.of(
            new TransportTls(
                brokers.keyManager(), brokers.trustManager().orElseThrow(), brokers.protocols()));

    // the gateway reaches its brokers over mutual TLS: the calls below are routed through it
    try (var harness =
        new GatewayHarness(3, 2, b -> b.tls(Optional.of(files)), brokerTls).awaitReady()) {
      int grpcPort = harness.gateway.grpcAddress().getPort();
      int httpPort = harness.gateway.httpAddress().getPort();

      ManagedChannel trusted = channel(grpcPort, Optional.of(cluster.caFile()));
      ManagedChannel wrongCa = channel(grpcPort, Optional.of(foreign.caFile()));
      ManagedChannel plaintext = channel(grpcPort, Optional.empty());
      try {
        createAccount(trusted, "over-tls");
        assertThatThrownBy(() -> createAccount(wrongCa, "wrong-ca"))
            .isInstanceOf(StatusRuntimeException.class)
            .hasMessageContaining("UNAVAILABLE");
        assertThatThrownBy(() -> createAccount(plaintext, "plaintext"))
            .isInstanceOf(StatusRuntimeException.class)
            .hasMessageContaining("UNAVAILABLE");
      } finally {
        trusted.shutdownNow();
        wrongCa.shutdownNow();
        plaintext.shutdownNow();
      }

      assertThat(health(Optional.of(cluster.caFile()), "https", httpPort).statusCode())
          .isEqualTo(200);
      assertThatThrownBy(() -> health(Optional.of(foreign.caFile()), "https", httpPort))
          .isInstanceOf(IOException.class);
      assertThatThrownBy(() -> health(Optional.empty(), "http", httpPort))
          .isInstanceOf(IOException.class);
    }
  }

  @Test
  void shouldRefuseGrpcClientsOnceTheCertificateHasExpired() throws Exception {
    ExpiringCertificates certificates = new ExpiringCertificates(dir);
    ExpiringCertificates.Issued gateway =
        certificates.shortLived("gateway", "gateway.security.tls.");

    try (var harness = expiringGateway(certificates, gateway)) {
      int grpcPort = harness.gateway.grpcAddress().getPort();
      ManagedChannel beforeExpiry = channel(grpcPort, certificates.trustingClientTls());
      try {
        createAccount(beforeExpiry, "before-expiry");
      } finally {
        beforeExpiry.shutdownNow();
      }

      gateway.awaitExpiry();
      ManagedChannel afterExpiry = channel(grpcPort, certificates.trustingClientTls());
      try {
        assertThatThrownBy(() -> createAccount(afterExpiry, "after-expiry"))
            .isInstanceOfSatisfying(
                StatusRuntimeException.class,
                e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE))
            .matches(ExpiringCertificates::refusedAsExpired, "refused as expired");
      } finally {
        afterExpiry.shutdownNow();
      }
      assertThat(harness.commandsReceived()).isEqualTo(1);
    }
  }

  @Test
  void shouldRefuseHttpsClientsOnceTheCertificateHasExpired() throws Exception {
    ExpiringCertificates certificates = new ExpiringCertificates(dir);
    ExpiringCertificates.Issued gateway =
        certificates.shortLived("gateway", "gateway.security.tls.");

    try (var harness = expiringGateway(certificates, gateway)) {
      URI health =
          URI.create("https://localhost:" + harness.gateway.httpAddress().getPort() + "/health");
      HttpResponse<String> beforeExpiry = get(certificates.trustingClient(), health);
      assertThat(beforeExpiry.statusCode()).isEqualTo(200);
      assertThat(beforeExpiry.sslSession().orElseThrow().getPeerCertificates()[0])
          .isEqualTo(gateway.certificate());

      gateway.awaitExpiry();

      assertThatThrownBy(() -> get(certificates.trustingClient(), health))
          .isInstanceOf(IOException.class)
          .matches(ExpiringCertificates::refusedAsExpired, "refused as expired");
    }
  }

  @Test
  void shouldRefuseToStartWithAnExpiredCertificateNamingTheFile() {
    Instant now = Instant.now();
    LocalCertificateAuthority ca =
        LocalCertificateAuthority.create(
            "test CA", now.minus(Duration.ofDays(30)), now.plus(Duration.ofDays(30)));
    PemPair caFiles = ca.writeInto(dir);
    PemPair expired =
        ca.leaf("gateway", now.minus(Duration.ofDays(20)), now.minus(Duration.ofDays(1)))
            .issue()
            .writeInto(dir, "gateway");
    TlsFiles files =
        TlsFiles.identityAndTrust(
            new TlsFile("gateway.security.tls.certificateFile", expired.certificate()),
            new TlsFile("gateway.security.tls.privateKeyFile", expired.privateKey()),
            new TlsFile("gateway.security.tls.trustedCaFile", caFiles.certificate()));

    assertThatThrownBy(() -> new GatewayHarness(3, 2, b -> b.tls(Optional.of(files))).close())
        .isInstanceOf(TlsConfigurationException.class)
        .hasMessageContaining("gateway.security.tls.certificateFile")
        .hasMessageContaining(expired.certificate().toString());
  }
}
