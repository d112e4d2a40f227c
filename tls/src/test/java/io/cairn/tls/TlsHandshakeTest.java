package io.cairn.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Clock;
import java.time.Duration;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real handshakes over loopback sockets, with the contexts of {@link ServerTls} and {@link
 * ClientTls}.
 */
final class TlsHandshakeTest {

  private static final Duration INTERVAL = TlsMaterialSource.DEFAULT_CHECK_INTERVAL;

  @TempDir Path dir;
  private Pki pki;
  private LogCapture logs;
  private TlsEchoServer server;

  @BeforeEach
  void setUp() {
    pki = new Pki(dir);
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
  void shouldConnectAClientThatTrustsTheServersCa() throws Exception {
    PemPair broker = pki.write("broker-0");
    ServerTls serverTls = ServerTls.load(Pki.identity(broker), ClientAuth.NONE, clock(), INTERVAL);
    server = new TlsEchoServer(serverTls.sslContext());

    TlsClients.Connected connected = TlsClients.connect(client(pki.trustOnly()), server.port());

    assertThat(connected.serverCertificate())
        .isEqualTo(serverTls.material().current().certificate().orElseThrow());
    assertThat(connected.protocol()).isEqualTo("TLSv1.3");
    assertThat(server.nextOutcome().failure()).isNull();
  }

  @Test
  void shouldSpeakTls12WithAnRsaCertificate() throws Exception {
    PemPair broker =
        pki.leaf("broker-rsa")
            .keyAlgorithm(KeyAlgorithm.RSA_2048)
            .issue()
            .writeInto(dir, "broker-rsa");
    ServerTls serverTls = ServerTls.load(Pki.identity(broker), ClientAuth.NONE, clock(), INTERVAL);
    server = new TlsEchoServer(serverTls.sslContext());

    TlsClients.Connected tls12 =
        TlsClients.connect(client(pki.trustOnly()), server.port(), "TLSv1.2");
    TlsClients.Connected tls13 =
        TlsClients.connect(client(pki.trustOnly()), server.port(), "TLSv1.3");

    assertThat(tls12.protocol()).isEqualTo("TLSv1.2");
    assertThat(tls12.serverCertificate().getPublicKey().getAlgorithm()).isEqualTo("RSA");
    assertThat(tls13.protocol()).isEqualTo("TLSv1.3");
  }

  @Test
  void shouldRefuseAServerWhoseCertificateComesFromAnotherCa() throws Exception {
    PemPair broker = pki.write("broker-0");
    server =
        new TlsEchoServer(
            ServerTls.load(Pki.identity(broker), ClientAuth.NONE, clock(), INTERVAL).sslContext());
    Pki foreign = new Pki(dir, "Foreign CA");

    assertThatThrownBy(() -> TlsClients.connect(client(foreign.trustOnly()), server.port()))
        .isInstanceOf(SSLHandshakeException.class);

    String serial = CertificateText.serial(certificate(broker));
    assertThat(logs.messages(Level.WARN))
        .singleElement()
        .asString()
        .contains("the server's certificate to be signed by a trusted CA")
        .contains("subject=CN=broker-0", "issuer=CN=Cairn test CA", "serial=" + serial)
        .contains("signed by none of them")
        .contains("[CN=Foreign CA]", Pki.CA_KEY + " = " + foreign.caFile)
        .contains("peer /127.0.0.1:" + server.port());
  }

  @Test
  void shouldRefuseAServerWhoseCertificateDoesNotNameTheHostDialled() throws Exception {
    PemPair elsewhere =
        pki.leaf("broker-7")
            .withoutLoopbackNames()
            .dnsNames("broker-7.example")
            .issue()
            .writeInto(dir, "broker-7");
    server =
        new TlsEchoServer(
            ServerTls.load(Pki.identity(elsewhere), ClientAuth.NONE, clock(), INTERVAL)
                .sslContext());

    assertThatThrownBy(() -> TlsClients.connect(client(pki.trustOnly()), server.port()))
        .isInstanceOf(SSLHandshakeException.class);

    assertThat(logs.messages(Level.WARN))
        .singleElement()
        .asString()
        .contains("subject=CN=broker-7")
        .contains("127.0.0.1");
  }

  @Test
  void shouldAcceptAClientWithACertificateOfTheClusterCaWhenClientsMustPresentOne()
      throws Exception {
    server = mutualTlsServer();
    PemPair client = pki.write("gateway");

    TlsClients.connect(client(pki.identityAndTrust(client)), server.port());

    assertThat(server.nextOutcome().clientCertificate()).isEqualTo(certificate(client));
  }

  @Test
  void shouldRefuseAClientWithoutACertificateWhenClientsMustPresentOne() throws Exception {
    server = mutualTlsServer();

    assertThatThrownBy(() -> TlsClients.connect(client(pki.trustOnly()), server.port()))
        .isInstanceOf(IOException.class);

    TlsEchoServer.Outcome outcome = server.nextOutcome();
    assertThat(outcome.failure())
        .isInstanceOf(SSLHandshakeException.class)
        .hasMessageContaining("Empty client certificate chain");
  }

  @Test
  void shouldRefuseAndNameAClientWhoseCertificateComesFromAForeignCa() throws Exception {
    server = mutualTlsServer();
    Pki foreign = new Pki(dir, "Foreign CA");
    PemPair intruder = foreign.write("intruder");
    // The intruder trusts the cluster's CA: only its own certificate is wrong.
    TlsFiles intruderFiles =
        TlsFiles.identityAndTrust(
            Pki.chain(intruder.certificate()), Pki.key(intruder.privateKey()), pki.trust());

    assertThatThrownBy(() -> TlsClients.connect(client(intruderFiles), server.port()))
        .isInstanceOf(IOException.class);

    assertThat(server.nextOutcome().failure()).isInstanceOf(SSLHandshakeException.class);
    assertThat(logs.messages(Level.WARN))
        .singleElement()
        .asString()
        .contains("the client's certificate to be signed by a trusted CA")
        .contains("subject=CN=intruder", "issuer=CN=Foreign CA")
        .contains("serial=" + CertificateText.serial(certificate(intruder)))
        .contains("signed by none of them", "[CN=Cairn test CA]")
        .contains("peer /127.0.0.1:");
  }

  @Test
  void shouldRefuseAndNameAClientWhoseCertificateHasExpired() throws Exception {
    server = mutualTlsServer();
    IssuedCertificate expired =
        pki.ca
            .leaf("old-client", pki.now.minus(Duration.ofDays(1)), pki.now.minusSeconds(60))
            .issue();
    // The loader refuses expired files, so this client holds its key in a plain JDK key store.
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keyManagers(expired), new javax.net.ssl.TrustManager[] {trustOf()}, null);

    assertThatThrownBy(() -> TlsClients.connect(context, server.port()))
        .isInstanceOf(IOException.class);

    assertThat(server.nextOutcome().failure()).isInstanceOf(SSLHandshakeException.class);
    assertThat(logs.messages(Level.WARN))
        .singleElement()
        .asString()
        .contains("subject=CN=old-client", "has expired", "notAfter=");
  }

