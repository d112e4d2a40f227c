package io.cairn.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ConfigAndClockTest {

  @Test
  void shouldKeepSimClockMonotoneWithSubMillisecondNanos() {
    SimClock clock = new SimClock(5);

    clock.advance(Duration.ofNanos(1_500_000));
    assertThat(clock.millis()).isEqualTo(6);
    assertThat(clock.nanos()).isEqualTo(6_500_000);

    clock.advanceTo(3);
    assertThat(clock.nanos()).isEqualTo(6_500_000);

    clock.advanceTo(10);
    assertThat(clock.nanos()).isEqualTo(10_000_000);
    assertThatThrownBy(() -> clock.advance(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Expected a duration >= 0, but was PT-0.001S");
  }

  @Test
  void shouldRejectInvalidSchedulerConfigNamingTheKey() {
    assertThatThrownBy(() -> ActorSchedulerConfig.defaults().withThreadCount(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Expected threadCount in [1, 256], but was 0 (ActorSchedulerConfig)");
    assertThatThrownBy(() -> ActorSchedulerConfig.defaults().withTasksPerTurn(0))
        .hasMessageContaining("tasksPerTurn");
    assertThatThrownBy(() -> ActorSchedulerConfig.defaults().withCloseTimeout(Duration.ZERO))
        .hasMessageContaining("closeTimeout");
    assertThat(ActorSchedulerConfig.defaults().withThreadCount(4).threadCount()).isEqualTo(4);
  }

  @Test
  void shouldRejectInvalidTimerArguments() {
    DeterministicScheduler scheduler = new DeterministicScheduler(new SimClock(0));
    RecordingActor actor = new RecordingActor("args");

    assertThatThrownBy(() -> actor.schedule(Duration.ZERO, () -> {}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("was not started yet");
    scheduler.start(actor);
    assertThatThrownBy(() -> actor.schedule(Duration.ofMillis(-1), () -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Expected delay >= 0, but was PT-0.001S (actor args)");
    assertThatThrownBy(() -> actor.scheduleAtFixedRate(Duration.ZERO, Duration.ZERO, () -> {}))
        .hasMessage("Expected period > 0, but was PT0S (actor args)");
    assertThatThrownBy(() -> new BackoffIdleStrategy(1, 1, 10, 5))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
