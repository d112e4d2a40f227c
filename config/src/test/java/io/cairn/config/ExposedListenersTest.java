package io.cairn.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
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
}
