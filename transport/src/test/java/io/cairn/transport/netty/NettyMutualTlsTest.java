package io.cairn.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import io.cairn.tls.ClientAuth;
import io.cairn.tls.ExpiringCertificates;
import io.cairn.tls.PemPair;
import io.cairn.tls.ReloadingTrustManager;
import io.cairn.tls.ServerTls;
import io.cairn.transport.MessagingException;
import io.cairn.transport.TransportMetrics;
import io.cairn.transport.TransportTls;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutual TLS between members on loopback, with certificates of the tls module's local CA: members
 * of one CA talk; a foreign CA, an expired certificate (also one that expires while its member
 * runs), a certificate that does not name the address dialled and a plaintext member are refused
 * before any frame is dispatched, logged and counted.
 */
class NettyMutualTlsTest {

  private static final int MAX_FRAME_SIZE_BYTES = 64 * 1024;

  private static final String KEY_PREFIX = "transport.tls.";

  /** Generous: a slow machine must only make these tests slower, never fail them. */
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @TempDir Path dir;
  private TransportPki pki;
  private final ExecutorService handlerThreads = Executors.newSingleThreadExecutor();
  private final List<NettyMessagingService> services = new ArrayList<>();
  private final Map<Integer, SimpleMeterRegistry> registries = new HashMap<>();
  private final Map<Integer, AtomicInteger> handled = new HashMap<>();
  private LogCapture refusalLog;
  private LogCapture trustLog;

  @BeforeEach
  void setUp() {
    pki = new TransportPki(dir, "Cairn test CA");
    refusalLog = new LogCapture(TlsRefusals.class);
    trustLog = new LogCapture(ReloadingTrustManager.class);
  }

  @AfterEach
  void tearDown() {
    refusalLog.close();
    trustLog.close();
    services.forEach(NettyMessagingService::close);
    handlerThreads.shutdownNow();
  }

  @Test
  void shouldExchangeRequestsAndResponsesBetweenMembersOfTheSameCa() {
    NettyMessagingService first = member(0, Optional.of(pki.tls(pki.write("broker-0"))));
    NettyMessagingService second = member(1, Optional.of(pki.tls(pki.write("broker-1"))));
    introduce(first, second);

    String fromFirst = text(join(first.sendAndReceive(1, "echo", bytes("ping"), TIMEOUT)));
    String fromSecond = text(join(second.sendAndReceive(0, "echo", bytes("pong"), TIMEOUT)));

    assertThat(fromFirst).isEqualTo("0:ping");
    assertThat(fromSecond).isEqualTo("1:pong");
    assertThat(handshakesFailed(0, "server") + handshakesFailed(0, "client")).isZero();
    assertThat(handshakesFailed(1, "server") + handshakesFailed(1, "client")).isZero();
    assertThat(refusalLog.messages(Level.WARN)).isEmpty();
  }

  @Test
  void shouldRefuseAMemberWhoseCertificateIsSignedByAForeignCa() {
    NettyMessagingService member = member(0, Optional.of(pki.tls(pki.write("broker-0"))));
    TransportPki foreign = new TransportPki(dir, "Foreign CA");
    // The intruder trusts the cluster's CA too, so that the refusal is the member's, not its own.
    TransportTls intruderTls =
        TransportPki.tls(
            foreign.write("intruder"), foreign.bundleWith(pki), java.time.Clock.systemUTC());
    NettyMessagingService intruder = member(2, Optional.of(intruderTls));
    introduce(member, intruder);

    CompletableFuture<byte[]> request = intruder.sendAndReceive(0, "echo", bytes("x"), TIMEOUT);

    assertUnreachable(request);
    awaitWarning(
        "Expected a TLS handshake with a certificate of the cluster's CA from /127.0.0.1:",
        "certification path",
        "(node 0)");
    assertThat(handshakesFailed(0, "server")).isEqualTo(1);
    awaitWarning("Expected a TLS connection to member 0 at " + member.localAddress(), "(node 2)");
    assertThat(handshakesFailed(2, "client")).isEqualTo(1);
    assertThat(handled.get(0)).hasValue(0);
    assertThat(framesReceived(0)).isZero();
  }

  @Test
  void shouldRefuseAMemberThatPresentsAForeignCertificateAsServer() {
    NettyMessagingService member = member(0, Optional.of(pki.tls(pki.write("broker-0"))));
    TransportPki foreign = new TransportPki(dir, "Foreign CA");
    NettyMessagingService intruder =
        member(
            2,
            Optional.of(
                TransportPki.tls(
                    foreign.write("intruder"),
                    foreign.bundleWith(pki),
                    java.time.Clock.systemUTC())));
    introduce(member, intruder);

    CompletableFuture<byte[]> request = member.sendAndReceive(2, "echo", bytes("x"), TIMEOUT);

    assertUnreachable(request);
    awaitWarning(
        "Expected a TLS connection to member 2 at " + intruder.localAddress(),
        "the TLS handshake failed",
        "certification path");
    assertThat(handshakesFailed(0, "client")).isEqualTo(1);
    assertThat(handled.get(2)).hasValue(0);
  }

