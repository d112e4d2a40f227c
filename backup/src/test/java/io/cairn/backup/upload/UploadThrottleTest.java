package io.cairn.backup.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class UploadThrottleTest {

  private static final long SECOND = 1_000_000_000L;

  @Test
  void shouldNeverDelayWhenUnlimited() {
    final UploadThrottle throttle = new UploadThrottle(0);
    throttle.charge(1L << 40, 0);
    assertThat(throttle.delayNanos(0)).isZero();
  }

  @Test
  void shouldDelayTheNextBackupByTheBytesTheLastOneCopied() {
    // given 1 MB/s and a backup of 3 MB that started at t=10s
    final UploadThrottle throttle = new UploadThrottle(1_000_000);
    assertThat(throttle.delayNanos(0)).isZero();
    throttle.charge(3_000_000, 10 * SECOND);

    // then the next may start at t=13s
    assertThat(throttle.delayNanos(11 * SECOND)).isEqualTo(2 * SECOND);
    assertThat(throttle.delayNanos(13 * SECOND)).isZero();
    assertThat(throttle.delayNanos(20 * SECOND)).isZero();
  }

  @Test
  void shouldAccumulateDebtOfBackupsThatStartedEarly() {
    // given two backups of 1 MB each charged at t=0 (they ran at once)
    final UploadThrottle throttle = new UploadThrottle(1_000_000);
    throttle.charge(1_000_000, 0);
    throttle.charge(1_000_000, 0);

    // then the average stays at the rate: the third waits until t=2s
    assertThat(throttle.delayNanos(SECOND)).isEqualTo(SECOND);
  }

  @Test
  void shouldRejectNegativeRate() {
    assertThatThrownBy(() -> new UploadThrottle(-1))
        .hasMessage("Expected bytesPerSecond >= 0, but was -1 (upload throttle)");
  }
}
