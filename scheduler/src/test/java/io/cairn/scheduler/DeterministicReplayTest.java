package io.cairn.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The same seed gives the same run: the whole point of the deterministic scheduler. */
class DeterministicReplayTest {

  private static final int ACTORS = 4;
  private static final int STEPS = 2_000;

  @Test
  void shouldProduceTheSameTraceForTheSameSeed() {
    long seed = 0x5EEDL;
    for (int round = 0; round < 5; round++) {
      long roundSeed = seed + round;
      List<String> first = run(roundSeed);
      List<String> second = run(roundSeed);

      assertThat(second).as("trace of seed %d", roundSeed).isEqualTo(first);
      assertThat(first).as("seed %d produced work", roundSeed).hasSizeGreaterThan(STEPS);
    }
  }

  @Test
  void shouldProduceDifferentTracesForDifferentSeeds() {
    assertThat(run(1)).isNotEqualTo(run(2));
  }

  /** A random workload: actors forward messages to each other with random delays. */
  private static List<String> run(long seed) {
    Random random = new Random(seed);
    SimClock clock = new SimClock(0);
    DeterministicScheduler scheduler = new DeterministicScheduler(clock);
    List<String> trace = new ArrayList<>();
    List<RecordingActor> actors = new ArrayList<>();
    for (int i = 0; i < ACTORS; i++) {
      RecordingActor actor = new RecordingActor("actor-" + i);
      actors.add(actor);
      scheduler.start(actor);
    }
    scheduler.runUntilIdle();
    for (int step = 0; step < STEPS; step++) {
      RecordingActor target = actors.get(random.nextInt(ACTORS));
      int id = step;
      switch (random.nextInt(3)) {
        case 0 -> target.submit(() -> trace.add(clock.nanos() + " " + target.name() + " m" + id));
        case 1 ->
            target.schedule(
                Duration.ofMillis(random.nextInt(20)),
                () -> trace.add(clock.nanos() + " " + target.name() + " t" + id));
        default ->
            scheduler.schedule(
                Duration.ofMillis(random.nextInt(20)),
                () -> {
                  trace.add(clock.nanos() + " net " + id);
                  target.submit(() -> trace.add(clock.nanos() + " " + target.name() + " d" + id));
                });
      }
      if (random.nextInt(10) == 0) {
        scheduler.runFor(Duration.ofMillis(random.nextInt(5)));
      }
    }
    scheduler.runFor(Duration.ofSeconds(1));
    scheduler.close();
    return trace;
  }
}
