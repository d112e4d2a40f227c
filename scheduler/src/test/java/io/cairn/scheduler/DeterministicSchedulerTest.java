package io.cairn.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

class DeterministicSchedulerTest {

  private static final long START_MILLIS = 1_000;

  private final SimClock clock = new SimClock(START_MILLIS);
  private final DeterministicScheduler scheduler = new DeterministicScheduler(clock);
  private final List<String> log = new ArrayList<>();

  private RecordingActor started(String name) {
    RecordingActor actor = new RecordingActor(name);
    CompletableFuture<Void> start = scheduler.start(actor);
    assertThat(start).isNotDone();
    scheduler.runUntilIdle();
    assertThat(start).isCompleted();
    return actor;
  }

  @Test
  void shouldRunActorAndPlainTasksInSubmissionOrder() {
    // given
    RecordingActor a = started("a");
    RecordingActor b = started("b");

    // when
    a.submit(() -> log.add("a1"));
    scheduler.executor().execute(() -> log.add("p1"));
    b.submit(() -> log.add("b1"));
    a.submit(() -> log.add("a2"));
    b.executor().execute(() -> log.add("b2"));
    scheduler.executor().execute(() -> log.add("p2"));
    a.call(() -> log.add("a3"));
    int ran = scheduler.runUntilIdle();

    // then
    assertThat(log).containsExactly("a1", "p1", "b1", "a2", "b2", "p2", "a3");
    assertThat(ran).isEqualTo(7);
  }

  @Test
  void shouldRunOnStartBeforeTasksQueuedBeforeStart() {
    // given
    RecordingActor actor = new RecordingActor("early");
    actor.submit(() -> actor.events.add("task1"));
    actor.submit(() -> actor.events.add("task2"));

    // when
    CompletableFuture<Void> start = scheduler.start(actor);
    scheduler.runUntilIdle();

    // then
    assertThat(start).isCompleted();
    assertThat(actor.events).containsExactly("start", "task1", "task2");
    assertThat(actor.actorClock()).isSameAs(clock);
  }

  @Test
  void shouldRefuseToStartAnActorTwice() {
    RecordingActor actor = started("twice");

    assertThat(scheduler.start(actor))
        .failsWithin(Duration.ZERO)
        .withThrowableOfType(ExecutionException.class)
        .withCauseInstanceOf(IllegalStateException.class);
    assertThat(actor.events).containsExactly("start");
  }

  @Test
  void shouldFireDelayExactlyAtDueSimulatedTime() {
    // given
    RecordingActor actor = started("timer");
    List<Long> firedAtMillis = new ArrayList<>();
    actor.schedule(Duration.ofMillis(100), () -> firedAtMillis.add(actor.actorClock().millis()));

    // when
    scheduler.runFor(Duration.ofMillis(99));

    // then
    assertThat(firedAtMillis).isEmpty();
    assertThat(clock.millis()).isEqualTo(START_MILLIS + 99);
    assertThat(scheduler.nextDueMillis()).isEqualTo(START_MILLIS + 100);

    // when
    scheduler.runFor(Duration.ofMillis(1));

    // then
    assertThat(firedAtMillis).containsExactly(START_MILLIS + 100);
    assertThat(scheduler.hasPendingTasks()).isFalse();
  }

  @Test
  void shouldFireFixedRateTimerOncePerPeriodInRunFor() {
    // given
    RecordingActor actor = started("ticker");
    List<Long> ticks = new ArrayList<>();
    actor.scheduleAtFixedRate(
        Duration.ofMillis(10), Duration.ofMillis(10), () -> ticks.add(clock.millis()));

    // when
    scheduler.runFor(Duration.ofMillis(100));

    // then
    assertThat(ticks).hasSize(10);
    assertThat(ticks.get(0)).isEqualTo(START_MILLIS + 10);
    assertThat(ticks.get(9)).isEqualTo(START_MILLIS + 100);
    assertThat(scheduler.nextDueMillis()).isEqualTo(START_MILLIS + 110);
  }

