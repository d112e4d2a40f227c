package io.cairn.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DurationsTest {

  @Test
  void shouldReadEveryUnitInAnyCaseWithOptionalBlanks() {
    assertThat(Durations.parse("250ms")).contains(Duration.ofMillis(250));
    assertThat(Durations.parse("30s")).contains(Duration.ofSeconds(30));
    assertThat(Durations.parse("5 m")).contains(Duration.ofMinutes(5));
    assertThat(Durations.parse(" 2H ")).contains(Duration.ofHours(2));
    assertThat(Durations.parse("1d")).contains(Duration.ofDays(1));
    assertThat(Durations.parse("0")).contains(Duration.ZERO);
  }

  @Test
  void shouldReadIso8601() {
    assertThat(Durations.parse("PT1M30S")).contains(Duration.ofSeconds(90));
    assertThat(Durations.parse("pt20s")).contains(Duration.ofSeconds(20));
    assertThat(Durations.parse("P1D")).contains(Duration.ofDays(1));
  }

  @Test
  void shouldRefuseWhatIsNotInTheGrammar() {
    assertThat(Durations.parse("5")).isEmpty();
    assertThat(Durations.parse("5 minutes")).isEmpty();
    assertThat(Durations.parse("1w")).isEmpty();
    assertThat(Durations.parse("-5s")).isEmpty();
    assertThat(Durations.parse("P")).isEmpty();
    assertThat(Durations.parse("")).isEmpty();
    assertThat(Durations.parse(null)).isEmpty();
    assertThat(Durations.parse("1234567890123s")).as("13 digits").isEmpty();
    assertThat(Durations.parse("PT99999999999999999999H")).as("beyond Duration").isEmpty();
  }

  @Test
  void shouldNameTheGrammarWhenThrowing() {
    assertThatThrownBy(() -> Durations.parseOrThrow("soon"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Expected a duration like 500ms, 20s, 5m, 2h or PT20S, but was 'soon'");
  }

  @Test
  void shouldPrintTheShortestExactForm() {
    assertThat(Durations.formatExact(Duration.ZERO)).isEqualTo("0");
    assertThat(Durations.formatExact(Duration.ofMillis(2500))).isEqualTo("2500ms");
    assertThat(Durations.formatExact(Duration.ofSeconds(90))).isEqualTo("90s");
    assertThat(Durations.formatExact(Duration.ofMinutes(5))).isEqualTo("5m");
    assertThat(Durations.formatExact(Duration.ofHours(48))).isEqualTo("2d");
  }

  @Test
  void shouldPrintARoundedFormForPeople() {
    assertThat(Durations.formatRounded(Duration.ofMillis(850))).isEqualTo("850ms");
    assertThat(Durations.formatRounded(Duration.ofMillis(12_340))).isEqualTo("12.3s");
    assertThat(Durations.formatRounded(Duration.ofSeconds(125))).isEqualTo("2m05s");
  }

  @Test
  void shouldReadBackEveryExactForm() {
    long seed = Long.getLong("cairn.seed", System.nanoTime());
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < 10_000; i++) {
      long unit = new long[] {1, 1000, 60_000, 3_600_000, 86_400_000}[random.nextInt(5)];
      Duration duration = Duration.ofMillis(random.nextLong(0, 1_000_000) * unit);
      String text = Durations.formatExact(duration);
      assertThat(Durations.parse(text))
          .as("%s read back (seed %d: -Dcairn.seed=%d)", text, seed, seed)
          .contains(duration);
    }
  }
}
