package io.cairn.backups3.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RateLimiterTest {

  private static final long SECOND = 1_000_000_000L;
  private static final long MIB = 1024 * 1024;

  @Test
  void shouldLetOneSecondOfBytesThroughAtOnce() {
    var limiter = new RateLimiter(MIB, () -> 0);

    assertThat(limiter.reserve(MIB / 2, 0)).isZero();
    assertThat(limiter.reserve(MIB / 2, 0)).isZero();
  }

  @Test
  void shouldMakeLargerReservationsWaitForTheirDebt() {
    var limiter = new RateLimiter(MIB, () -> 0);

    assertThat(limiter.reserve(3 * MIB, 0)).isEqualTo(Duration.ofSeconds(2));
    // Two seconds later the debt is paid; the next MiB waits one second.
    assertThat(limiter.reserve(MIB, 2 * SECOND)).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void shouldRefillAtTheRateButSaveAtMostOneSecond() {
    var limiter = new RateLimiter(MIB, () -> 0);
    limiter.reserve(MIB, 0);

    assertThat(limiter.reserve(MIB / 2, SECOND / 2)).isZero();
    assertThat(limiter.reserve(MIB, 100 * SECOND)).isZero();
    assertThat(limiter.reserve(MIB / 4, 100 * SECOND)).isEqualTo(Duration.ofMillis(250));
  }

  @Test
  void shouldKeepTheLongRunRateAtTheLimit() {
    var limiter = new RateLimiter(MIB, () -> 0);
    long now = 0;
    long sent = 0;
    for (int part = 0; part < 100; part++) {
      now += limiter.reserve(MIB / 3, now).toNanos();
      sent += MIB / 3;
    }
    double seconds = now / 1e9;
    assertThat(sent / seconds).isBetween(0.95 * MIB, 1.05 * MIB * 100 / 97);
  }

  @Test
  void shouldNeverWaitWithoutALimit() {
    var limiter = new RateLimiter(0, () -> 0);

    assertThat(limiter.isUnlimited()).isTrue();
    assertThat(limiter.reserve(Long.MAX_VALUE / 2, 0)).isZero();
    assertThat(limiter.acquire(10 * MIB)).isZero();
  }
}
