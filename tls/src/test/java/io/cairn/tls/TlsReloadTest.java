package io.cairn.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Certificates renewed on disk are served from the next check on, through the same listening
 * socket; files that would not load leave the material in use in place, with one WARN.
 */
final class TlsReloadTest {

  private static final Duration INTERVAL = Duration.ofSeconds(10);

  @TempDir Path dir;
  private Pki pki;
  private SimClock clock;
  private LogCapture logs;
  private TlsEchoServer server;

  @BeforeEach
  void setUp() {
    pki = new Pki(dir);
    clock = new SimClock(pki.now);
    logs = new LogCapture();
  }

  @AfterEach
  void tearDown() throws Exception {
    if (server != null) {
      server.close();
    }
    logs.close();
  }

  @Test
  void shouldPresentTheNewCertificateAfterTheIntervalWithoutRestartingTheListener()
      throws Exception {
    IssuedCertificate first = pki.issue("broker-0");
    PemPair files = first.writeInto(dir, "broker-0");
    server = serve(Pki.identity(files));
    int port = server.port();
    assertThat(servedSerial()).isEqualTo(first.certificate().getSerialNumber());

    IssuedCertificate renewed = pki.issue("broker-0");
    renewed.writeInto(dir, "broker-0");
    BigInteger beforeTheInterval = servedSerial();
    clock.advance(INTERVAL);
    BigInteger afterTheInterval = servedSerial();

    assertThat(beforeTheInterval).isEqualTo(first.certificate().getSerialNumber());
    assertThat(afterTheInterval).isEqualTo(renewed.certificate().getSerialNumber());
    assertThat(server.port()).isEqualTo(port);
    assertThat(logs.messages(Level.INFO))
        .filteredOn(m -> m.startsWith("Reloaded TLS material"))
        .singleElement()
        .asString()
        .contains("subject=CN=broker-0")
        .contains("serial=" + CertificateText.serial(renewed.certificate()))
        .contains("notAfter=" + renewed.certificate().getNotAfter().toInstant());
    assertThat(logs.messages(Level.WARN)).isEmpty();
  }

  @Test
  void shouldKeepTheCertificateInUseWhenTheReplacementHasExpired() throws Exception {
    IssuedCertificate first = pki.issue("broker-0");
    PemPair files = first.writeInto(dir, "broker-0");
    server = serve(Pki.identity(files));

    pki.ca
        .leaf("broker-0", pki.now.minus(Duration.ofDays(1)), pki.now.minusSeconds(1))
        .issue()
        .writeInto(dir, "broker-0");
    clock.advance(INTERVAL);
    BigInteger afterTheExpiredOne = servedSerial();
    clock.advance(INTERVAL);
    BigInteger oneCheckLater = servedSerial();

    assertThat(afterTheExpiredOne).isEqualTo(first.certificate().getSerialNumber());
    assertThat(oneCheckLater).isEqualTo(first.certificate().getSerialNumber());
    assertThat(logs.messages(Level.WARN))
        .as("one WARN for the one refused content, however often it is checked")
        .singleElement()
        .asString()
        .contains("the material loaded before stays in use")
        .contains("has expired", "notAfter=")
        .contains(Pki.CHAIN_KEY + " = " + files.certificate());

    IssuedCertificate good = pki.issue("broker-0");
    good.writeInto(dir, "broker-0");
    clock.advance(INTERVAL);

    assertThat(servedSerial()).isEqualTo(good.certificate().getSerialNumber());
  }

  @Test
  void shouldWaitForTheCertificateWhenOnlyTheKeyHasBeenReplacedSoFar() throws Exception {
    IssuedCertificate first = pki.issue("broker-0");
    PemPair files = first.writeInto(dir, "broker-0");
    server = serve(Pki.identity(files));

    IssuedCertificate renewed = pki.issue("broker-0");
    renewed.writePrivateKey(files.privateKey());
    clock.advance(INTERVAL);
    BigInteger halfway = servedSerial();
    renewed.writeCertificate(files.certificate());
    clock.advance(INTERVAL);
    BigInteger complete = servedSerial();

    assertThat(halfway).isEqualTo(first.certificate().getSerialNumber());
    assertThat(complete).isEqualTo(renewed.certificate().getSerialNumber());
    assertThat(logs.messages(Level.WARN))
        .singleElement()
        .asString()
        .contains("its public key differs", Pki.KEY_KEY + " = " + files.privateKey());
  }