  @Test
  void shouldFailTheHandshakeOfAPlaintextClient() throws Exception {
    PemPair broker = pki.write("broker-0");
    server =
        new TlsEchoServer(
            ServerTls.load(Pki.identity(broker), ClientAuth.NONE, clock(), INTERVAL).sslContext());

    int answer;
    try (Socket plain = new Socket("127.0.0.1", server.port())) {
      plain.setSoTimeout(10_000);
      OutputStream out = plain.getOutputStream();
      out.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = plain.getInputStream();
      answer = readOrEnd(in);
    }

    assertThat(server.nextOutcome().failure())
        .isInstanceOf(SSLException.class)
        .hasMessageContaining("Unsupported or unrecognized SSL message");
    assertThat(answer).as("first byte back: none, or a TLS alert record").isIn(-1, 0x15);
  }

  @Test
  void shouldEnableOnlyTls13And12OnEverySocketAndEngine() throws Exception {
    PemPair broker = pki.write("broker-0");
    ServerTls serverTls =
        ServerTls.load(pki.identityAndTrust(broker), ClientAuth.REQUIRED, clock(), INTERVAL);
    server = new TlsEchoServer(serverTls.sslContext());
    SSLContext clientContext = client(pki.identityAndTrust(pki.write("gateway")));

    assertThat(server.socket().getEnabledProtocols()).containsExactly("TLSv1.3", "TLSv1.2");
    assertThat(server.socket().getNeedClientAuth()).isTrue();
    SSLEngine engine = serverTls.sslContext().createSSLEngine();
    assertThat(engine.getEnabledProtocols()).containsExactly("TLSv1.3", "TLSv1.2");
    assertThat(engine.getNeedClientAuth()).isTrue();
    assertThat(serverTls.sslContext().getDefaultSSLParameters().getNeedClientAuth()).isTrue();
    try (SSLSocket socket = (SSLSocket) clientContext.getSocketFactory().createSocket()) {
      assertThat(socket.getEnabledProtocols()).containsExactly("TLSv1.3", "TLSv1.2");
    }
    SSLEngine clientEngine = clientContext.createSSLEngine("broker-0.example", 26502);
    assertThat(clientEngine.getEnabledProtocols()).containsExactly("TLSv1.3", "TLSv1.2");
    assertThat(clientEngine.getSSLParameters().getEndpointIdentificationAlgorithm())
        .isEqualTo("HTTPS");
    assertThat(serverTls.protocols()).containsExactly("TLSv1.3", "TLSv1.2");
  }

