package io.cairn.transport.netty;

import static java.nio.file.StandardCopyOption.REPLACE_EXISTING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cairn.tls.ClientTls;
import io.cairn.tls.IssuedCertificate;
import io.cairn.tls.PemPair;
import io.cairn.tls.TlsFile;
import io.cairn.tls.TlsFiles;
import io.cairn.transport.MemberAddress;
import io.cairn.transport.TransportMetrics;
import io.cairn.transport.TransportTls;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.EOFException;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member's certificate files replaced by a newly issued certificate are used by its next
 * connections, as server and as client, without restarting the messaging service: the tls module's
 * managers reload the files once their check interval has passed on the material's clock.
 */
class NettyTlsReloadTest {

  private static final int MAX_FRAME_SIZE_BYTES = 64 * 1024;
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @TempDir Path dir;
  private TransportPki pki;
  private SimWallClock materialClock;
  private final ExecutorService handlerThreads = Executors.newSingleThreadExecutor();
  private final List<NettyMessagingService> services = new ArrayList<>();
  private RecordingTlsServer recorder;

  @BeforeEach
  void setUp() {
    pki = new TransportPki(dir, "Cairn test CA");
    materialClock = new SimWallClock(pki.now);
  }

  @AfterEach
  void tearDown() throws Exception {
    services.forEach(NettyMessagingService::close);
    handlerThreads.shutdownNow();
    if (recorder != null) {
      recorder.close();
    }
  }

  @Test
  void shouldPresentARenewedServerCertificateToNewConnectionsWithoutARestart() throws IOException {
    IssuedCertificate first = pki.leaf("broker-0").issue();
    PemPair files = first.writeInto(dir, "broker-0");
    NettyMessagingService renewing = start(0, TransportPki.tls(files, pki.caFile, materialClock));
    NettyMessagingService peer = start(1, pki.tls(pki.write("broker-1")));
    NettyTestCluster.introduce(List.of(renewing, peer));
    MemberAddress address = renewing.localAddress();
    BigInteger before = servedSerial(address);

    IssuedCertificate renewed = pki.leaf("broker-0").issue();
    renewed.writeInto(dir, "broker-0");
    BigInteger withinTheInterval = servedSerial(address);
    materialClock.advance(TransportPki.CHECK_INTERVAL);
    BigInteger afterTheInterval = servedSerial(address);

    assertThat(before).isEqualTo(first.certificate().getSerialNumber());
    assertThat(withinTheInterval).isEqualTo(first.certificate().getSerialNumber());
    assertThat(afterTheInterval)
        .isEqualTo(renewed.certificate().getSerialNumber())
        .isNotEqualTo(before);
    assertThat(renewing.localAddress()).isEqualTo(address);
    assertThat(echo(peer, 0, "still")).isEqualTo("still");
  }

  @Test
  void shouldPresentARenewedClientCertificateOnTheNextConnection() throws Exception {
    recorder =
        new RecordingTlsServer(
            TransportPki.serverTls(pki.write("recorder"), pki.caFile, Clock.systemUTC())
                .sslContext());
    IssuedCertificate first = pki.leaf("broker-0").issue();
    PemPair files = first.writeInto(dir, "broker-0");
    NettyMessagingService renewing = start(0, TransportPki.tls(files, pki.caFile, materialClock));
    renewing.setMemberAddress(9, new MemberAddress("127.0.0.1", recorder.port()));

    renewing.sendAndReceive(9, "echo", bytes("x"), TIMEOUT); // the recorder closes it unanswered
    BigInteger before = recorder.clientSerials().poll(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    IssuedCertificate renewed = pki.leaf("broker-0").issue();
    renewed.writeInto(dir, "broker-0");
    materialClock.advance(TransportPki.CHECK_INTERVAL);
    await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              renewing.sendAndReceive(9, "echo", bytes("y"), TIMEOUT);
              return !recorder.clientSerials().isEmpty();
            });
    BigInteger after = recorder.clientSerials().poll();

