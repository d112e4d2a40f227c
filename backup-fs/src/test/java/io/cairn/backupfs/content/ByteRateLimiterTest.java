package io.cairn.backupfs.content;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ByteRateLimiterTest {

  private static final long MS = 1_000_000;

  private final List<Long> paused = new ArrayList<>();
  private final List<Long> waited = new ArrayList<>();
  private long now;

  private ByteRateLimiter limiter(long bytesPerSecond, long burstBytes) {
    return new ByteRateLimiter(
        bytesPerSecond,
        burstBytes,
        () -> now,
        nanos -> {
          paused.add(nanos);
          now += nanos;
        },
        waited::add);
  }

  @Test
  void shouldLetABurstPassAtOnceAndThenEachRequestAfterItsShare() {
    var limiter = limiter(1_000, 100);

    assertThat(limiter.reserve(100, 0)).isZero();
    assertThat(limiter.reserve(100, 0)).isEqualTo(100 * MS);
    assertThat(limiter.reserve(50, 0)).isEqualTo(150 * MS);
    // by 250 ms everything booked has passed: the next 100 bytes pass on the burst again ...
    assertThat(limiter.reserve(100, 250 * MS)).isZero();
    // ... and the 100 after them wait their 100 ms
    assertThat(limiter.reserve(100, 250 * MS)).isEqualTo(100 * MS);
  }

  @Test
  void shouldMakeEveryRequestWaitForWhatWasBookedBeforeIt() throws Exception {
    var limiter = limiter(1_000_000, 100_000);

    // whichever copy asks: the first passes on the burst, the next ones wait their share each
    limiter.acquire(100_000);
    limiter.acquire(100_000);
    limiter.acquire(100_000);

    assertThat(paused).containsExactly(100 * MS, 100 * MS);
    assertThat(now).isEqualTo(200 * MS);
    assertThat(waited).isEqualTo(paused);
  }

  @Test
  void shouldNotSaveUpIdleTimeBeyondTheBurst() {
    var limiter = limiter(1_000, 100);
    limiter.reserve(100, 0);

    // ten idle seconds later, 300 bytes: 100 pass on the burst, 200 wait their 200 ms
    assertThat(limiter.reserve(300, 10_000 * MS)).isEqualTo(200 * MS);
  }

  @Test
  void shouldNeverWaitWithoutALimit() throws Exception {
    var limiter = limiter(0, 1);

    for (int i = 0; i < 1_000; i++) {
      limiter.acquire(1L << 30);
    }

    assertThat(limiter.isUnlimited()).isTrue();
    assertThat(paused).isEmpty();
    assertThat(limiter.reserve(1L << 40, 0)).isZero();
  }

  @Test
  void shouldLetLargeRequestsThroughAfterTheirWait() {
    var limiter = limiter(1_000, 100);

    assertThat(limiter.reserve(5_000, 0)).isEqualTo(4_900 * MS);
  }

  @Test
  void shouldThrowInterruptedIoAndKeepTheInterruptWhenInterruptedWhileWaiting() {
    var limiter =
        new ByteRateLimiter(
            1_000,
            100,
            () -> 0,
            nanos -> {
              throw new InterruptedException("stop");
            },
            waited::add);

    try {
      assertThatThrownBy(
              () -> {
                limiter.acquire(100);
                limiter.acquire(100);
              })
          .isInstanceOf(InterruptedIOException.class)
          .hasMessageContaining("limit of 1000 bytes/s");
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
    assertThat(waited).isEmpty();
  }

  @Test
  void shouldRejectInvalidSettings() {
    assertThatThrownBy(() -> limiter(-1, 1)).hasMessageContaining("bytesPerSecond >= 0");
    assertThatThrownBy(() -> limiter(1, 0)).hasMessageContaining("burstBytes >= 1");
  }

  /**
   * Any interval between two passes lets at most {@code burst + rate × length} bytes through,
   * whoever asks and whenever: random request sizes (up to the burst, like the store's chunks) at
   * random, non-decreasing arrival times, each passing after the wait it was given.
   */
  @Test
  void shouldBoundEveryIntervalByBurstPlusRate() {
    long seed = 20250301L;
    var random = new SplittableRandom(seed);
    for (int round = 0; round < 50; round++) {
      long rate = 1_000 + random.nextLong(10_000_000);
      long burst = 1 + random.nextLong(rate);
      var limiter = new ByteRateLimiter(rate, burst, () -> 0, nanos -> {}, nanos -> {});
      record Pass(long atNanos, long bytes) {}
      List<Pass> passes = new ArrayList<>();
      long arrival = random.nextLong(1_000 * MS);
      for (int i = 0; i < 150; i++) {
        arrival += random.nextInt(4) == 0 ? 0 : random.nextLong(2 * burst * 1_000_000_000L / rate);
        long bytes = 1 + random.nextLong(burst);
        passes.add(new Pass(arrival + limiter.reserve(bytes, arrival), bytes));
      }
      passes.sort(Comparator.comparingLong(Pass::atNanos));
      for (int i = 0; i < passes.size(); i++) {
        long sum = 0;
        for (int j = i; j < passes.size(); j++) {
          sum += passes.get(j).bytes();
          double allowed =
              burst + (double) rate * (passes.get(j).atNanos() - passes.get(i).atNanos()) / 1e9 + 1;
          if (sum > allowed) {
            throw new AssertionError(
                "Expected at most "
                    + allowed
                    + " bytes in ["
                    + passes.get(i).atNanos()
                    + ", "
                    + passes.get(j).atNanos()
                    + "] ns, but "
                    + sum
                    + " passed (seed "
                    + seed
                    + ", round "
                    + round
                    + ", rate "
                    + rate
                    + ", burst "
                    + burst
                    + ")");
          }
        }
      }
    }
  }
}
