package io.cairn.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.config.ExposedListeners.Listener;
import io.cairn.config.ExposedListeners.Safeguard;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExposedListenersTest {

  @Test
  void shouldCountOnlyLoopbackAddressesAsPrivate() {
    assertThat(ExposedListeners.isLoopback("127.0.0.1")).isTrue();
    assertThat(ExposedListeners.isLoopback("127.3.4.5")).isTrue();
    assertThat(ExposedListeners.isLoopback("::1")).isTrue();
    assertThat(ExposedListeners.isLoopback("localhost")).isTrue();
    assertThat(ExposedListeners.isLoopback("0.0.0.0")).isFalse();
    assertThat(ExposedListeners.isLoopback("::")).isFalse();
    assertThat(ExposedListeners.isLoopback("10.1.2.3")).isFalse();
    assertThat(ExposedListeners.isLoopback("no-such-host.invalid")).isFalse();
  }

  @Test
  void shouldRefuseExposedListenersNamingEachUnlessAllowed() {
    Map<String, String> binds = new LinkedHashMap<>();
    binds.put("network.host", "0.0.0.0");
    binds.put("management.host", "127.0.0.1");
    binds.put("other.host", "10.1.2.3");
    ExposedListeners listeners = ExposedListeners.of("security.allowInsecure", binds);

    assertThat(listeners.any()).isTrue();
    assertThat(listeners.refusal(false))
        .contains(
            "Expected network.host 0.0.0.0, other.host 10.1.2.3 to be a loopback address"
                + " (127.0.0.1, ::1, localhost), since its connections are neither encrypted nor"
                + " authenticated, but they are not. Bind a loopback address, or set"
                + " security.allowInsecure: true to accept plaintext, unauthenticated listeners on"
                + " the network");
    assertThat(listeners.refusal(true)).isEmpty();
    assertThat(listeners.warning())
        .startsWith(
            "Serving plaintext, unauthenticated connections beyond this machine on network.host"
                + " 0.0.0.0, other.host 10.1.2.3 (security.allowInsecure: true)");
  }

  @Test
  void shouldAcceptLoopbackListeners() {
    ExposedListeners listeners =
        ExposedListeners.of("security.allowInsecure", Map.of("network.host", "127.0.0.1"));

    assertThat(listeners.any()).isFalse();
    assertThat(listeners.refusal(false)).isEmpty();
  }

  @Test
  void shouldAcceptAListenerWithEverySafeguardOnAndNameTheOnesMissingElsewhere() {
    Safeguard tls = Safeguard.encryption("gateway.security.tls.enabled");
    Safeguard auth = Safeguard.authentication("gateway.security.auth.enabled");
    ExposedListeners listeners =
        ExposedListeners.of(
            "gateway.security.allowInsecure",
            List.of(
                new Listener("gateway.transport.host", "10.1.2.3", List.of(tls, auth)),
                new Listener("gateway.grpc.host", "0.0.0.0", List.of(auth)),
                new Listener("gateway.http.host", "0.0.0.0", List.of(auth)),
                new Listener("gateway.other.host", "0.0.0.0", List.of())));

    assertThat(listeners.refusal(false))
        .contains(
            "Expected gateway.transport.host 10.1.2.3 to be a loopback address (127.0.0.1, ::1,"
                + " localhost), since its connections are neither encrypted nor authenticated, but"
                + " it is not. Set gateway.security.tls.enabled: true and"
                + " gateway.security.auth.enabled: true, bind a loopback address, or set"
                + " gateway.security.allowInsecure: true to accept plaintext, unauthenticated"
                + " listeners on the network; Expected gateway.grpc.host 0.0.0.0, gateway.http.host"
                + " 0.0.0.0 to be a loopback address (127.0.0.1, ::1, localhost), since its"
                + " connections are not authenticated, but they are not. Set"
                + " gateway.security.auth.enabled: true, bind a loopback address, or set"
                + " gateway.security.allowInsecure: true to accept unauthenticated listeners on the"
                + " network");
    assertThat(listeners.warning())
        .contains(
            "Serving unauthenticated connections beyond this machine on gateway.grpc.host 0.0.0.0,"
                + " gateway.http.host 0.0.0.0 (gateway.security.allowInsecure: true)")
        .doesNotContain("gateway.other.host");
  }

  @Test
  void shouldWarnThatPlaintextCarriesCredentialsWhenOnlyEncryptionIsMissing() {
    ExposedListeners listeners =
        ExposedListeners.of(
            "gateway.security.allowInsecure",
            List.of(
                new Listener(
                    "gateway.grpc.host",
                    "0.0.0.0",
                    List.of(Safeguard.encryption("gateway.security.tls.enabled")))));

    assertThat(listeners.refusal(false).orElseThrow())
        .contains("since its connections are not encrypted, but it is not")
        .contains("Set gateway.security.tls.enabled: true, bind a loopback address")
        .endsWith("to accept plaintext listeners on the network");
    assertThat(listeners.warning())
        .isEqualTo(
            "Serving plaintext connections beyond this machine on gateway.grpc.host 0.0.0.0"
                + " (gateway.security.allowInsecure: true): whoever sees this traffic can read the"
                + " credentials and data it carries");
  }

  @Test
  void shouldNotCountAProtectedListenerAsExposed() {
    ExposedListeners listeners =
        ExposedListeners.of(
            "gateway.security.allowInsecure",
            List.of(new Listener("gateway.grpc.host", "0.0.0.0", List.of())));

    assertThat(listeners.any()).isFalse();
    assertThat(listeners.refusal(false)).isEmpty();
  }

  @Test
  void shouldNameAKeyThatTurnsOnTwoSafeguardsOnce() {
    String tls = "gateway.security.tls.enabled";
    ExposedListeners listeners =
        ExposedListeners.of(
            "gateway.security.allowInsecure",
            List.of(
                new Listener(
                    "gateway.transport.host",
                    "0.0.0.0",
                    List.of(Safeguard.encryption(tls), Safeguard.authentication(tls)))));

    assertThat(listeners.refusal(false).orElseThrow())
        .contains(
            "since its connections are neither encrypted nor authenticated, but it is not. Set"
                + " gateway.security.tls.enabled: true, bind a loopback address");
  }
}
