package io.cairn.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LedgerEngineConfigTest {

  @Test
  void shouldUseDefaults() {
    // when
    LedgerEngineConfig config = LedgerEngineConfig.of(4);

    // then
    assertThat(config.partitionCount()).isEqualTo(4);
    assertThat(config.creditRetryInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(config.creditRetryIntervalMax()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.creditRetryCheckInterval()).isEqualTo(Duration.ofMillis(100));
    assertThat(config.maxCreditsPerRetry()).isEqualTo(1000);
    assertThat(config.toBuilder().build().toString()).isEqualTo(config.toString());
  }

  @Test
  void shouldListEveryViolation() {
    assertThatThrownBy(
            () ->
                LedgerEngineConfig.builder()
                    .creditRetryInterval(Duration.ofSeconds(2))
                    .creditRetryIntervalMax(Duration.ofSeconds(1))
                    .creditRetryCheckInterval(Duration.ofSeconds(3))
                    .maxCreditsPerRetry(0)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Expected partitionCount in [1, 32767], but was -1 (not set); Expected"
                + " creditRetryIntervalMax in [PT2S, PT1H], but was PT1S; Expected"
                + " creditRetryCheckInterval in [PT0.001S, PT2S], but was PT3S; Expected"
                + " maxCreditsPerRetry in [1, 1000000], but was 0 (LedgerEngineConfig)");
  }

  @Test
  void shouldRejectMissingOrTooLongRetryInterval() {
    assertThatThrownBy(
            () -> LedgerEngineConfig.builder().partitionCount(1).creditRetryInterval(null).build())
        .hasMessage("Expected creditRetryInterval to be set, but it is null (LedgerEngineConfig)");
    assertThatThrownBy(
            () ->
                LedgerEngineConfig.builder()
                    .partitionCount(1)
                    .creditRetryInterval(Duration.ofMinutes(11))
                    .build())
        .hasMessageStartingWith("Expected creditRetryInterval in [PT0.001S, PT10M], but was PT11M");
  }
}
