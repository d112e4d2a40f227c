package io.cairn.client;

import static io.cairn.client.ClientAssertions.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.protocol.api.AccountIdRule;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The client's own checks: the account-id rule, addresses, builder settings. */
final class ArgumentsTest {
  private static final long SEED = 0x5eed_c1e7L;
  private static final int TRIES = 20_000;

  /** Characters that stress the rule: ASCII, spaces, controls, multi-byte, surrogate halves. */
  private static final char[] ALPHABET = {
    'a', 'Z', '0', '-', '.', ' ', '\t', '\n', '\u0000', '\u007f', '\u0085', '\u00e9', '\u20ac',
    '\u3000', '\ud83d', '\ude00', '\u2028', '\uffff'
  };

  @Test
  void shouldAcceptExactlyTheAccountIdsTheEngineAccepts() {
    Random random = new Random(SEED);
    for (int i = 0; i < TRIES; i++) {
      String id = randomId(random);
      assertThat(Arguments.isValidAccountId(id))
          .as("seed %d, try %d, id %s", SEED, i, Arguments.quote(id))
          .isEqualTo(AccountIdRule.isValid(id));
    }
  }

  @Test
  void shouldDrawTheLengthLimitInUtf8Bytes() {
    assertThat(Arguments.isValidAccountId("a".repeat(128))).isTrue();
    assertThat(Arguments.isValidAccountId("a".repeat(129))).isFalse();
    assertThat(Arguments.isValidAccountId("\u20ac".repeat(42) + "ab")).isTrue(); // 128 bytes
    assertThat(Arguments.isValidAccountId("\u20ac".repeat(43))).isFalse(); // 129 bytes
    assertThat(Arguments.ACCOUNT_ID_RULE).isEqualTo(AccountIdRule.RULE);
  }

  @ParameterizedTest
  @CsvSource({
    "127.0.0.1:26500, 127.0.0.1, 26500",
    "gateway.example.com:1, gateway.example.com, 1",
    "[::1]:65535, ::1, 65535",
    "' localhost:9 ', localhost, 9"
  })
  void shouldParseHostAndPort(String text, String host, int port) {
    HostPort parsed = HostPort.parse("gateway", text);

    assertThat(parsed).isEqualTo(new HostPort(host, port));
    assertThat(HostPort.parse("gateway", parsed.toString())).isEqualTo(parsed);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "localhost",
        "localhost:",
        ":26500",
        "host:0",
        "host:65536",
        "host:-1",
        "host:26500:1",
        "::1:26500",
        "ho st:1",
        "host:12345678"
      })
  void shouldRefuseAnAddressThatIsNotHostColonPort(String text) {
    assertFailure(
        () -> HostPort.parse("gateway", text),
        ErrorCode.INVALID_ARGUMENT,
        "Expected gateway host:port (a host name, an IPv4 address or a bracketed IPv6 address)"
            + " with a port in [1, 65535], but was '"
            + text
            + "'");
  }

  @Test
  void shouldListEveryBadBuilderSettingAtOnce() {
    assertFailure(
        () -> CairnClient.builder().gateway("nope").requestTimeout(Duration.ZERO).build(),
        ErrorCode.INVALID_ARGUMENT,
        "Expected gateway host:port (a host name, an IPv4 address or a bracketed IPv6 address)"
            + " with a port in [1, 65535], but was 'nope' (CairnClient); Expected requestTimeout"
            + " in [PT0.001S, PT1H], but was PT0S (CairnClient)");
  }

  @Test
  void shouldBuildWithDefaults() {
    try (CairnClient client = CairnClient.builder().build()) {
      assertThat(client.gateway()).isEqualTo(new HostPort("127.0.0.1", 26500));
      assertThat(client.requestTimeout()).isEqualTo(Duration.ofSeconds(15));
    }
  }

  private static String randomId(Random random) {
    int length = random.nextInt(10) == 0 ? 120 + random.nextInt(20) : random.nextInt(6);
    StringBuilder id = new StringBuilder();
    for (int i = 0; i < length; i++) {
      id.append(
          random.nextInt(3) == 0
              ? ALPHABET[random.nextInt(ALPHABET.length)]
              : (char) ('a' + random.nextInt(26)));
    }
    return id.toString();
  }
}