  @Test
  void shouldRefuseToStartAServerWithoutACaBundleWhenClientsMustPresentCertificates() {
    PemPair broker = pki.write("broker-0");

    assertThatThrownBy(
            () -> ServerTls.load(Pki.identity(broker), ClientAuth.REQUIRED, clock(), INTERVAL))
        .isInstanceOf(TlsConfigurationException.class)
        .hasMessageContaining("Expected a CA bundle to check client certificates against")
        .hasMessageContaining(Pki.CHAIN_KEY + " = " + broker.certificate());
  }

  @Test
  void shouldServeTheSameMaterialRequiringClientCertificatesWithoutReadingItAgain()
      throws Exception {
    PemPair broker = pki.write("broker-0");
    ServerTls plain =
        ServerTls.load(pki.identityAndTrust(broker), ClientAuth.NONE, clock(), INTERVAL);
    ServerTls mutual = plain.requiringClientCertificates();
    server = new TlsEchoServer(mutual.sslContext());

    assertThat(mutual.material()).isSameAs(plain.material());
    assertThat(mutual.clientAuth()).isEqualTo(ClientAuth.REQUIRED);
    assertThat(plain.trustManager()).isEmpty();
    assertThatThrownBy(() -> TlsClients.connect(client(pki.trustOnly()), server.port()))
        .isInstanceOf(IOException.class);
    PemPair client = pki.write("gateway");
    TlsClients.connect(client(pki.identityAndTrust(client)), server.port());
    assertThat(server.nextOutcome().failure()).isInstanceOf(SSLHandshakeException.class);
    assertThat(server.nextOutcome().clientCertificate()).isEqualTo(certificate(client));
    assertThatThrownBy(
            () ->
                ServerTls.load(Pki.identity(broker), ClientAuth.NONE, clock(), INTERVAL)
                    .requiringClientCertificates())
        .isInstanceOf(TlsConfigurationException.class)
        .hasMessageContaining("Expected a CA bundle to check client certificates against");
  }

  private TlsEchoServer mutualTlsServer() throws IOException {
    PemPair broker = pki.write("broker-0");
    return new TlsEchoServer(
        ServerTls.load(pki.identityAndTrust(broker), ClientAuth.REQUIRED, clock(), INTERVAL)
            .sslContext());
  }

  private static SSLContext client(TlsFiles files) {
    return ClientTls.load(files, clock(), INTERVAL).sslContext();
  }

  private javax.net.ssl.TrustManager trustOf() {
    return ClientTls.load(pki.trustOnly(), clock(), INTERVAL).trustManager();
  }

  private static Clock clock() {
    return Clock.systemUTC();
  }

  private static java.security.cert.X509Certificate certificate(PemPair pair) {
    TlsFiles files = Pki.identity(pair);
    return TlsMaterialSource.load(files, clock(), INTERVAL).current().certificate().orElseThrow();
  }

  private static javax.net.ssl.KeyManager[] keyManagers(IssuedCertificate issued) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    char[] password = "test".toCharArray();
    store.setKeyEntry(
        "client", issued.privateKey(), password, new Certificate[] {issued.certificate()});
    KeyManagerFactory factory = KeyManagerFactory.getInstance("PKIX");
    factory.init(store, password);
    return factory.getKeyManagers();
  }

  private static int readOrEnd(InputStream in) {
    try {
      return in.read();
    } catch (IOException e) {
      return -1; // reset by the server: also no answer
    }
  }
}
