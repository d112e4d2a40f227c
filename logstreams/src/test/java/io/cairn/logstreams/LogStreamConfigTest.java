package io.cairn.logstreams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class LogStreamConfigTest {

  @Test
  void shouldUseTheDocumentedDefaults() {
    LogStreamConfig config = LogStreamConfig.defaults();

    assertThat(config.maxInFlightAppends()).isEqualTo(4096);
    assertThat(config.maxBatchSizeBytes()).isEqualTo(1024 * 1024);
    assertThat(config.toBuilder().build().toString()).isEqualTo(config.toString());
  }

  @Test
  void shouldRejectOutOfRangeSettingsNamingThem() {
    assertThatThrownBy(() -> LogStreamConfig.builder().maxInFlightAppends(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Expected maxInFlightAppends in [1, 10000], but was 0 (LogStreamConfig)");
    assertThatThrownBy(() -> LogStreamConfig.builder().maxBatchSizeBytes(1023).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Expected maxBatchSizeBytes in [1024, 67108864], but was 1023 (LogStreamConfig)");
  }
}
