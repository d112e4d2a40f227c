package io.cairn.scheduler;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Meters of a {@link ThreadPoolActorScheduler}, registered in the injected {@link MeterRegistry}
 * and removed again when the scheduler closes.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th><th>meaning</th></tr>
 *   <tr><td>{@code cairn.scheduler.actor.queue.depth}</td><td>gauge</td><td>none</td>
 *       <td>tasks waiting in the mailboxes of all live actors of the scheduler (a sum, so that
 *       actor names never become tags)</td></tr>
 *   <tr><td>{@code cairn.scheduler.actor.count}</td><td>gauge</td><td>none</td>
 *       <td>actors started and not yet closed</td></tr>
 *   <tr><td>{@code cairn.scheduler.timer.pending}</td><td>gauge</td><td>none</td>
 *       <td>timers armed on the timer thread (cancelled ones until they are purged)</td></tr>
 *   <tr><td>{@code cairn.scheduler.task.duration}</td><td>timer</td>
 *       <td>{@code result}={@code success}|{@code failure}</td>
 *       <td>execution time of each task on an actor thread, measured with the scheduler's
 *       clock</td></tr>
 * </table>
 *
 * <p>The meters carry no scheduler tag (tags come from a closed set). Run one scheduler per
 * registry, or give the registry common tags such as {@code node}; a second scheduler registering
 * into the same registry with the same tags would share the first one's gauges.
 */
public final class SchedulerMetrics {

  /** Gauge, tasks; no tags: tasks waiting in the mailboxes of all live actors. */
  public static final String QUEUE_DEPTH = "cairn.scheduler.actor.queue.depth";

  /** Gauge; no tags: actors started and not yet closed. */
  public static final String ACTOR_COUNT = "cairn.scheduler.actor.count";

  /** Gauge; no tags: timers armed on the timer thread. */
  public static final String TIMERS_PENDING = "cairn.scheduler.timer.pending";

  /** Timer; tag {@code result} = success, failure: execution time of each task. */
  public static final String TASK_DURATION = "cairn.scheduler.task.duration";

  private final MeterRegistry registry;
  private final Timer taskSuccess;
  private final Timer taskFailure;
  private final List<Meter> meters;

  <T> SchedulerMetrics(
      MeterRegistry registry,
      T source,
      ToDoubleFunction<T> queueDepth,
      ToDoubleFunction<T> actorCount,
      ToDoubleFunction<T> timersPending) {
    this.registry = registry;
    Gauge depth =
        Gauge.builder(QUEUE_DEPTH, source, queueDepth)
            .description("Tasks waiting in the mailboxes of all live actors")
            .baseUnit("tasks")
            .register(registry);
    Gauge actors =
        Gauge.builder(ACTOR_COUNT, source, actorCount)
            .description("Actors started and not yet closed")
            .register(registry);
    Gauge timers =
        Gauge.builder(TIMERS_PENDING, source, timersPending)
            .description("Timers armed on the timer thread")
            .register(registry);
    this.taskSuccess =
        Timer.builder(TASK_DURATION)
            .description("Execution time of a task on an actor thread")
            .tag("result", "success")
            .register(registry);
    this.taskFailure =
        Timer.builder(TASK_DURATION)
            .description("Execution time of a task on an actor thread")
            .tag("result", "failure")
            .register(registry);
    this.meters = List.of(depth, actors, timers, taskSuccess, taskFailure);
  }

  void recordTask(long durationNanos, boolean failed) {
    (failed ? taskFailure : taskSuccess).record(durationNanos, TimeUnit.NANOSECONDS);
  }

  /** Removes this scheduler's meters from the registry. */
  void close() {
    for (Meter meter : meters) {
      registry.remove(meter);
    }
  }
}