  @Test
  void shouldKeepTheMaterialInUseWhileAFileIsMissing() throws Exception {
    IssuedCertificate first = pki.issue("broker-0");
    PemPair files = first.writeInto(dir, "broker-0");
    ServerTls tls = ServerTls.load(Pki.identity(files), ClientAuth.NONE, clock, INTERVAL);

    Files.delete(files.certificate());
    boolean reloaded = tls.material().checkNow();

    assertThat(reloaded).isFalse();
    assertThat(tls.material().current().certificate()).contains(first.certificate());
    assertThat(logs.messages(Level.WARN))
        .singleElement()
        .asString()
        .contains("there is no such file", Pki.CHAIN_KEY + " = " + files.certificate());
  }

  @Test
  void shouldTakeChangedFilesAtOnceOnCheckNowAndReportNothingNewForUnchangedOnes() {
    IssuedCertificate first = pki.issue("broker-0");
    PemPair files = first.writeInto(dir, "broker-0");
    ServerTls tls = ServerTls.load(Pki.identity(files), ClientAuth.NONE, clock, INTERVAL);

    boolean unchanged = tls.material().checkNow();
    first.writeInto(dir, "broker-0"); // rewritten, same bytes
    boolean rewritten = tls.material().checkNow();
    IssuedCertificate renewed = pki.issue("broker-0");
    renewed.writeInto(dir, "broker-0");
    boolean changed = tls.material().checkNow();

    assertThat(unchanged).isFalse();
    assertThat(rewritten).isFalse();
    assertThat(changed).isTrue();
    assertThat(tls.material().current().certificate()).contains(renewed.certificate());
  }

  @Test
  void shouldAcceptClientsOfACaAddedToTheBundle() throws Exception {
    PemPair broker = pki.write("broker-0");
    Path bundle = dir.resolve("bundle.crt");
    Files.copy(pki.caFile, bundle);
    TlsFile trust = new TlsFile(Pki.CA_KEY, bundle);
    server =
        serve(
            TlsFiles.identityAndTrust(
                Pki.chain(broker.certificate()), Pki.key(broker.privateKey()), trust),
            ClientAuth.REQUIRED);
    Pki second = new Pki(dir, "Second CA");
    PemPair client = second.write("gateway");
    TlsFiles clientFiles =
        TlsFiles.identityAndTrust(
            Pki.chain(client.certificate()), Pki.key(client.privateKey()), pki.trust());

    assertThatThrownBy(() -> connect(clientFiles)).isInstanceOf(IOException.class);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(logs.messages(Level.WARN))
                    .singleElement()
                    .asString()
                    .contains("subject=CN=gateway", "issuer=CN=Second CA"));
    assertThat(server.nextOutcome().failure()).isNotNull();

    Files.writeString(
        bundle, PemTexts.read(pki.caFile) + PemTexts.read(second.caFile)); // both CAs now
    clock.advance(INTERVAL);
    connect(clientFiles);

    assertThat(server.nextOutcome().clientCertificate().getSubjectX500Principal().getName())
        .isEqualTo("CN=gateway");
  }

  private TlsEchoServer serve(TlsFiles files) throws IOException {
    return serve(files, ClientAuth.NONE);
  }

  private TlsEchoServer serve(TlsFiles files, ClientAuth clientAuth) throws IOException {
    return new TlsEchoServer(ServerTls.load(files, clientAuth, clock, INTERVAL).sslContext());
  }

  /** The serial the server presents now, seen by a new client (no session to resume). */
  private BigInteger servedSerial() throws IOException {
    return connect(pki.trustOnly()).serverCertificate().getSerialNumber();
  }

  private TlsClients.Connected connect(TlsFiles files) throws IOException {
    return TlsClients.connect(
        ClientTls.load(files, Clock.systemUTC(), INTERVAL).sslContext(), server.port());
  }
}
