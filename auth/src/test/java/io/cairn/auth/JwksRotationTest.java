package io.cairn.auth;

import static io.cairn.auth.TestTokens.claims;
import static io.cairn.auth.TestTokens.sign;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import com.nimbusds.jose.jwk.RSAKey;
import com.sun.net.httpserver.HttpServer;
import io.cairn.auth.jwt.JwksCache;
import io.cairn.scheduler.SimClock;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A JWKS served over HTTP by a real server: fetched at start, on an unknown kid, on an interval.
 */
final class JwksRotationTest {

  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private static final Duration REFRESH = Duration.ofMinutes(10);
  private static final Duration MIN_REFRESH = Duration.ofSeconds(30);

  private static RSAKey first;
  private static RSAKey second;

  private final SimClock clock = new SimClock(NOW.toEpochMilli());
  private final AtomicReference<String> served = new AtomicReference<>();
  private final AtomicInteger status = new AtomicInteger(200);
  private final AtomicInteger requests = new AtomicInteger();
  private final LogCapture log = new LogCapture(JwksCache.class);
  private HttpServer server;

  @BeforeAll
  static void keys() {
    first = TestTokens.rsaKey("key-2026-01");
    second = TestTokens.rsaKey("key-2026-02");
  }

  @BeforeEach
  void startServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/.well-known/jwks.json",
        exchange -> {
          requests.incrementAndGet();
          byte[] body = served.get().getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(status.get(), body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
    served.set(TestTokens.jwks(first));
  }

  @AfterEach
  void stopServer() {
    server.stop(0);
    log.close();
  }

  @Test
  void shouldFetchANewKidOnDemandButNotMoreOftenThanTheMinimumInterval() {
    // given
    Authenticator authenticator = authenticator();
    assertThat(requests).hasValue(1);
    assertThat(authenticated(authenticator, first)).isTrue();
    assertThat(requests).as("a known kid is not fetched again").hasValue(1);

    // when the issuer rotates right after the start
    served.set(TestTokens.jwks(first, second));

    // then the new kid is not fetched within the minimum interval
    assertThat(failure(authenticator, second)).isEqualTo(AuthFailure.UNKNOWN_SIGNING_KEY);
    assertThat(requests).hasValue(1);

    // when the minimum interval has passed
    clock.advance(MIN_REFRESH);

    // then the unknown kid makes one fetch, and the token is accepted
    assertThat(authenticated(authenticator, second)).isTrue();
    assertThat(requests).hasValue(2);
    assertThat(authenticated(authenticator, first)).isTrue();

    // and made up kids do not make more fetches
    RSAKey madeUp = TestTokens.rsaKey("made-up");
    for (int i = 0; i < 5; i++) {
      assertThat(failure(authenticator, madeUp)).isEqualTo(AuthFailure.UNKNOWN_SIGNING_KEY);
    }
    assertThat(requests).hasValue(2);
  }

  @Test
  void shouldDropARetiredKeyAtTheNextPeriodicRefresh() {
    // given
    Authenticator authenticator = authenticator();
    served.set(TestTokens.jwks(second));

    // when not yet due
    clock.advance(REFRESH.minusSeconds(1));
    assertThat(authenticated(authenticator, first)).isTrue();
    assertThat(requests).hasValue(1);

    // when due
    clock.advance(Duration.ofSeconds(1));

    // then
    assertThat(failure(authenticator, first)).isEqualTo(AuthFailure.UNKNOWN_SIGNING_KEY);
    assertThat(requests).hasValue(2);
    assertThat(authenticated(authenticator, second)).isTrue();
  }

  @Test
  void shouldKeepTheKeysAndWarnOnceWhileTheIssuerFails() {
    // given
    Authenticator authenticator = authenticator();
    status.set(500);

    // when two refreshes fail
    clock.advance(REFRESH);
    assertThat(authenticated(authenticator, first)).isTrue();
    clock.advance(REFRESH);
    assertThat(authenticated(authenticator, first)).isTrue();

    // then
    assertThat(requests).hasValue(3);
    assertThat(log.messages(Level.WARN))
        .singleElement()
        .asString()
        .isEqualTo(
            "Expected a JWKS (JSON with a \"keys\" array) from JWKS "
                + uri()
                + ", but java.io.IOException: it answered HTTP 500, not 200. Keeping the 1 keys"
                + " read before");

    // when it answers again
    status.set(200);
    clock.advance(REFRESH);
    assertThat(authenticated(authenticator, first)).isTrue();

    // then
    assertThat(log.messages(Level.INFO)).anySatisfy(m -> assertThat(m).contains("again: 1 usable"));
  }

  @Test
  void shouldStartWhileTheIssuerIsDownAndAcceptTokensOnceItAnswers() {
    // given
    status.set(503);
    Authenticator authenticator = authenticator();

    // then tokens are refused, keys unavailable
    assertThat(failure(authenticator, first)).isEqualTo(AuthFailure.KEYS_UNAVAILABLE);
    assertThat(log.messages(Level.WARN))
        .singleElement()
        .asString()
        .endsWith("Bearer tokens are refused until it can be read");

    // when it answers, after the minimum interval
    status.set(200);
    clock.advance(MIN_REFRESH);

    // then
    assertThat(authenticated(authenticator, first)).isTrue();
    assertThat(requests).hasValue(2);
  }

  private Authenticator authenticator() {
    return Authenticator.create(
        AuthSettings.builder()
            .enabled(true)
            .jwksUri(uri())
            .issuer(TestTokens.ISSUER)
            .audience(TestTokens.AUDIENCE)
            .jwksRefreshInterval(REFRESH)
            .jwksMinRefreshInterval(MIN_REFRESH)
            .build(),
        clock);
  }

  private String uri() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/.well-known/jwks.json";
  }

  private boolean authenticated(Authenticator authenticator, RSAKey key) {
    String token = sign(key, claims(Instant.ofEpochMilli(clock.millis()), "alice").build());
    return authenticator.authenticate("Bearer " + token).principalIfAuthenticated().isPresent();
  }

  private AuthFailure failure(Authenticator authenticator, RSAKey key) {
    String token = sign(key, claims(Instant.ofEpochMilli(clock.millis()), "alice").build());
    return ((AuthOutcome.Unauthenticated) authenticator.authenticate("Bearer " + token)).failure();
  }
}
