package io.cairn.broker.api.limit;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.broker.api.limit.CommandLimitConfig.Algorithm;
import io.cairn.scheduler.SimClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The limiter on a simulated clock: commands are admitted every millisecond up to a demand, each
 * answered a given round trip later. No threads, no sleeps; the random runs are seeded.
 */
final class CommandLimiterTest {

  private static final Duration TARGET = Duration.ofMillis(100);
  private static final long MS = 1_000_000L;

  private static CommandLimitConfig config(Algorithm algorithm) {
    return CommandLimitConfig.builder()
        .algorithm(algorithm)
        .initialLimit(100)
        .minLimit(10)
        .maxLimit(1000)
        .targetLatency(TARGET)
        .build();
  }

  @Test
  void shouldAdmitUpToTheLimitAndRefuseAtOnceBeyondIt() {
    // given a limit of 3
    SimClock clock = new SimClock(0);
    CommandLimitConfig fixed =
        CommandLimitConfig.builder().algorithm(Algorithm.FIXED).initialLimit(3).minLimit(1).build();
    CommandLimiter limiter = new CommandLimiter(1, fixed, clock);

    // when 4 commands arrive
    List<Optional<CommandLimiter.Permit>> permits = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      permits.add(limiter.tryAcquire());
    }

    // then 3 are admitted, the fourth refused and counted
    assertThat(permits.subList(0, 3)).allMatch(Optional::isPresent);
    assertThat(permits.get(3)).isEmpty();
    assertThat(limiter.inFlight()).isEqualTo(3);
    assertThat(limiter.rejected()).isEqualTo(1);