  @Test
  void shouldNotFireCancelledTimers() {
    // given
    RecordingActor actor = started("cancel");
    List<Long> ticks = new ArrayList<>();
    Cancellable oneShot = actor.schedule(Duration.ofMillis(5), () -> log.add("one-shot"));
    Cancellable periodic =
        actor.scheduleAtFixedRate(
            Duration.ZERO, Duration.ofMillis(10), () -> ticks.add(clock.millis()));
    Cancellable plain = scheduler.schedule(Duration.ofMillis(7), () -> log.add("plain"));

    // when
    oneShot.cancel();
    plain.cancel();
    scheduler.runFor(Duration.ofMillis(25));
    periodic.cancel();
    scheduler.runFor(Duration.ofMillis(100));

    // then
    assertThat(oneShot.isCancelled()).isTrue();
    assertThat(periodic.isCancelled()).isTrue();
    assertThat(log).isEmpty();
    assertThat(ticks).containsExactly(START_MILLIS, START_MILLIS + 10, START_MILLIS + 20);
    assertThat(scheduler.hasPendingTasks()).isFalse();
    assertThat(scheduler.nextDueMillis()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void shouldCancelPeriodicTimerFromItsOwnTask() {
    RecordingActor actor = started("self-cancel");
    List<Long> ticks = new ArrayList<>();
    Cancellable[] handle = new Cancellable[1];
    handle[0] =
        actor.scheduleAtFixedRate(
            Duration.ofMillis(1),
            Duration.ofMillis(1),
            () -> {
              ticks.add(clock.millis());
              if (ticks.size() == 3) {
                handle[0].cancel();
              }
            });

    scheduler.runFor(Duration.ofMillis(50));

    assertThat(ticks).hasSize(3);
    assertThat(scheduler.hasPendingTasks()).isFalse();
  }

  @Test
  void shouldRunOnCloseAfterAcceptedTasksAndRejectLaterTasks() {
    // given
    RecordingActor actor = started("closing");
    actor.submit(() -> actor.events.add("accepted"));
    Cancellable timer = actor.schedule(Duration.ofMillis(50), () -> actor.events.add("timer"));

    // when
    CompletableFuture<Void> closed = actor.closeAsync();
    CompletableFuture<Void> late = actor.submit(() -> actor.events.add("late"));
    CompletableFuture<Integer> lateCall = actor.call(() -> 1);

    // then
    assertThat(actor.isClosed()).isTrue();
    assertThat(timer.isCancelled()).isTrue();
    assertThat(late).isCompletedExceptionally();
    assertThat(lateCall)
        .failsWithin(Duration.ZERO)
        .withThrowableOfType(ExecutionException.class)
        .withCauseInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> actor.executor().execute(() -> actor.events.add("late")))
        .isInstanceOf(RejectedExecutionException.class);
    assertThat(actor.schedule(Duration.ZERO, () -> actor.events.add("late")).isCancelled())
        .isTrue();
    assertThat(closed).isNotDone();

    // when
    scheduler.runFor(Duration.ofMillis(100));

    // then
    assertThat(closed).isCompleted();
    assertThat(actor.closeAsync()).isSameAs(closed);
    assertThat(actor.events).containsExactly("start", "accepted", "close");
  }

  @Test
  void shouldKeepRunningTheActorAfterATaskThrows() {
    // given
    RecordingActor actor = started("faulty");
    IllegalArgumentException boom = new IllegalArgumentException("boom");

    // when
    CompletableFuture<Void> failed =
        actor.submit(
            () -> {
              throw boom;
            });
    actor
        .executor()
        .execute(
            () -> {
              throw new IllegalStateException("plain runnable failure");
            });
    CompletableFuture<String> next = actor.call(() -> "still alive");
    scheduler.runUntilIdle();

    // then
    assertThat(failed)
        .failsWithin(Duration.ZERO)
        .withThrowableOfType(ExecutionException.class)
        .withCause(boom);
    assertThat(next).isCompletedWithValue("still alive");
  }

  @Test
  void shouldNotAdvanceTimeInRunUntilIdle() {
    // given
    RecordingActor actor = started("idle");
    scheduler.schedule(Duration.ofMillis(10), () -> log.add("later"));
    actor.submit(
        () -> {
          log.add("now");
          actor.submit(() -> log.add("added now"));
        });

    // when
    int ran = scheduler.runUntilIdle();

    // then
    assertThat(ran).isEqualTo(2);
    assertThat(log).containsExactly("now", "added now");
    assertThat(clock.millis()).isEqualTo(START_MILLIS);
    assertThat(scheduler.hasPendingTasks()).isTrue();
    assertThat(scheduler.nextDueMillis()).isEqualTo(START_MILLIS + 10);
  }

  @Test
  void shouldEndRunForExactlyAtTargetTime() {
    // given
    scheduler.schedule(Duration.ofMillis(30), () -> log.add("at 30"));
    scheduler.schedule(Duration.ofMillis(31), () -> log.add("at 31"));
    scheduler.schedule(Duration.ofNanos(30_500_000), () -> log.add("at 30.5"));

    // when
    scheduler.runFor(Duration.ofMillis(30));

    // then
    assertThat(log).containsExactly("at 30");
    assertThat(clock.nanos()).isEqualTo((START_MILLIS + 30) * 1_000_000);
    assertThat(scheduler.nextDueMillis()).isEqualTo(START_MILLIS + 31);

    // when there is nothing to run, time still moves to the target
    scheduler.runFor(Duration.ofMillis(5));
    assertThat(log).containsExactly("at 30", "at 30.5", "at 31");
    assertThat(clock.millis()).isEqualTo(START_MILLIS + 35);
  }

  @Test
  void shouldOrderPlainTasksByDueTimeThenSequence() {
    scheduler.schedule(Duration.ofMillis(5), () -> log.add("a@5"));
    scheduler.schedule(Duration.ofMillis(5), () -> log.add("b@5"));
    scheduler.schedule(Duration.ofMillis(3), () -> log.add("c@3"));
    List<Long> times = new ArrayList<>();

    while (scheduler.runNext()) {
      times.add(clock.millis());
    }

    assertThat(log).containsExactly("c@3", "a@5", "b@5");
    assertThat(times).containsExactly(START_MILLIS + 3, START_MILLIS + 5, START_MILLIS + 5);
    assertThat(scheduler.runNext()).isFalse();
  }

  @Test
  void shouldCompleteFuturesOnTheActorBeforeItsNextTask() {
    // given
    RecordingActor actor = started("futures");
    CompletableFuture<String> answer =
        actor.call(
            () -> {
              log.add("task");
              return "42";
            });
    answer.thenAccept(v -> log.add("dependent " + v));
    actor.submit(() -> log.add("next task"));

    // then nothing runs before the scheduler runs
    assertThat(answer).isNotDone();

    // when
    scheduler.runNext();

    // then the dependent ran inside the actor's task, before its next task
    assertThat(log).containsExactly("task", "dependent 42");
    scheduler.runUntilIdle();
    assertThat(log).containsExactly("task", "dependent 42", "next task");
  }

  @Test
  void shouldFailStartAndQueuedTasksWhenOnStartThrows() {
    // given
    RecordingActor actor =
        new RecordingActor("broken").failingOnStart(new IllegalStateException("no disk"));
    CompletableFuture<Void> queued = actor.submit(() -> actor.events.add("queued"));

    // when
    CompletableFuture<Void> start = scheduler.start(actor);
    scheduler.runUntilIdle();

    // then
    assertThat(start).isCompletedExceptionally();
    assertThat(queued).isCompletedExceptionally();
    assertThat(actor.isClosed()).isTrue();
    assertThat(actor.closeAsync()).isCompleted();
    assertThat(actor.events).containsExactly("start", "close");
  }

  @Test
  void shouldCloseNewActorWithoutRunningIt() {
    RecordingActor actor = new RecordingActor("never-started");
    CompletableFuture<Void> queued = actor.submit(() -> actor.events.add("queued"));

    assertThat(actor.closeAsync()).isCompleted();
    assertThat(queued).isCompletedExceptionally();
    assertThat(scheduler.start(actor)).isCompletedExceptionally();
    assertThat(actor.events).isEmpty();
    assertThat(actor.schedule(Duration.ZERO, () -> actor.events.add("timer")).isCancelled())
        .isTrue();
  }

  @Test
  void shouldRejectTasksBeyondMailboxCapacity() {
    // given
    RecordingActor actor = new RecordingActor("bounded", 2);
    scheduler.start(actor);
    CompletableFuture<Void> first = actor.submit(() -> log.add("1"));
    CompletableFuture<Void> second = actor.submit(() -> log.add("2"));

    // when
    CompletableFuture<Void> refused = actor.submit(() -> log.add("3"));

    // then
    assertThat(actor.queueDepth()).isEqualTo(2);
    assertThat(refused)
        .failsWithin(Duration.ZERO)
        .withThrowableOfType(ExecutionException.class)
        .withCauseInstanceOf(RejectedExecutionException.class);
    assertThatThrownBy(() -> actor.executor().execute(() -> log.add("4")))
        .isInstanceOf(RejectedExecutionException.class);
    scheduler.runUntilIdle();
    assertThat(first).isCompleted();
    assertThat(second).isCompleted();
    assertThat(log).containsExactly("1", "2");
    assertThat(actor.queueDepth()).isZero();
  }

  @Test
  void shouldCloseEveryActorAndRefuseWorkAfterClose() {
    RecordingActor a = started("a");
    RecordingActor b = started("b");
    a.submit(() -> a.events.add("pending"));
    b.scheduleAtFixedRate(Duration.ofMillis(1), Duration.ofMillis(1), () -> b.events.add("tick"));

    scheduler.close();

    assertThat(a.events).containsExactly("start", "pending", "close");
    assertThat(b.events).containsExactly("start", "close");
    assertThat(scheduler.hasPendingTasks()).isFalse();
    assertThat(scheduler.start(new RecordingActor("c"))).isCompletedExceptionally();
    assertThatThrownBy(() -> scheduler.executor().execute(() -> {}))
        .isInstanceOf(RejectedExecutionException.class);
  }

  @Test
  void shouldRefuseRunCallsFromInsideATask() {
    scheduler.executor().execute(scheduler::runUntilIdle);

    assertThatThrownBy(scheduler::runUntilIdle).isInstanceOf(IllegalStateException.class);
    assertThat(scheduler.runUntilIdle()).isZero();
  }

  @Test
  void shouldStopALivelockAtOneInstant() {
    DeterministicScheduler guarded = new DeterministicScheduler(clock, 1_000);
    RecordingActor actor = new RecordingActor("spinner");
    guarded.start(actor);
    Runnable[] again = new Runnable[1];
    again[0] = () -> actor.submit(again[0]);
    actor.submit(again[0]);

    assertThatThrownBy(guarded::runUntilIdle)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Expected at most 1000 tasks at one instant");
    assertThat(clock.millis()).isEqualTo(START_MILLIS);
  }
}
