package io.cairn.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The helper the listeners' expiry tests share: its leaves have the validity it says, and it tells
 * a client's refusal of an expired server certificate from other refusals, so that a test passing
 * with it was refused for expiry and nothing else.
 */
final class ExpiringCertificatesTest {

  @TempDir Path dir;

  @Test
  void shouldIssueLeavesValidForAnHourExpiredOrExpiringSoon() {
    ExpiringCertificates certificates = new ExpiringCertificates(dir);
    Instant now = Instant.now();

    ExpiringCertificates.Issued valid = certificates.valid("valid", "test.");
    ExpiringCertificates.Issued expired = certificates.expired("expired", "test.");
    ExpiringCertificates.Issued shortLived = certificates.shortLived("short", "test.");

    assertThat(valid.notAfter()).isAfter(now.plus(Duration.ofMinutes(59)));
    assertThat(expired.notAfter()).isBefore(now);
    assertThat(shortLived.notAfter())
        .isAfter(now.plus(ExpiringCertificates.SHORT_VALIDITY))
        .isBefore(now.plus(ExpiringCertificates.SHORT_VALIDITY).plusSeconds(2));
    assertThat(shortLived.files().toString())
        .contains("test.certificateFile = " + shortLived.certificateFile())
        .contains("test.privateKeyFile = " + shortLived.privateKeyFile())
        .contains("test.trustedCaFile = " + certificates.caFile());
    assertThat(Files.exists(shortLived.certificateFile())).isTrue();
    assertThat(Files.exists(shortLived.privateKeyFile())).isTrue();
  }

  @Test
  void shouldTellARefusedExpiredServerCertificateFromOneOfAnotherCa() throws Exception {
    ExpiringCertificates certificates = new ExpiringCertificates(dir.resolve("cluster"));
    ExpiringCertificates foreign = new ExpiringCertificates(dir.resolve("foreign"));
    ExpiringCertificates.Issued expired = certificates.expired("expired", "test.");
    ExpiringCertificates.Issued otherCa = foreign.valid("other", "test.");
    // The loader refuses expired files: load them at a time they were valid.
    SimClock then = new SimClock(expired.notAfter().minus(Duration.ofDays(1)));

    Throwable expiredRefusal;
    Throwable foreignRefusal;
    try (TlsEchoServer expiredServer =
            new TlsEchoServer(
                ServerTls.load(
                        TlsFiles.identity(
                            expired.files().certificateChain().orElseThrow(),
                            expired.files().privateKey().orElseThrow()),
                        ClientAuth.NONE,
                        then,
                        TlsMaterialSource.DEFAULT_CHECK_INTERVAL)
                    .sslContext());
        TlsEchoServer foreignServer =
            new TlsEchoServer(
                ServerTls.load(
                        TlsFiles.identity(
                            otherCa.files().certificateChain().orElseThrow(),
                            otherCa.files().privateKey().orElseThrow()),
                        ClientAuth.NONE)
                    .sslContext())) {
      expiredRefusal =
          catchThrowable(
              () -> TlsClients.connect(certificates.trustingClient(), expiredServer.port()));
      foreignRefusal =
          catchThrowable(
              () -> TlsClients.connect(certificates.trustingClient(), foreignServer.port()));
    }

    assertThat(expiredRefusal).isNotNull();
    assertThat(ExpiringCertificates.refusedAsExpired(expiredRefusal)).isTrue();
    assertThat(foreignRefusal).isNotNull();
    assertThat(ExpiringCertificates.refusedAsExpired(foreignRefusal)).isFalse();
    assertThat(ExpiringCertificates.refusedAsExpired(new java.io.IOException("closed"))).isFalse();
  }
}
