package io.cairn.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.gateway.GatewayHarness;
import io.cairn.gateway.v1.CreateAccountRequest;
import io.cairn.gateway.v1.LedgerServiceGrpc;
import io.cairn.tls.ExpiringCertificates;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslProvider;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client over TLS ({@code trustedCaFile}) to a real gateway: served while the gateway's
 * certificate is valid; each later connection checks the certificate again, also one that resumes a
 * TLS session of an earlier connection, so a certificate that expired since is refused.
 */
final class CairnClientTlsTest {

  @TempDir Path dir;

  @Test
  void shouldRefuseOnReconnectingAGatewayWhoseCertificateExpiredSinceTheLastConnection()
      throws Exception {
    ExpiringCertificates certificates = new ExpiringCertificates(dir);
    ExpiringCertificates.Issued gateway =
        certificates.shortLived("gateway", "gateway.security.tls.");

    try (GatewayHarness harness =
            GatewayHarness.secure(
                gateway.files(), certificates.valid("broker", "security.tls.").files());
        CairnClient client =
            CairnClient.builder()
                .gateway("localhost:" + harness.gateway.grpcAddress().getPort())
                .trustedCaFile(certificates.caFile())
                .build()) {
      int port = harness.gateway.grpcAddress().getPort();
      assertThat(client.createAccount("over-tls").accountId()).isEqualTo("over-tls");
      // The contexts a client dials every connection of its life with (and would resume sessions
      // from): the client's own (OpenSSL where netty has it), and the same over the JDK's TLS.
      Map<String, SslContext> contexts =
          Map.of(
              "client",
              CairnClient.sslContext(certificates.trustingClientTls()),
              "jdk",
              new FullHandshakeSslContext(
                  GrpcSslContexts.configure(SslContextBuilder.forClient(), SslProvider.JDK)
                      .trustManager(certificates.trustingClientTls().trustManager())
                      .build()));
      for (Map.Entry<String, SslContext> context : contexts.entrySet()) {
        ManagedChannel first = channel(port, context.getValue());
        try {
          createAccount(first, "first-connection-" + context.getKey());
        } finally {
          first.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
      }

      gateway.awaitExpiry();

      for (Map.Entry<String, SslContext> context : contexts.entrySet()) {
        ManagedChannel second = channel(port, context.getValue());
        try {
          assertThatThrownBy(
                  () -> createAccount(second, "after-expiry"),
                  "a reconnection with the %s context",
                  context.getKey())
              .isInstanceOfSatisfying(
                  StatusRuntimeException.class,
                  e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE))
              .matches(ExpiringCertificates::refusedAsExpired, "refused as expired");
        } finally {
          second.shutdownNow();
        }
      }
      assertThat(harness.commandsReceived()).isEqualTo(3);
    }
  }

  private static ManagedChannel channel(int port, SslContext tls) {
    return NettyChannelBuilder.forAddress("localhost", port).sslContext(tls).build();
  }

  private static void createAccount(ManagedChannel channel, String account) {
    LedgerServiceGrpc.newBlockingStub(channel)
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .createAccount(CreateAccountRequest.newBuilder().setAccountId(account).build());
  }
}
