package io.cairn.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.gateway.GatewayHarness;
import io.cairn.tls.ExpiringCertificates;
import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The management client over https to a real gateway whose certificate the cluster's own CA signed:
 * served when it trusts that CA ({@code withTrustedCaFile}), refused at the handshake when it
 * trusts only the JVM's CAs, and a CA file that is no CA is refused naming it.
 */
final class ManagementClientTlsTest {

  @TempDir Path dir;

  @Test
  void shouldSpeakHttpsToAGatewayOfTheClustersOwnCa() throws Exception {
    ExpiringCertificates certificates = new ExpiringCertificates(dir);
    try (GatewayHarness harness =
        GatewayHarness.secure(
            certificates.valid("gateway", "gateway.security.tls.").files(),
            certificates.valid("broker", "security.tls.").files())) {
      URI base = URI.create("https://localhost:" + harness.gateway.httpAddress().getPort());

      ManagementClient trusting =
          ManagementClient.of(base).withTrustedCaFile(certificates.caFile());
      assertThat(trusting.health()).contains("UP");

      assertThatThrownBy(() -> ManagementClient.of(base).health())
          .as("trusting only the JVM's CAs")
          .isInstanceOf(CairnClientException.class);
    }
  }

  @Test
  void shouldRefuseACaFileThatIsNoCaNamingIt() throws Exception {
    Path notACa = java.nio.file.Files.writeString(dir.resolve("ca.crt"), "not a certificate");

    assertThatThrownBy(
            () -> ManagementClient.of(URI.create("https://localhost:1")).withTrustedCaFile(notACa))
        .isInstanceOfSatisfying(
            CairnClientException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessageContaining("trustedCaFile")
        .hasMessageContaining(notACa.toString());
  }
}
