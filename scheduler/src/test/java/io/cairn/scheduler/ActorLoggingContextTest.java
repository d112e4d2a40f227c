package io.cairn.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/** An actor's logging context is in the MDC whenever it runs, and only then. */
class ActorLoggingContextTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final Map<String, String> PARTITION_7_ON_NODE_3 = LoggingContext.partition(3, 7);

  @AfterEach
  void clearMdc() {
    MDC.clear();
  }

  /** Records "phase nodeId/partitionId" as seen in the MDC by each unit of its work. */
  private static final class ContextActor extends Actor {
    final List<String> seen = new CopyOnWriteArrayList<>();

    ContextActor(String name, Map<String, String> loggingContext) {
      super(name, loggingContext);
    }

    ContextActor(String name) {
      super(name);
    }

    @Override
    protected void onStart() {
      record("start");
    }

    @Override
    protected void onClose() {
      record("close");
    }

    void record(String phase) {
      seen.add(
          phase
              + " "
              + MDC.get(LoggingContext.NODE_ID)
              + "/"
              + MDC.get(LoggingContext.PARTITION_ID));
    }
  }

  @Test
  void shouldSeeTheContextInOnStartTasksTimersAndOnCloseAndRestoreTheThreadAfterEachTurn() {
    // given a thread with its own MDC: a node id, an unrelated key, no partition id
    SimClock clock = new SimClock(0);
    DeterministicScheduler scheduler = new DeterministicScheduler(clock);
    MDC.put(LoggingContext.NODE_ID, "1");
    MDC.put("role", "leader");
    Map<String, String> before = MDC.getCopyOfContextMap();
    ContextActor actor = new ContextActor("partition-7", PARTITION_7_ON_NODE_3);

    // when every kind of unit runs
    scheduler.start(actor);
    scheduler.runUntilIdle();
    assertThat(MDC.getCopyOfContextMap()).as("after onStart").isEqualTo(before);
    actor.submit(() -> actor.record("task"));
    actor.executor().execute(() -> actor.record("executor"));
    actor.call(() -> 42).thenRun(() -> actor.record("dependent"));
    scheduler.runUntilIdle();
    assertThat(MDC.getCopyOfContextMap()).as("after tasks").isEqualTo(before);
    actor.schedule(Duration.ofMillis(5), () -> actor.record("timer"));
    Cancellable periodic =
        actor.scheduleAtFixedRate(
            Duration.ofMillis(10), Duration.ofMillis(10), () -> actor.record("periodic"));
    scheduler.runFor(Duration.ofMillis(20));
    periodic.cancel();
    assertThat(MDC.getCopyOfContextMap()).as("after timers").isEqualTo(before);
    actor.closeAsync();
    scheduler.runUntilIdle();

    // then each unit saw the actor's node and partition, and the thread got its own MDC back
    assertThat(actor.seen)
        .containsExactly(
            "start 3/7",
            "task 3/7",
            "executor 3/7",
            "dependent 3/7",
            "timer 3/7",
            "periodic 3/7",
            "periodic 3/7",
            "close 3/7");
    assertThat(MDC.getCopyOfContextMap()).as("after onClose").isEqualTo(before);
  }

  @Test
  void shouldUndoWhatATaskLeftUnderAContextKeyButNotTouchOtherKeys() {
    // given
    DeterministicScheduler scheduler = new DeterministicScheduler(new SimClock(0));
    ContextActor actor = new ContextActor("leaky", PARTITION_7_ON_NODE_3);
    scheduler.start(actor);

    // when a task overwrites a context key and adds one of its own, without undoing either
    actor.submit(
        () -> {
          MDC.put(LoggingContext.PARTITION_ID, "99");
          MDC.put("leaked", "yes");
        });
    scheduler.runUntilIdle();

    // then the context key is restored (absent before: removed); the task's own key is its own
    assertThat(MDC.get(LoggingContext.PARTITION_ID)).isNull();
    assertThat(MDC.get(LoggingContext.NODE_ID)).isNull();
    assertThat(MDC.get("leaked")).isEqualTo("yes");
  }

  @Test
  void shouldLeaveTheMdcAloneForAnActorWithoutContext() {
    // given a thread that carries a partition id already
    DeterministicScheduler scheduler = new DeterministicScheduler(new SimClock(0));
    MDC.put(LoggingContext.PARTITION_ID, "5");
    ContextActor actor = new ContextActor("plain");

    // when
    scheduler.start(actor);
    actor.submit(() -> actor.record("task"));
    scheduler.runUntilIdle();

    // then
    assertThat(actor.loggingContext()).isEmpty();
    assertThat(actor.seen).containsExactly("start null/5", "task null/5");
    assertThat(MDC.get(LoggingContext.PARTITION_ID)).isEqualTo("5");
  }

  @Test
  void shouldNotLeakTheContextToTheNextActorOnTheSameWorker() throws Exception {
    // given one worker, so both actors run on the same thread, one after the other
    try (ThreadPoolActorScheduler single =
        new ThreadPoolActorScheduler(
            "mdc",
            ActorSchedulerConfig.defaults().withThreadCount(1).withCloseTimeout(TIMEOUT),
            Clock.system(),
            new SimpleMeterRegistry())) {
      ContextActor partition = new ContextActor("partition-7", PARTITION_7_ON_NODE_3);
      ContextActor plain = new ContextActor("plain");
      single.start(partition).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      single.start(plain).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);

      // when each runs a task, a timer (through the mailbox here) and closes, interleaved
      String partitionThread =
          partition
              .call(
                  () -> {
                    partition.record("task");
                    return Thread.currentThread().getName();
                  })
              .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      String plainThread =
          plain
              .call(
                  () -> {
                    plain.record("task");
                    return Thread.currentThread().getName();
                  })
              .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      CompletableFuture<Void> timerFired = new CompletableFuture<>();
      partition.schedule(
          Duration.ofMillis(1),
          () -> {
            partition.record("timer");
            timerFired.complete(null);
          });
      timerFired.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      plain.submit(() -> plain.record("after")).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      partition.closeAsync().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      plain.submit(() -> plain.record("last")).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);

      // then
      assertThat(plainThread).isEqualTo(partitionThread);
      assertThat(partition.seen).containsExactly("start 3/7", "task 3/7", "timer 3/7", "close 3/7");
      assertThat(plain.seen)
          .containsExactly(
              "start null/null", "task null/null", "after null/null", "last null/null");
    }
  }

  @Test
  void shouldRejectBlankKeysAndNullValues() {
    Map<String, String> nullValue = new HashMap<>();
    nullValue.put(LoggingContext.PARTITION_ID, null);

    assertThatThrownBy(() -> new ContextActor("blank", Map.of(" ", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("non-blank key")
        .hasMessageContaining("actor blank");
    assertThatThrownBy(() -> new ContextActor("null-value", nullValue))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("partitionId=null");
    assertThatThrownBy(() -> new ContextActor("null", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected a logging context");
  }

  @Test
  void shouldBuildTheWellKnownContexts() {
    assertThat(LoggingContext.partition(3, 7))
        .containsExactlyInAnyOrderEntriesOf(Map.of("nodeId", "3", "partitionId", "7"));
    assertThat(LoggingContext.partition(7)).containsExactlyEntriesOf(Map.of("partitionId", "7"));
    assertThat(LoggingContext.node(3)).containsExactlyEntriesOf(Map.of("nodeId", "3"));
    assertThat(new ContextActor("copy", PARTITION_7_ON_NODE_3).loggingContext())
        .isEqualTo(PARTITION_7_ON_NODE_3);
  }
}