    // and a released place is taken again
    permits.get(0).orElseThrow().answered();
    assertThat(limiter.tryAcquire()).isPresent();
    assertThat(limiter.inFlight()).isEqualTo(3);
  }

  @ParameterizedTest
  @EnumSource(
      value = Algorithm.class,
      names = {"AIMD", "GRADIENT", "VEGAS"})
  void shouldRaiseTheLimitWhileLatencyStaysFlat(Algorithm algorithm) {
    // given clients that always want more than the limit, answered in 5ms
    Simulation simulation = new Simulation(config(algorithm));

    // when 20 simulated seconds pass
    int before = simulation.limiter.limit();
    simulation.run(20_000, 5 * MS, 5_000);

    // then the limit grew, and never shrank on the way
    assertThat(before).isEqualTo(100);
    assertThat(simulation.limiter.limit()).isGreaterThan(200);
    assertThat(simulation.decreases).isZero();
    assertThat(simulation.limiter.rejected()).isPositive();
  }

  @ParameterizedTest
  @EnumSource(
      value = Algorithm.class,
      names = {"AIMD", "GRADIENT", "VEGAS"})
  void shouldShrinkTheLimitWhenLatencyRises(Algorithm algorithm) {
    // given a limit that grew at 5ms round trips
    Simulation simulation = new Simulation(config(algorithm));
    simulation.run(10_000, 5 * MS, 5_000);
    int grown = simulation.limiter.limit();

    // when the round trips rise to 300ms (above the target) for 30 simulated seconds
    simulation.run(30_000, 300 * MS, 5_000);

    // then the limit came down
    assertThat(simulation.limiter.limit()).isLessThan(grown);
    assertThat(simulation.decreases).isPositive();
    if (algorithm == Algorithm.AIMD) {
      assertThat(simulation.limiter.limit()).isEqualTo(10); // 0.9 per window, down to min
    }
  }

  @Test
  void shouldKeepTheLimitWhenCommandsAnswerWithinTheTargetButFewAreInFlight() {
    // given aimd and clients that keep only 5 commands in flight
    Simulation simulation = new Simulation(config(Algorithm.AIMD));

    // when 20 simulated seconds pass at 5ms
    simulation.run(20_000, 5 * MS, 5);

    // then nothing was refused, and the limit did not move (no evidence either way)
    assertThat(simulation.limiter.rejected()).isZero();
    assertThat(simulation.limiter.limit()).isEqualTo(100);
  }

  @Test
  void shouldShrinkTheLimitWhenCommandsTimeOutOrMeetAFullLog() {
    // given aimd at rest
    SimClock clock = new SimClock(0);
    CommandLimiter limiter = new CommandLimiter(1, config(Algorithm.AIMD), clock);

    // when windows of fast but dropped commands pass
    for (int window = 0; window < 5; window++) {
      List<CommandLimiter.Permit> permits = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        permits.add(limiter.tryAcquire().orElseThrow());
      }
      clock.advance(Duration.ofNanos(200 * MS));
      permits.forEach(CommandLimiter.Permit::dropped);
    }

    // then the limit came down although the round trips were within the target
    assertThat(limiter.limit()).isLessThan(100);
    assertThat(limiter.inFlight()).isZero();
  }

  @Test
  void shouldKeepAFixedLimitWhateverTheLatency() {
    Simulation simulation = new Simulation(config(Algorithm.FIXED));
    simulation.run(5_000, 5 * MS, 5_000);
    assertThat(simulation.limiter.limit()).isEqualTo(100);
    simulation.run(5_000, 500 * MS, 5_000);
    assertThat(simulation.limiter.limit()).isEqualTo(100);
  }

  @ParameterizedTest
  @EnumSource(Algorithm.class)
  void shouldStayWithinItsBoundsAndReleaseEveryPlaceUnderRandomLoad(Algorithm algorithm) {
    for (long seed = 1; seed <= 5; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      Simulation simulation = new Simulation(config(algorithm));
      try {
        for (int phase = 0; phase < 20; phase++) {
          long rtt = (1 + random.nextInt(2_000)) * MS / 4;
          int demand = 1 + random.nextInt(2_000);
          simulation.dropEvery = random.nextInt(4) == 0 ? 1 + random.nextInt(20) : 0;
          simulation.run(1 + random.nextInt(3_000), rtt, demand);
        }
        simulation.drain();
      } catch (AssertionError e) {
        throw new AssertionError(
            "Failed with seed " + seed + " (" + algorithm + "): " + e.getMessage(), e);
      }
      assertThat(simulation.limiter.inFlight()).as("seed %s", seed).isZero();
      assertThat(simulation.lowest).as("seed %s", seed).isGreaterThanOrEqualTo(10);
      assertThat(simulation.highest).as("seed %s", seed).isLessThanOrEqualTo(1000);
    }
  }

  @Test
  void shouldReleaseEachPlaceOnceAndSampleOnlyWhatMeasuresLoad() {
    // given a limiter whose algorithm records what it is told
    SimClock clock = new SimClock(7);
    List<String> samples = new ArrayList<>();
    LimitAlgorithm recording =
        new LimitAlgorithm() {
          @Override
          public int limit() {
            return 10;
          }

          @Override
          public void onSample(long startNanos, long rttNanos, int inFlight, boolean dropped) {
            samples.add(
                startNanos / MS
                    + "+"
                    + rttNanos / MS
                    + " of "
                    + inFlight
                    + (dropped ? " dropped" : ""));
          }
        };
    CommandLimiter limiter = new CommandLimiter(3, config(Algorithm.AIMD), recording, clock);

    // when three commands end as answered, dropped and ignored, each released twice
    CommandLimiter.Permit answered = limiter.tryAcquire().orElseThrow();
    CommandLimiter.Permit dropped = limiter.tryAcquire().orElseThrow();
    CommandLimiter.Permit ignored = limiter.tryAcquire().orElseThrow();
    clock.advance(Duration.ofNanos(4 * MS));
    for (int i = 0; i < 2; i++) {
      answered.answered();
      dropped.dropped();
      ignored.ignored();
      answered.dropped();
    }

    // then every place came back once; the ignored one told the algorithm nothing
    assertThat(limiter.inFlight()).isZero();
    assertThat(samples).containsExactly("7+4 of 1", "7+4 of 2 dropped");
    assertThat(answered.isReleased()).isTrue();
    assertThat(CommandLimiter.Permit.UNLIMITED.isReleased()).isTrue();
    CommandLimiter.Permit.UNLIMITED.answered();
    assertThat(limiter.inFlight()).isZero();
  }

  /** Clients on a simulated clock, one step per millisecond. */
  private static final class Simulation {

    private record InFlight(long dueNanos, CommandLimiter.Permit permit) {}

    final SimClock clock = new SimClock(1_000);
    final CommandLimiter limiter;
    final PriorityQueue<InFlight> inFlight =
        new PriorityQueue<>((a, b) -> Long.compare(a.dueNanos, b.dueNanos));
    int decreases;
    int lowest = Integer.MAX_VALUE;
    int highest;
    int dropEvery;
    private long answers;

    Simulation(CommandLimitConfig config) {
      limiter = new CommandLimiter(1, config, clock);
    }

    /** {@code steps} milliseconds of clients keeping {@code demand} commands in flight. */
    void run(int steps, long rttNanos, int demand) {
      for (int step = 0; step < steps; step++) {
        clock.advance(Duration.ofNanos(MS));
        int before = limiter.limit();
        answerDue();
        while (limiter.inFlight() < demand) {
          Optional<CommandLimiter.Permit> permit = limiter.tryAcquire();
          if (permit.isEmpty()) {
            break;
          }
          inFlight.add(new InFlight(clock.nanos() + rttNanos, permit.get()));
        }
        int after = limiter.limit();
        if (after < before) {
          decreases++;
        }
        lowest = Math.min(lowest, after);
        highest = Math.max(highest, after);
        assertThat(limiter.inFlight()).isEqualTo(inFlight.size());
      }
    }

    void drain() {
      while (!inFlight.isEmpty()) {
        clock.advance(Duration.ofNanos(MS));
        answerDue();
      }
    }

    private void answerDue() {
      while (!inFlight.isEmpty() && inFlight.peek().dueNanos <= clock.nanos()) {
        CommandLimiter.Permit permit = inFlight.poll().permit;
        if (dropEvery > 0 && ++answers % dropEvery == 0) {
          permit.dropped();
        } else {
          permit.answered();
        }
      }
    }
  }
}
