package io.cairn.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class LocalCertificateAuthorityTest {

  private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
  private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
  private static final int DNS = 2;
  private static final int IP = 7;

  @TempDir Path dir;

  @Test
  void shouldIssueALeafForServerAndClientWithLoopbackAndExtraNames() throws Exception {
    Instant from = Instant.parse("2030-01-01T00:00:00Z");
    Instant to = Instant.parse("2031-01-01T00:00:00Z");
    LocalCertificateAuthority ca =
        LocalCertificateAuthority.create("Cairn local CA", from, to.plus(Duration.ofDays(1)));

    X509Certificate leaf =
        ca.leaf("broker-1", from, to)
            .dnsNames("broker-1.cairn.local")
            .ipAddresses("10.0.0.7", "::1")
            .issue()
            .certificate();

    assertThat(leaf.getSubjectX500Principal().getName()).isEqualTo("CN=broker-1");
    assertThat(leaf.getIssuerX500Principal()).isEqualTo(ca.certificate().getSubjectX500Principal());
    leaf.verify(ca.certificate().getPublicKey());
    assertThat(leaf.getNotBefore().toInstant()).isEqualTo(from);
    assertThat(leaf.getNotAfter().toInstant()).isEqualTo(to);
    assertThat(leaf.getExtendedKeyUsage()).containsExactlyInAnyOrder(SERVER_AUTH, CLIENT_AUTH);
    assertThat(leaf.getBasicConstraints()).isEqualTo(-1);
    assertThat(leaf.getKeyUsage()[0]).as("digitalSignature").isTrue();
    assertThat(leaf.getSubjectAlternativeNames())
        .containsExactlyInAnyOrder(
            List.of(DNS, "localhost"),
            List.of(IP, "127.0.0.1"),
            List.of(DNS, "broker-1.cairn.local"),
            List.of(IP, "10.0.0.7"),
            List.of(IP, "0:0:0:0:0:0:0:1"));
    assertThat(ca.certificate().getBasicConstraints()).isGreaterThanOrEqualTo(0);
    assertThat(ca.certificate().getKeyUsage()[5]).as("keyCertSign").isTrue();
  }

  @Test
  void shouldGiveEachCertificateItsOwnSerial() {
    Instant now = Instant.now();
    LocalCertificateAuthority ca =
        LocalCertificateAuthority.create("CA", now, now.plus(Duration.ofDays(1)));

    X509Certificate a = ca.leaf("a", now, now.plusSeconds(60)).issue().certificate();
    X509Certificate b = ca.leaf("a", now, now.plusSeconds(60)).issue().certificate();

    assertThat(a.getSerialNumber()).isPositive().isNotEqualTo(b.getSerialNumber());
  }

  @Test
  void shouldWriteKeysForTheOwnerOnlyAndCertificatesForEveryone() throws Exception {
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    LocalCertificateAuthority ca =
        LocalCertificateAuthority.create("CA", now, now.plus(Duration.ofDays(1)));
    Path stale = dir.resolve("broker-0.key");
    Files.writeString(stale, "old");
    Files.setPosixFilePermissions(stale, PosixFilePermissions.fromString("rw-rw-rw-"));

    PemPair caFiles = ca.writeInto(dir);
    PemPair leafFiles =
        ca.leaf("broker-0", now, now.plusSeconds(3600)).issue().writeInto(dir, "broker-0");

    assertThat(permissions(caFiles.privateKey())).isEqualTo("rw-------");
    assertThat(permissions(leafFiles.privateKey())).isEqualTo("rw-------");
    assertThat(permissions(caFiles.certificate())).isEqualTo("rw-r--r--");
    assertThat(permissions(leafFiles.certificate())).isEqualTo("rw-r--r--");
    assertThat(leafFiles.privateKey()).isEqualTo(stale);
    assertThat(PemTexts.read(leafFiles.privateKey())).startsWith("-----BEGIN PRIVATE KEY-----");
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as("no temporary file left")
          .containsExactlyInAnyOrder("ca.crt", "ca.key", "broker-0.crt", "broker-0.key");
    }
  }

  @Test
  void shouldIssueFromACaReadBackFromItsFiles() throws Exception {
    Instant now = Instant.now();
    LocalCertificateAuthority ca =
        LocalCertificateAuthority.create("CA", now.minusSeconds(60), now.plus(Duration.ofDays(1)));
    PemPair files = ca.writeInto(dir);

    LocalCertificateAuthority again =
        LocalCertificateAuthority.read(
            new TlsFile("ca.certificate", files.certificate()),
            new TlsFile("ca.key", files.privateKey()),
            now);
    X509Certificate leaf = again.leaf("later", now, now.plusSeconds(60)).issue().certificate();

    assertThat(again.certificate()).isEqualTo(ca.certificate());
    leaf.verify(ca.certificate().getPublicKey());
  }

  @Test
  void shouldRefuseAnIpAddressThatIsNotOne() {
    Instant now = Instant.now();
    LocalCertificateAuthority ca =
        LocalCertificateAuthority.create("CA", now, now.plus(Duration.ofDays(1)));

    assertThatThrownBy(() -> ca.leaf("broker-0", now, now).ipAddresses("broker-0.local"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Expected an IPv4 or IPv6 address, but was 'broker-0.local' (subject alternative"
                + " name of broker-0). Give a literal address, or a host name with dnsNames.");
  }

  private static String permissions(Path file) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
  }
}
