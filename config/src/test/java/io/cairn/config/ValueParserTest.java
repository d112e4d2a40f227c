package io.cairn.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.units.ByteSizes;
import io.cairn.units.Durations;
import java.time.Duration;
import org.junit.jupiter.api.Test;

final class ValueParserTest {

  @Test
  void shouldParseDurationsWithUnits() throws Exception {
    var durations = ValueParser.duration(Duration.ZERO, Duration.ofDays(10));
    assertThat(durations.parse("250ms")).isEqualTo(Duration.ofMillis(250));
    assertThat(durations.parse("30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(durations.parse("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(durations.parse("2h")).isEqualTo(Duration.ofHours(2));
    assertThat(durations.parse("1d")).isEqualTo(Duration.ofDays(1));
    assertThat(durations.parse("PT1M30S")).isEqualTo(Duration.ofSeconds(90));
    assertThat(durations.parse("0")).isEqualTo(Duration.ZERO);
    assertThatThrownBy(() -> durations.parse("5"))
        .isInstanceOf(ConfigValueException.class)
        .hasMessage("'5'")
        .extracting(e -> ((ConfigValueException) e).rule())
        .isEqualTo("a duration in [0, 10d], with a unit (ms, s, m, h, d)");
    assertThatThrownBy(() -> durations.parse("11d")).isInstanceOf(ConfigValueException.class);
  }

  @Test
  void shouldParseSizesWithUnitsInPowersOf1024() throws Exception {
    var sizes = ValueParser.size(0, Long.MAX_VALUE, true);
    assertThat(sizes.parse("128MB")).isEqualTo(128L << 20);
    assertThat(sizes.parse("64kb")).isEqualTo(64L << 10);
    assertThat(sizes.parse("1GiB")).isEqualTo(1L << 30);
    assertThat(sizes.parse("2TB")).isEqualTo(2L << 40);
    assertThat(sizes.parse("4096")).isEqualTo(4096L);
    assertThatThrownBy(() -> sizes.parse("99999999999999TB"))
        .isInstanceOf(ConfigValueException.class);
    var bounded = ValueParser.size(64 * 1024, 1L << 40, true);
    assertThat(bounded.parse("0")).isZero();
    assertThatThrownBy(() -> bounded.parse("1KB")).isInstanceOf(ConfigValueException.class);
    assertThat(bounded.rule()).isEqualTo("0 (off) or a size in [64KB, 1TB]");
  }

  @Test
  void shouldPrintDurationsAndSizesInTheirShortestExactForm() {
    assertThat(ByteSizes.formatExact(128L << 20)).isEqualTo("128MB");
    assertThat(ByteSizes.formatExact(1000)).isEqualTo("1000B");
    assertThat(Durations.formatExact(Duration.ofMillis(2500))).isEqualTo("2500ms");
    assertThat(Durations.formatExact(Duration.ofMinutes(5))).isEqualTo("5m");
  }

  @Test
  void shouldParseHostAndPortIncludingBracketedIpv6() throws Exception {
    var addresses = ValueParser.hostAndPort();
    assertThat(addresses.parse("10.0.0.1:26502")).isEqualTo(new HostAndPort("10.0.0.1", 26502));
    assertThat(addresses.parse(" [::1]:26503 ")).isEqualTo(new HostAndPort("::1", 26503));
    assertThat(new HostAndPort("::1", 1)).hasToString("[::1]:1");
    for (String bad : new String[] {"no-port", ":1", "a:", "a:0", "a:65536", "a:x"}) {
      assertThatThrownBy(() -> addresses.parse(bad))
          .as(bad)
          .isInstanceOf(ConfigValueException.class);
    }
  }

  @Test
  void shouldReportAMappingThatRejectsTheValueAsOutsideTheRule() throws Exception {
    var even =
        ValueParser.integer(0, 10)
            .map(
                value -> {
                  if (value % 2 != 0) {
                    throw new IllegalArgumentException("odd");
                  }
                  return value / 2;
                });
    assertThat(even.parse("8")).isEqualTo(4);
    assertThat(even.rule()).isEqualTo("an integer in [0, 10]");
    assertThatThrownBy(() -> even.parse("3")).isInstanceOf(ConfigValueException.class);
  }

  @Test
  void shouldSuggestTheClosestKnownName() {
    assertThat(KeySuggestions.closest("cluster.nodeid", java.util.List.of("cluster.nodeId", "x")))
        .isEqualTo("cluster.nodeId");
    assertThat(KeySuggestions.distance("kitten", "sitting")).isEqualTo(3);
  }
}
