package io.cairn.broker.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.broker.partition.PartitionActivity.Activity;
import io.cairn.scheduler.Cancellable;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The partition actor's activity table, and the transition backoff. */
final class PartitionActivityTest {

  private static final Cancellable TIMER =
      new Cancellable() {
        @Override
        public void cancel() {}

        @Override
        public boolean isCancelled() {
          return false;
        }
      };

  private final PartitionActivity activity = new PartitionActivity("partition 1 on node 0");

  @Test
  void shouldRetryAFailedTransitionThenSettle() {
    // a transition fails, is cleaned up, waits, is tried again and succeeds
    activity.transition(transitioning(0), "test");
    activity.transition(
        new Activity.CleaningUp(1, Duration.ofMillis(100), Optional.empty(), pending()), "test");
    activity.transition(new Activity.RetryWaiting(1, TIMER), "test");
    activity.transition(new Activity.Idle(1), "test");
    activity.transition(transitioning(1), "test");
    activity.transition(new Activity.Idle(0), "test");

    assertThat(activity.get()).isEqualTo(new Activity.Idle(0));
    assertThat(activity.get().inFlight()).isDone();
  }

  @Test
  void shouldWaitForTheWorkInFlightWhenClosing() {
    Activity.Transitioning transitioning = transitioning(0);
    activity.transition(transitioning, "test");

    activity.transition(new Activity.Closing(transitioning), "test");

    assertThat(activity.isClosing()).isTrue();
    assertThat(activity.get().inFlight()).isNotDone();
    transitioning.done().complete(null);
    assertThat(activity.get().inFlight()).isDone();
    activity.transition(new Activity.Closed(), "test");
  }

  @Test
  void shouldRefuseAMoveThatIsNotInTheTable() {
    assertThatThrownBy(() -> activity.transition(new Activity.RetryWaiting(1, TIMER), "test"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Expected a move in the partition activity table, but")
        .hasMessageContaining("IDLE(0 failed) -> RETRY_WAITING(1 failed)")
        .hasMessageContaining("partition 1 on node 0");
    assertThat(PartitionActivity.canBecome(transitioning(2), new Activity.Idle(2))).isFalse();
    assertThat(PartitionActivity.canBecome(new Activity.Failed(), transitioning(0))).isFalse();
    assertThat(
            PartitionActivity.canBecome(
                new Activity.Closed(), new Activity.Closing(new Activity.Idle(0))))
        .isFalse();
    assertThat(activity.get()).isEqualTo(new Activity.Idle(0));
  }

  @Test
  void shouldDoubleTheRetryDelayUpToTheMaxAndGiveUpAfterTheLastAttempt() {
    TransitionBackoff backoff =
        new TransitionBackoff(
            PartitionConfig.builder()
                .transitionRetryDelayMin(Duration.ofMillis(100))
                .transitionRetryDelayMax(Duration.ofMillis(350))
                .transitionAttemptsMax(4)
                .build());

    assertThat(backoff.delay(1)).isEqualTo(Duration.ofMillis(100));
    assertThat(backoff.delay(2)).isEqualTo(Duration.ofMillis(200));
    assertThat(backoff.delay(3)).isEqualTo(Duration.ofMillis(350));
    assertThat(backoff.delay(100)).isEqualTo(Duration.ofMillis(350));
    assertThat(backoff.isExhausted(3)).isFalse();
    assertThat(backoff.isExhausted(4)).isTrue();
  }

  private static Activity.Transitioning transitioning(int failedAttempts) {
    return new Activity.Transitioning(
        PartitionRole.LEADER, 2, true, 0, failedAttempts, Optional.empty(), pending());
  }

  private static CompletableFuture<Void> pending() {
    return new CompletableFuture<>();
  }
}
