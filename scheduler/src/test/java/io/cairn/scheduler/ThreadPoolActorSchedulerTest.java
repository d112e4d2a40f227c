package io.cairn.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ThreadPoolActorSchedulerTest {

  /** Generous: a slow machine must only make these tests slower, never fail them. */
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private static final AtomicInteger SCHEDULER_IDS = new AtomicInteger();

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final String name = "test" + SCHEDULER_IDS.incrementAndGet();
  private final ThreadPoolActorScheduler scheduler =
      new ThreadPoolActorScheduler(
          name,
          ActorSchedulerConfig.defaults().withThreadCount(2).withCloseTimeout(TIMEOUT),
          Clock.system(),
          registry);

  @AfterEach
  void closeScheduler() {
    scheduler.close();
  }

  private RecordingActor started(String actorName) throws Exception {
    RecordingActor actor = new RecordingActor(actorName);
    scheduler.start(actor).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    return actor;
  }

  @Test
  void shouldNeverRunOneActorOnTwoThreadsAtOnceAndKeepSubmissionOrder() throws Exception {
    // given
    int actorCount = 16;
    int tasksPerActor = 500;
    List<RecordingActor> actors = new ArrayList<>();
    List<AtomicInteger> inFlight = new ArrayList<>();
    List<List<Integer>> runOrder = new ArrayList<>();
    AtomicInteger overlaps = new AtomicInteger();
    for (int a = 0; a < actorCount; a++) {
      actors.add(started("actor-" + a));
      inFlight.add(new AtomicInteger());
      runOrder.add(new ArrayList<>()); // only touched on the actor's thread
    }

    // when two producer threads submit interleaved tasks to every actor
    List<CompletableFuture<Void>> done = new CopyOnWriteArrayList<>();
    Thread[] producers = new Thread[2];
    for (int p = 0; p < producers.length; p++) {
      int first = p;
      producers[p] =
          new Thread(
              () -> {
                for (int t = 0; t < tasksPerActor; t++) {
                  for (int a = first; a < actorCount; a += producers.length) {
                    int actorIndex = a;
                    int taskIndex = t;
                    done.add(
                        actors
                            .get(a)
                            .submit(
                                () -> {
                                  if (inFlight.get(actorIndex).incrementAndGet() != 1) {
                                    overlaps.incrementAndGet();
                                  }
                                  for (int spin = 0; spin < 50; spin++) {
                                    Thread.onSpinWait();
                                  }
                                  runOrder.get(actorIndex).add(taskIndex);
                                  inFlight.get(actorIndex).decrementAndGet();
                                }));
                  }
                }
              },
              "producer-" + p);
      producers[p].start();
    }
    for (Thread producer : producers) {
      producer.join(TIMEOUT.toMillis());
      assertThat(producer.isAlive()).as("%s still submitting", producer.getName()).isFalse();
    }
    CompletableFuture.allOf(done.toArray(CompletableFuture[]::new))
        .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);

    // then
    assertThat(done).hasSize(actorCount * tasksPerActor);
    assertThat(overlaps.get()).as("tasks of one actor running at the same time").isZero();
    for (int a = 0; a < actorCount; a++) {
      // visible here: every future completed after its actor appended to the list
      assertThat(runOrder.get(a)).as("order of actor %d", a).isSorted().hasSize(tasksPerActor);
    }
  }

  @Test
  void shouldLetOtherActorsRunBetweenTurnsOfABusyActor() throws Exception {
    // given one worker that runs at most 8 tasks of an actor per turn
    try (ThreadPoolActorScheduler single =
        new ThreadPoolActorScheduler(
            name + "-fair",
            ActorSchedulerConfig.defaults().withThreadCount(1).withTasksPerTurn(8),
            Clock.system(),
            new SimpleMeterRegistry())) {
      RecordingActor busy = new RecordingActor("busy");
      RecordingActor other = new RecordingActor("other");
      single.start(busy).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      single.start(other).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      CountDownLatch entered = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      AtomicInteger busyDone = new AtomicInteger();
      busy.submit(
          () -> {
            entered.countDown();
            try {
              release.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            busyDone.incrementAndGet();
          });
      assertThat(entered.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
      for (int i = 0; i < 99; i++) {
        busy.submit(busyDone::incrementAndGet);
      }

      // when
      CompletableFuture<Integer> seenByOther = other.call(busyDone::get);
      release.countDown();

      // then the other actor ran after one turn of the busy actor (at most 8 of its tasks; fewer
      // if the blocking task shared a turn with onStart), not after all 100
      assertThat(seenByOther.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isBetween(1, 8);
      await().atMost(TIMEOUT).until(() -> busyDone.get() == 100);
    }
  }

  @Test
  void shouldFireTimersOnTheActorThread() throws Exception {
    // given
    RecordingActor actor = started("timers");
    List<String> firedOn = new CopyOnWriteArrayList<>();
    AtomicInteger ticks = new AtomicInteger();

    // when
    actor.schedule(Duration.ofMillis(20), () -> firedOn.add(Thread.currentThread().getName()));
    Cancellable periodic =
        actor.scheduleAtFixedRate(
            Duration.ofMillis(5), Duration.ofMillis(5), ticks::incrementAndGet);

    // then
    await().atMost(TIMEOUT).until(() -> firedOn.size() == 1 && ticks.get() >= 3);
    assertThat(firedOn.get(0)).startsWith("cairn-actor-" + name + "-");

    // when cancelled, it fires at most once more (a run already handed to the actor)
    periodic.cancel();
    int ticksAtCancel = ticks.get();
    CountDownLatch later = new CountDownLatch(1);
    actor.schedule(Duration.ofMillis(50), later::countDown);
    assertThat(later.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(ticks.get()).isBetween(ticksAtCancel, ticksAtCancel + 1);
  }

  @Test
  void shouldFireTimersWhenTheInjectedClockReachesThem() throws Exception {
    // given a scheduler whose clock only moves when told to
    SimClock clock = new SimClock(0);
    try (ThreadPoolActorScheduler simTimed =
        new ThreadPoolActorScheduler(name + "-sim", 1, clock, new SimpleMeterRegistry())) {
      RecordingActor actor = new RecordingActor("sim-timed");
      simTimed.start(actor).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      AtomicLong firedAtMillis = new AtomicLong(-1);
      actor.schedule(Duration.ofHours(1), () -> firedAtMillis.set(clock.millis()));
      CountDownLatch otherTimer = new CountDownLatch(1);
      actor.schedule(Duration.ZERO, otherTimer::countDown);
      assertThat(otherTimer.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

      // then nothing fires while the clock stands still
      assertThat(firedAtMillis.get()).isEqualTo(-1);

      // when
      clock.advance(Duration.ofHours(1));

      // then
      await().atMost(TIMEOUT).until(() -> firedAtMillis.get() == Duration.ofHours(1).toMillis());
    }
  }

  @Test
  void shouldCompleteFuturesOnTheActorThread() throws Exception {
    RecordingActor actor = started("futures");

    CountDownLatch gate = new CountDownLatch(1);
    CompletableFuture<Boolean> answer =
        actor.call(() -> gate.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
    // attached before the task can finish, so it runs where the future is completed
    CompletableFuture<String> dependentThread =
        answer.thenApply(v -> Thread.currentThread().getName());
    gate.countDown();

    // Wait on the dependent first: a thread blocked in answer.get() may itself run answer's
    // pending dependents when it wakes up, which would make this check depend on timing.
    assertThat(dependentThread.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
        .startsWith("cairn-actor-" + name + "-");
    assertThat(answer.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
  }

  @Test
  void shouldKeepWorkersAliveWhenATaskThrowsOrIsInterrupted() throws Exception {
    // given
    RecordingActor actor = started("faulty");

    // when
    CompletableFuture<Void> failed =
        actor.submit(
            () -> {
              throw new IllegalStateException("boom");
            });
    CompletableFuture<Object> interrupted =
        actor.call(
            () -> {
              throw new InterruptedException("stop");
            });
    List<CompletableFuture<Integer>> later = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      int value = i;
      later.add(actor.call(() -> value));
    }

    // then
    assertThat(failed)
        .failsWithin(TIMEOUT)
        .withThrowableOfType(ExecutionException.class)
        .withCauseInstanceOf(IllegalStateException.class);
    assertThat(interrupted)
        .failsWithin(TIMEOUT)
        .withThrowableOfType(ExecutionException.class)
        .withCauseInstanceOf(InterruptedException.class);
    for (int i = 0; i < 10; i++) {
      assertThat(later.get(i).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(i);
    }
    Boolean workerInterrupted =
        actor
            .call(() -> Thread.currentThread().isInterrupted())
            .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(workerInterrupted).isFalse();
  }

  @Test
  void shouldClearInterruptsLeftByOnStartAndOnCloseBeforeTheNextUnitOfWork() throws Exception {
    // given one worker, so everything below runs on the same thread
    try (ThreadPoolActorScheduler single =
        new ThreadPoolActorScheduler(
            name + "-interrupt",
            ActorSchedulerConfig.defaults().withThreadCount(1).withCloseTimeout(TIMEOUT),
            Clock.system(),
            new SimpleMeterRegistry())) {
      Actor interrupting =
          new Actor("interrupting") {
            @Override
            protected void onStart() {
              Thread.currentThread().interrupt();
            }

            @Override
            protected void onClose() {
              Thread.currentThread().interrupt();
            }
          };
      RecordingActor other = new RecordingActor("other");
      single.start(other).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      // queued while NEW, so it runs in the same turn as onStart
      CompletableFuture<Boolean> afterStart =
          interrupting.call(() -> Thread.currentThread().isInterrupted());

      // when
      single.start(interrupting).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      interrupting.closeAsync().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      CompletableFuture<Boolean> afterClose =
          other.call(() -> Thread.currentThread().isInterrupted());

      // then
      assertThat(afterStart.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
          .as("interrupted after onStart")
          .isFalse();
      assertThat(afterClose.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
          .as("interrupted after another actor's onClose")
          .isFalse();
    }
  }

  @Test
  void shouldCloseActorsAndStopThreadsOnClose() throws Exception {
    // given
    RecordingActor actor = started("closing");
    actor.scheduleAtFixedRate(Duration.ofMillis(1), Duration.ofMillis(1), () -> {});
    assertThat(schedulerThreads()).hasSize(3); // 2 workers + the timer

    // when
    scheduler.close();

    // then
    assertThat(actor.events).containsExactly("start", "close");
    assertThat(actor.isClosed()).isTrue();
    await().atMost(TIMEOUT).until(() -> schedulerThreads().isEmpty());
    assertThat(scheduler.start(new RecordingActor("late"))).isCompletedExceptionally();
    assertThat(registry.find(SchedulerMetrics.QUEUE_DEPTH).meter()).isNull();
  }

  @Test
  void shouldRegisterQueueDepthAndTaskDurationMeters() throws Exception {
    // given an actor blocked in a task, with five more tasks queued behind it
    RecordingActor actor = started("metered");
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Void> blocker =
        actor.submit(
            () -> {
              entered.countDown();
              try {
                release.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    assertThat(entered.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    List<CompletableFuture<Void>> queued = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      queued.add(actor.submit(() -> {}));
    }
    queued.add(
        actor.submit(
            () -> {
              throw new IllegalStateException("counted as failure");
            }));

    // then
    Gauge depth = registry.get(SchedulerMetrics.QUEUE_DEPTH).gauge();
    assertThat(depth.getId().getTags()).isEmpty();
    assertThat(depth.value()).isEqualTo(5.0);
    assertThat(scheduler.queueDepth()).isEqualTo(5);
    assertThat(registry.get(SchedulerMetrics.ACTOR_COUNT).gauge().value()).isEqualTo(1.0);

    // when
    release.countDown();
    blocker.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    CompletableFuture.allOf(queued.toArray(CompletableFuture[]::new))
        .exceptionally(e -> null)
        .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);

    // then: a task is taken off the queue before it runs and counted before its future completes
    assertThat(depth.value()).isZero();
    Timer success = registry.get(SchedulerMetrics.TASK_DURATION).tag("result", "success").timer();
    Timer failure = registry.get(SchedulerMetrics.TASK_DURATION).tag("result", "failure").timer();
    assertThat(success.count()).isEqualTo(5);
    assertThat(failure.count()).isEqualTo(1);
    assertThat(success.totalTime(TimeUnit.NANOSECONDS)).isPositive();
  }

  private List<String> schedulerThreads() {
    String prefix = "cairn-actor-" + name + "-";
    List<String> names = new ArrayList<>();
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.getName().startsWith(prefix) && thread.isAlive()) {
        names.add(thread.getName());
      }
    }
    return names;
  }
}