  @Test
  void shouldRefuseAnExpiredClientCertificate() {
    NettyMessagingService member = member(0, Optional.of(pki.tls(pki.write("broker-0"))));
    PemPair expired =
        pki.ca
            .leaf("broker-1", pki.now.minus(Duration.ofDays(2)), pki.now.minus(Duration.ofDays(1)))
            .issue()
            .writeInto(dir, "broker-1");
    // The tls module refuses to load an expired certificate: load it at a time it was valid.
    SimWallClock then = new SimWallClock(pki.now.minus(Duration.ofHours(36)));
    NettyMessagingService late =
        member(1, Optional.of(TransportPki.tls(expired, pki.caFile, then)));
    introduce(member, late);

    CompletableFuture<byte[]> request = late.sendAndReceive(0, "echo", bytes("x"), TIMEOUT);

    assertUnreachable(request);
    awaitWarning("from /127.0.0.1:", "CertificateExpiredException", "(node 0)");
    assertThat(handshakesFailed(0, "server")).isEqualTo(1);
    assertThat(handled.get(0)).hasValue(0);
    assertThat(framesReceived(0)).isZero();
  }

  @Test
  void shouldRefuseAMemberWhoseCertificateExpiredWhileItRuns() {
    ExpiringCertificates certificates = new ExpiringCertificates(dir.resolve("expiry"));
    ExpiringCertificates.Issued shortLived = certificates.shortLived("broker-0", KEY_PREFIX);
    NettyMessagingService expiring = member(0, Optional.of(tls(shortLived)));
    NettyMessagingService early =
        member(1, Optional.of(tls(certificates.valid("broker-1", KEY_PREFIX))));
    introduce(expiring, early);
    // while its certificate is valid, the member talks both ways
    assertThat(text(join(early.sendAndReceive(0, "echo", bytes("ping"), TIMEOUT))))
        .isEqualTo("1:ping");
    assertThat(text(join(expiring.sendAndReceive(1, "echo", bytes("pong"), TIMEOUT))))
        .isEqualTo("0:pong");

    shortLived.awaitExpiry();
    NettyMessagingService late =
        member(2, Optional.of(tls(certificates.valid("broker-2", KEY_PREFIX))));
    late.setMemberAddress(0, expiring.localAddress());
    late.setMemberAddress(2, late.localAddress());
    expiring.setMemberAddress(2, late.localAddress());
    CompletableFuture<byte[]> toExpired = late.sendAndReceive(0, "echo", bytes("x"), TIMEOUT);
    assertUnreachable(toExpired);
    CompletableFuture<byte[]> fromExpired = expiring.sendAndReceive(2, "echo", bytes("y"), TIMEOUT);
    assertUnreachable(fromExpired);

    // a new connection checks it: refused as the server's and as the client's certificate (the
    // member that refused counts it on its own event loop: wait for it)
    await()
        .atMost(TIMEOUT)
        .untilAsserted(
            () -> {
              assertThat(handshakesFailed(2, "client")).isEqualTo(1);
              assertThat(handshakesFailed(2, "server")).isEqualTo(1);
            });
    await()
        .atMost(TIMEOUT)
        .untilAsserted(
            () ->
                assertThat(trustLog.messages(Level.WARN))
                    .anySatisfy(
                        m ->
                            assertThat(m)
                                .contains(
                                    "Expected the server's certificate chain to be valid now",
                                    "subject=CN=broker-0",
                                    "has expired"))
                    .anySatisfy(
                        m ->
                            assertThat(m)
                                .contains(
                                    "Expected the client's certificate chain to be valid now",
                                    "subject=CN=broker-0",
                                    "has expired")));
    assertThat(handled.get(0)).hasValue(1); // the ping from before the expiry only
    assertThat(handled.get(2)).hasValue(0);
    assertThat(framesReceived(2)).isZero();
  }

  @Test
  void shouldRefuseAServerWhoseCertificateDoesNotNameTheAddressDialled() {
    NettyMessagingService dialling = member(0, Optional.of(pki.tls(pki.write("broker-0"))));
    PemPair elsewhere =
        pki.leaf("broker-1")
            .withoutLoopbackNames()
            .dnsNames("broker-1.cairn.test")
            .issue()
            .writeInto(dir, "broker-1");
    NettyMessagingService misnamed = member(1, Optional.of(pki.tls(elsewhere)));
    introduce(dialling, misnamed);

    CompletableFuture<byte[]> request = dialling.sendAndReceive(1, "echo", bytes("x"), TIMEOUT);

    assertUnreachable(request);
    awaitWarning(
        "Expected a TLS connection to member 1 at 127.0.0.1:",
        "the TLS handshake failed",
        "subject alternative names",
        "certificate names 127.0.0.1");
    assertThat(handshakesFailed(0, "client")).isEqualTo(1);
    assertThat(handled.get(1)).hasValue(0);
    // The same certificate is good as a client certificate: only the host check refused it.
    assertThat(text(join(misnamed.sendAndReceive(0, "echo", bytes("back"), TIMEOUT))))
        .isEqualTo("1:back");
  }

