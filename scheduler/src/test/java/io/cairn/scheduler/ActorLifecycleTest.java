package io.cairn.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.scheduler.ActorLifecycle.Phase;
import io.cairn.scheduler.ActorLifecycle.State;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The actor's life-cycle table, and the states an actor goes through. */
class ActorLifecycleTest {

  @Test
  void shouldRefuseAMoveThatIsNotInTheTable() {
    // given a started actor's life cycle
    ActorLifecycle lifecycle = new ActorLifecycle("a", new Object());
    lifecycle.transition(State.STARTING, "started");
    lifecycle.transition(State.STARTED, "onStart runs");

    // when it would finish without closing, then it refuses and stays where it was
    assertThatThrownBy(() -> lifecycle.transition(State.FINISHING, "test"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Expected a move in the actor life-cycle table, but")
        .hasMessageContaining("STARTED -> FINISHING")
        .hasMessageContaining("actor a");
    assertThat(lifecycle.state()).isEqualTo(State.STARTED);
    assertThat(lifecycle.phase()).isEqualTo(Phase.STARTED);
  }

  @Test
  void shouldLeaveClosedAlone() {
    for (State next : State.values()) {
      assertThat(State.CLOSED.canBecome(next)).as("CLOSED -> %s", next).isFalse();
    }
  }

  @Test
  void shouldRunOnStartThenOnCloseWhenClosedBeforeTheFirstTurn() {
    // given an actor bound to a deterministic scheduler whose first turn has not run yet
    DeterministicScheduler scheduler = new DeterministicScheduler(new SimClock(0));
    RecordingActor actor = new RecordingActor("early");
    CompletableFuture<Void> started = scheduler.start(actor);
    CompletableFuture<Void> task = actor.submit(() -> actor.events.add("task"));

    // when it is closed at once
    CompletableFuture<Void> closed = actor.closeAsync();
    assertThat(actor.toString()).contains("state=CLOSING");
    scheduler.runUntilIdle();

    // then onStart still ran first, then the accepted task, then onClose
    assertThat(actor.events).isEqualTo(List.of("start", "task", "close"));
    assertThat(started).isCompleted();
    assertThat(task).isCompleted();
    assertThat(closed).isCompleted();
    assertThat(actor.toString()).contains("state=CLOSED");
  }
}
