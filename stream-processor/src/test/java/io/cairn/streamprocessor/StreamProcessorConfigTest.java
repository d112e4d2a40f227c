package io.cairn.streamprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

final class StreamProcessorConfigTest {

  @Test
  void shouldUseTheDocumentedDefaults() {
    StreamProcessorConfig config = StreamProcessorConfig.defaults();

    assertThat(config.maxRecordsPerTurn()).isEqualTo(100);
    assertThat(config.writeRetryDelay()).isEqualTo(Duration.ofMillis(10));
    assertThat(config.toBuilder().build().toString()).isEqualTo(config.toString());
  }

  @Test
  void shouldRejectOutOfRangeSettingsNamingThem() {
    assertThatThrownBy(() -> StreamProcessorConfig.builder().maxRecordsPerTurn(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Expected maxRecordsPerTurn in [1, 100000], but was 0 (StreamProcessorConfig)");
    assertThatThrownBy(() -> StreamProcessorConfig.builder().writeRetryDelay(Duration.ZERO).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Expected writeRetryDelay in (0, PT10S], but was PT0S (StreamProcessorConfig)");
    assertThatThrownBy(
            () -> StreamProcessorConfig.builder().writeRetryDelay(Duration.ofSeconds(11)).build())
        .isInstanceOf(IllegalArgumentException.class);
  }
}
