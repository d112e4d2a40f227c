package io.cairn.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

final class BackupConfigTest {

  @Test
  void shouldHaveDocumentedDefaults() {
    BackupConfig config = BackupConfig.defaults();
    assertThat(config.maxConcurrentBackups()).isEqualTo(1);
    assertThat(config.maxPendingBackups()).isEqualTo(16);
    assertThat(config.uploadRateBytesPerSecond()).isZero();
    assertThat(config.confirmRetryDelay()).isEqualTo(Duration.ofMillis(100));
    assertThat(config.confirmMaxAttempts()).isEqualTo(50);
    assertThat(config.toBuilder().build().toString()).isEqualTo(config.toString());
  }

  @Test
  void shouldListEveryViolationWithKeyValueAndRange() {
    assertThatThrownBy(
            () ->
                BackupConfig.builder()
                    .maxConcurrentBackups(0)
                    .maxPendingBackups(1001)
                    .uploadRateBytesPerSecond(100)
                    .confirmRetryDelay(Duration.ZERO)
                    .confirmMaxAttempts(0)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Expected maxConcurrentBackups in [1, 16], but was 0; maxPendingBackups in [1, 1000],"
                + " but was 1001; uploadRateBytesPerSecond 0 (unlimited) or in [65536,"
                + " 1099511627776], but was 100; confirmRetryDelay in [PT0.001S, PT1M], but was PT0S;"
                + " confirmMaxAttempts in [1, 10000], but was 0 (BackupConfig)");
  }

  @Test
  void shouldAcceptTheBoundsOfEveryRange() {
    BackupConfig config =
        BackupConfig.builder()
            .maxConcurrentBackups(16)
            .maxPendingBackups(1)
            .uploadRateBytesPerSecond(64 * 1024)
            .confirmRetryDelay(Duration.ofMinutes(1))
            .confirmMaxAttempts(10_000)
            .build();
    assertThat(config.uploadRateBytesPerSecond()).isEqualTo(65_536);
  }
}
