package io.cairn.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TransportConfigTest {

  @Test
  void shouldUseDocumentedDefaults() {
    TransportConfig config = TransportConfig.builder(3).build();

    assertThat(config.localNodeId()).isEqualTo(3);
    assertThat(config.bindHost()).isEqualTo("127.0.0.1");
    assertThat(config.bindPort()).isEqualTo(26502);
    assertThat(config.members()).isEmpty();
    assertThat(config.maxFrameSizeBytes()).isEqualTo(4 * 1024 * 1024);
    assertThat(config.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(config.reconnectBackoffMin()).isEqualTo(Duration.ofMillis(100));
    assertThat(config.reconnectBackoffMax()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.ioThreadCount()).isEqualTo(2);
    assertThat(config.shutdownTimeout()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void shouldListEveryViolationNamingTheKey() {
    TransportConfig.Builder builder =
        TransportConfig.builder(-1)
            .bindPort(70_000)
            .maxFrameSizeBytes(10)
            .connectTimeout(Duration.ZERO)
            .reconnectBackoffMin(Duration.ofSeconds(20))
            .reconnectBackoffMax(Duration.ofSeconds(1))
            .ioThreadCount(0)
            .member(2, new MemberAddress("peer", 0));

    assertThatThrownBy(builder::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected localNodeId >= 0, but was -1")
        .hasMessageContaining("Expected bindPort in [0, 65535], but was 70000")
        .hasMessageContaining("Expected maxFrameSizeBytes in [1024, 268435456], but was 10")
        .hasMessageContaining("Expected connectTimeout in")
        .hasMessageContaining("Expected reconnectBackoffMin <= reconnectBackoffMax")
        .hasMessageContaining("Expected ioThreadCount in [1, 64], but was 0")
        .hasMessageContaining("Expected members.2 to have a port in [1, 65535]")
        .hasMessageContaining("(transport config of node -1)");
  }

  @Test
  void shouldAcceptEphemeralBindPortAndKeepMembersImmutable() {
    TransportConfig config =
        TransportConfig.builder(0)
            .bindPort(0)
            .member(1, MemberAddress.parse("10.0.0.2:26502"))
            .build();

    assertThat(config.bindPort()).isZero();
    assertThat(config.members()).containsEntry(1, new MemberAddress("10.0.0.2", 26502));
    assertThatThrownBy(() -> config.members().put(2, new MemberAddress("x", 1)))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(config.toBuilder().build().toString()).isEqualTo(config.toString());
  }

  @Test
  void shouldParseMemberAddresses() {
    assertThat(MemberAddress.parse("broker-1:26502"))
        .isEqualTo(new MemberAddress("broker-1", 26502));
    assertThat(MemberAddress.parse("[::1]:7000")).isEqualTo(new MemberAddress("::1", 7000));
    assertThat(new MemberAddress("::1", 7000)).hasToString("[::1]:7000");
    assertThatThrownBy(() -> MemberAddress.parse("no-port"))
        .hasMessageContaining("Expected host:port, but was 'no-port'");
    assertThatThrownBy(() -> MemberAddress.parse("host:abc")).hasMessageContaining("numeric port");
    assertThatThrownBy(() -> MemberAddress.parse("host:99999"))
        .hasMessageContaining("Expected a port in [0, 65535], but was 99999");
  }
}