  @Test
  void shouldNotLetPlaintextAndTlsMembersTalkInEitherDirection() {
    NettyMessagingService secure = member(0, Optional.of(pki.tls(pki.write("broker-0"))));
    NettyMessagingService plain = member(1, Optional.empty());
    introduce(secure, plain);

    CompletableFuture<byte[]> plainToSecure = plain.sendAndReceive(0, "echo", bytes("x"), TIMEOUT);
    assertUnreachable(plainToSecure);
    awaitWarning("from /127.0.0.1:", "the peer does not speak TLS", "(node 0)");

    CompletableFuture<byte[]> secureToPlain = secure.sendAndReceive(1, "echo", bytes("y"), TIMEOUT);
    assertUnreachable(secureToPlain);
    awaitWarning(
        "Expected a TLS connection to member 1 at " + plain.localAddress(),
        "the connection closed before the TLS handshake completed");

    assertThat(handshakesFailed(0, "server")).isEqualTo(1);
    assertThat(handshakesFailed(0, "client")).isEqualTo(1);
    assertThat(handled.get(0)).hasValue(0);
    assertThat(handled.get(1)).hasValue(0);
    assertThat(framesReceived(0)).isZero();
    assertThat(framesReceived(1)).isZero();
  }

  @Test
  void shouldCountEveryRefusalButWarnOncePerPeerAndReason() {
    NettyMessagingService member = member(0, Optional.of(pki.tls(pki.write("broker-0"))));
    NettyMessagingService plain = member(1, Optional.empty());
    introduce(member, plain);

    await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              plain.send(0, "note", bytes("x")); // refused; the backoff paces the attempts
              return handshakesFailed(0, "server") >= 3;
            });

    assertThat(refusalLog.messages(Level.WARN))
        .filteredOn(message -> message.startsWith("Expected a TLS handshake"))
        .singleElement()
        .asString()
        .contains("the peer does not speak TLS");
    assertThat(refusalLog.messages(Level.DEBUG))
        .filteredOn(message -> message.startsWith("Expected a TLS handshake"))
        .hasSizeGreaterThanOrEqualTo(2);
  }

  /** Mutual TLS with {@code issued}'s files, checked on the system clock. */
  private static TransportTls tls(ExpiringCertificates.Issued issued) {
    return TransportPki.tls(
        ServerTls.load(
            issued.files(),
            ClientAuth.REQUIRED,
            java.time.Clock.systemUTC(),
            TransportPki.CHECK_INTERVAL));
  }

  private NettyMessagingService member(int nodeId, Optional<TransportTls> tls) {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    NettyMessagingService service =
        new NettyMessagingService(
            NettyTestCluster.config(nodeId, MAX_FRAME_SIZE_BYTES, 0),
            io.cairn.scheduler.Clock.system(),
            registry,
            tls);
    AtomicInteger count = new AtomicInteger();
    service.registerRequestHandler(
        "echo",
        (sender, payload) -> {
          count.incrementAndGet();
          return CompletableFuture.completedFuture(bytes(sender + ":" + text(payload)));
        },
        handlerThreads);
    service.registerMessageHandler(
        "note", (sender, payload) -> count.incrementAndGet(), handlerThreads);
    service.start();
    services.add(service);
    registries.put(nodeId, registry);
    handled.put(nodeId, count);
    return service;
  }

  private static void introduce(NettyMessagingService... members) {
    NettyTestCluster.introduce(List.of(members));
  }

  private double handshakesFailed(int nodeId, String role) {
    return registries
        .get(nodeId)
        .get(TransportMetrics.HANDSHAKES_FAILED)
        .tag("role", role)
        .counter()
        .count();
  }

  /** Requests and messages this member received, of any result. */
  private double framesReceived(int nodeId) {
    return registries.get(nodeId).find(TransportMetrics.MESSAGES_RECEIVED).counters().stream()
        .mapToDouble(Counter::count)
        .sum();
  }

  private void awaitWarning(String... parts) {
    await()
        .atMost(TIMEOUT)
        .untilAsserted(
            () ->
                assertThat(refusalLog.messages(Level.WARN))
                    .anySatisfy(m -> assertThat(m).contains(parts)));
  }

  private static void assertUnreachable(CompletableFuture<byte[]> request) {
    assertThatThrownBy(() -> request.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS))
        .hasCauseInstanceOf(MessagingException.Unreachable.class);
  }

  private static byte[] join(CompletableFuture<byte[]> future) {
    return future.orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