    assertThat(before).isEqualTo(first.certificate().getSerialNumber());
    // A resumed TLS session would carry the first certificate again.
    assertThat(after).isEqualTo(renewed.certificate().getSerialNumber());
  }

  @Test
  void shouldCheckAResumedSessionAgainstTheBundleInUse() throws IOException {
    Path bundle = dir.resolve("bundle.crt");
    Files.copy(pki.caFile, bundle);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    NettyMessagingService member =
        start(0, TransportPki.tls(pki.write("broker-0"), bundle, materialClock), registry);
    SSLContext client = clientTls(pki.write("client")).sslContext(); // one session cache
    String before = rawEcho(client, member.localAddress(), "before");

    // The cluster's CA leaves the bundle: its certificates are no longer trusted.
    Files.copy(new TransportPki(dir, "Other CA").caFile, bundle, REPLACE_EXISTING);
    materialClock.advance(TransportPki.CHECK_INTERVAL);

    assertThatThrownBy(() -> rawEcho(client, member.localAddress(), "resumed"))
        .isInstanceOf(IOException.class);
    assertThat(before).isEqualTo("before");
    assertThat(
            registry
                .get(TransportMetrics.HANDSHAKES_FAILED)
                .tag("role", "server")
                .counter()
                .count())
        .isEqualTo(1);
  }

  private NettyMessagingService start(int nodeId, TransportTls tls) {
    return start(nodeId, tls, new SimpleMeterRegistry());
  }

  private NettyMessagingService start(int nodeId, TransportTls tls, SimpleMeterRegistry registry) {
    NettyMessagingService service =
        NettyTestCluster.newService(
            NettyTestCluster.config(nodeId, MAX_FRAME_SIZE_BYTES, 0), registry, tls);
    service.registerRequestHandler(
        "echo", (sender, payload) -> CompletableFuture.completedFuture(payload), handlerThreads);
    service.start();
    services.add(service);
    return service;
  }

  /**
   * The serial of the certificate {@code address} presents to a new JDK client with a certificate
   * of the cluster's CA (a new client context each time: nothing to resume).
   */
  private BigInteger servedSerial(MemberAddress address) throws IOException {
    ClientTls tls = clientTls(pki.write("client"));
    try (SSLSocket socket =
        (SSLSocket)
            tls.sslContext().getSocketFactory().createSocket(address.host(), address.port())) {
      socket.setSoTimeout((int) TIMEOUT.toMillis());
      socket.startHandshake();
      return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
    }
  }

  private ClientTls clientTls(PemPair identity) {
    return ClientTls.load(
        TlsFiles.identityAndTrust(
            new TlsFile("client.certificateChainFile", identity.certificate()),
            new TlsFile("client.privateKeyFile", identity.privateKey()),
            new TlsFile("client.trustedCertificatesFile", pki.caFile)),
        Clock.systemUTC(),
        TransportPki.CHECK_INTERVAL);
  }

  /**
   * Sends one "echo" request frame over a JDK TLS socket of {@code context} (whose session cache
   * keeps what the member's session ticket allows to resume) and returns the answer's payload.
   */
  private static String rawEcho(SSLContext context, MemberAddress address, String text)
      throws IOException {
    byte[] type = bytes("echo");
    byte[] payload = bytes(text);
    int length = FrameDescriptor.HEADER_LENGTH + type.length + payload.length;
    ByteBuffer frame =
        ByteBuffer.allocate(length)
            .putInt(length)
            .put(FrameDescriptor.VERSION)
            .put(FrameKind.REQUEST.code())
            .put(FrameStatus.OK.code())
            .put((byte) type.length)
            .putLong(1L)
            .putInt(7)
            .put(type)
            .put(payload);
    try (SSLSocket socket =
        (SSLSocket) context.getSocketFactory().createSocket(address.host(), address.port())) {
      socket.setSoTimeout((int) TIMEOUT.toMillis());
      socket.getOutputStream().write(frame.array());
      socket.getOutputStream().flush();
      byte[] response =
          socket.getInputStream().readNBytes(FrameDescriptor.HEADER_LENGTH + payload.length);
      if (response.length < FrameDescriptor.HEADER_LENGTH + payload.length) {
        throw new EOFException("the member closed the connection before answering");
      }
      return new String(
          response, FrameDescriptor.HEADER_LENGTH, payload.length, StandardCharsets.UTF_8);
    }
  }

  private static String echo(NettyMessagingService from, int to, String text) {
    return new String(
        from.sendAndReceive(to, "echo", bytes(text), TIMEOUT)
            .orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS)
            .join(),
        StandardCharsets.UTF_8);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
