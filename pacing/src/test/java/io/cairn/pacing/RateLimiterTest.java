package io.cairn.pacing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.scheduler.SimClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RateLimiterTest {

  private static final long MS = 1_000_000;
  private static final long SECOND = 1_000_000_000L;
  private static final long MIB = 1024 * 1024;

  private final SimClock clock = new SimClock(0);
  private final List<Long> paused = new ArrayList<>();

  /** A limiter whose waits move the simulated clock. */
  private RateLimiter limiter(long ratePerSecond, long burst) {
    return new RateLimiter(
        ratePerSecond,
        burst,
        clock,
        nanos -> {
          paused.add(nanos);
          clock.advance(Duration.ofNanos(nanos));
        });
  }

  // ------------------------------------------------------------- a burst smaller than a second

  @Test
  void shouldLetABurstPassAtOnceAndThenEachRequestAfterItsShare() {
    var limiter = limiter(1_000, 100);

    assertThat(limiter.reserve(100, 0)).isZero();
    assertThat(limiter.reserve(100, 0)).isEqualTo(100 * MS);
    assertThat(limiter.reserve(50, 0)).isEqualTo(150 * MS);
    // by 250 ms everything booked has passed: the next 100 pass on the burst again ...
    assertThat(limiter.reserve(100, 250 * MS)).isZero();
    // ... and the 100 after them wait their 100 ms
    assertThat(limiter.reserve(100, 250 * MS)).isEqualTo(100 * MS);
  }

  @Test
  void shouldMakeEveryRequestWaitForWhatWasBookedBeforeIt() throws Exception {
    var limiter = limiter(1_000_000, 100_000);

    // whichever caller asks: the first passes on the burst, the next ones wait their share each
    assertThat(limiter.acquire(100_000)).isZero();
    assertThat(limiter.acquire(100_000)).isEqualTo(100 * MS);
    assertThat(limiter.acquire(100_000)).isEqualTo(100 * MS);

    assertThat(paused).containsExactly(100 * MS, 100 * MS);
    assertThat(clock.nanos()).isEqualTo(200 * MS);
  }

  @Test
  void shouldNotSaveUpIdleTimeBeyondTheBurst() {
    var limiter = limiter(1_000, 100);
    limiter.reserve(100, 0);

    // ten idle seconds later, 300 units: 100 pass on the burst, 200 wait their 200 ms
    assertThat(limiter.reserve(300, 10_000 * MS)).isEqualTo(200 * MS);
  }

  @Test
  void shouldLetLargeRequestsThroughAfterTheirWait() {
    var limiter = limiter(1_000, 100);

    assertThat(limiter.reserve(5_000, 0)).isEqualTo(4_900 * MS);
  }

  // --------------------------------------------------------------- a burst of one second's rate

  @Test
  void shouldLetOneSecondOfBytesThroughAtOnceWithABurstOfOneSecond() {
    var limiter = limiter(MIB, MIB);

    assertThat(limiter.reserve(MIB / 2, 0)).isZero();
    assertThat(limiter.reserve(MIB / 2, 0)).isZero();
  }

  @Test
  void shouldMakeLargerReservationsWaitForTheirDebt() {
    var limiter = limiter(MIB, MIB);

    assertThat(limiter.reserve(3 * MIB, 0)).isEqualTo(2 * SECOND);
    // two seconds later the debt is paid; the next MiB waits one second
    assertThat(limiter.reserve(MIB, 2 * SECOND)).isEqualTo(SECOND);
  }

  @Test
  void shouldRefillAtTheRateButSaveAtMostTheBurst() {
    var limiter = limiter(MIB, MIB);
    limiter.reserve(MIB, 0);

    assertThat(limiter.reserve(MIB / 2, SECOND / 2)).isZero();
    assertThat(limiter.reserve(MIB, 100 * SECOND)).isZero();
    assertThat(limiter.reserve(MIB / 4, 100 * SECOND)).isEqualTo(250 * MS);
  }

  @Test
  void shouldKeepTheLongRunRateAtTheLimit() {
    var limiter = limiter(MIB, MIB);
    long now = 0;
    long sent = 0;
    for (int part = 0; part < 100; part++) {
      now += limiter.reserve(MIB / 3, now);
      sent += MIB / 3;
    }
    double seconds = now / 1e9;
    assertThat(sent / seconds).isBetween(0.95 * MIB, 1.05 * MIB * 100 / 97);
  }

  // -------------------------------------------- no burst: bookings spaced by their units at the
  // rate

  @Test
  void shouldDelayTheNextBookingByTheUnitsTheLastOneBookedWithoutABurst() {
    // given 1 MB/s and a backup of 3 MB that started at t=10s
    var limiter = RateLimiter.withoutClock(1_000_000, 0);
    assertThat(limiter.delayNanos(0)).isZero();
    limiter.reserve(3_000_000, 10 * SECOND);

    // then the next may start at t=13s
    assertThat(limiter.delayNanos(11 * SECOND)).isEqualTo(2 * SECOND);
    assertThat(limiter.delayNanos(13 * SECOND)).isZero();
    assertThat(limiter.delayNanos(20 * SECOND)).isZero();
  }

  @Test
  void shouldAccumulateTheDebtOfBookingsMadeAtOnce() {
    // given two backups of 1 MB each booked at t=0 (they ran at once)
    var limiter = RateLimiter.withoutClock(1_000_000, 0);
    limiter.reserve(1_000_000, 0);
    limiter.reserve(1_000_000, 0);

    // then the average stays at the rate: the third waits until t=2s
    assertThat(limiter.delayNanos(SECOND)).isEqualTo(SECOND);
    assertThatThrownBy(() -> limiter.acquire(1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("driven by its caller's time");
  }

  // ------------------------------------------------------------------------------- every kind

  @Test
  void shouldNeverWaitWithoutALimit() throws Exception {
    var limiter = limiter(0, 1);

    for (int i = 0; i < 1_000; i++) {
      assertThat(limiter.acquire(1L << 30)).isZero();
    }

    assertThat(limiter.isUnlimited()).isTrue();
    assertThat(RateLimiter.unlimited().isUnlimited()).isTrue();
    assertThat(paused).isEmpty();
    assertThat(limiter.reserve(1L << 40, 0)).isZero();
    assertThat(limiter.delayNanos(0)).isZero();
  }

  @Test
  void shouldLetTheInterruptOfAWaitThrough() {
    var limiter =
        new RateLimiter(
            1_000,
            100,
            clock,
            nanos -> {
              throw new InterruptedException("stop");
            });

    assertThatThrownBy(
            () -> {
              limiter.acquire(100);
              limiter.acquire(100);
            })
        .isInstanceOf(InterruptedException.class)
        .hasMessage("stop");
  }

  @Test
  void shouldRejectInvalidSettings() {
    assertThatThrownBy(() -> limiter(-1, 1))
        .hasMessage("Expected a rate >= 0 per second, but was -1 (rate limiter)");
    assertThatThrownBy(() -> limiter(1, -1))
        .hasMessage("Expected a burst >= 0, but was -1 (rate limiter)");
  }

  /**
   * Any interval between two passes lets at most {@code burst + rate × length} units through,
   * whoever asks and whenever: random request sizes (up to the burst, like a store's chunks) at
   * random, non-decreasing arrival times, each passing after the wait it was given.
   */
  @Test
  void shouldBoundEveryIntervalByBurstPlusRate() {
    long seed = Long.getLong("cairn.seed", 20250301L);
    var random = new SplittableRandom(seed);
    for (int round = 0; round < 50; round++) {
      long rate = 1_000 + random.nextLong(10_000_000);
      long burst = 1 + random.nextLong(rate);
      var limiter = new RateLimiter(rate, burst, clock, nanos -> {});
      record Pass(long atNanos, long units) {}
      List<Pass> passes = new ArrayList<>();
      long arrival = random.nextLong(1_000 * MS);
      for (int i = 0; i < 150; i++) {
        arrival += random.nextInt(4) == 0 ? 0 : random.nextLong(2 * burst * SECOND / rate);
        long units = 1 + random.nextLong(burst);
        passes.add(new Pass(arrival + limiter.reserve(units, arrival), units));
      }
      passes.sort(Comparator.comparingLong(Pass::atNanos));
      for (int i = 0; i < passes.size(); i++) {
        long sum = 0;
        for (int j = i; j < passes.size(); j++) {
          sum += passes.get(j).units();
          double allowed =
              burst + (double) rate * (passes.get(j).atNanos() - passes.get(i).atNanos()) / 1e9 + 1;
          if (sum > allowed) {
            throw new AssertionError(
                "Expected at most "
                    + allowed
                    + " units in ["
                    + passes.get(i).atNanos()
                    + ", "
                    + passes.get(j).atNanos()
                    + "] ns, but "
                    + sum
                    + " passed (replay with -Dcairn.seed="
                    + seed
                    + "; round "
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
