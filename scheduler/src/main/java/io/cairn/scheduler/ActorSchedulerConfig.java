package io.cairn.scheduler;

import java.time.Duration;

/**
 * Immutable, validated settings of a {@link ThreadPoolActorScheduler}.
 *
 * <ul>
 *   <li>{@code threadCount} (default 2): worker threads that actors are multiplexed over.
 *   <li>{@code tasksPerTurn} (default 64): tasks a worker runs for one actor before it yields the
 *       worker to other actors; bounds how long one busy actor can delay the others.
 *   <li>{@code maxIdleParkDuration} (default 100ms): longest park of an idle worker. Workers are
 *       unparked when work arrives, so this only bounds the cost of a missed wake-up.
 *   <li>{@code closeTimeout} (default 10s): how long {@link ThreadPoolActorScheduler#close()} waits
 *       for actors to close and threads to end.
 * </ul>
 */
public final class ActorSchedulerConfig {

  private static final int THREAD_COUNT_MAX = 256;

  private final int threadCount;
  private final int tasksPerTurn;
  private final Duration maxIdleParkDuration;
  private final Duration closeTimeout;

  private ActorSchedulerConfig(
      int threadCount, int tasksPerTurn, Duration maxIdleParkDuration, Duration closeTimeout) {
    if (threadCount < 1 || threadCount > THREAD_COUNT_MAX) {
      throw new IllegalArgumentException(
          "Expected threadCount in [1, "
              + THREAD_COUNT_MAX
              + "], but was "
              + threadCount
              + " (ActorSchedulerConfig)");
    }
    if (tasksPerTurn < 1) {
      throw new IllegalArgumentException(
          "Expected tasksPerTurn >= 1, but was " + tasksPerTurn + " (ActorSchedulerConfig)");
    }
    requirePositive(maxIdleParkDuration, "maxIdleParkDuration");
    requirePositive(closeTimeout, "closeTimeout");
    this.threadCount = threadCount;
    this.tasksPerTurn = tasksPerTurn;
    this.maxIdleParkDuration = maxIdleParkDuration;
    this.closeTimeout = closeTimeout;
  }

  /** The defaults listed in the class doc. */
  public static ActorSchedulerConfig defaults() {
    return new ActorSchedulerConfig(2, 64, Duration.ofMillis(100), Duration.ofSeconds(10));
  }

  public ActorSchedulerConfig withThreadCount(int value) {
    return new ActorSchedulerConfig(value, tasksPerTurn, maxIdleParkDuration, closeTimeout);
  }

  public ActorSchedulerConfig withTasksPerTurn(int value) {
    return new ActorSchedulerConfig(threadCount, value, maxIdleParkDuration, closeTimeout);
  }

  public ActorSchedulerConfig withMaxIdleParkDuration(Duration value) {
    return new ActorSchedulerConfig(threadCount, tasksPerTurn, value, closeTimeout);
  }

  public ActorSchedulerConfig withCloseTimeout(Duration value) {
    return new ActorSchedulerConfig(threadCount, tasksPerTurn, maxIdleParkDuration, value);
  }

  public int threadCount() {
    return threadCount;
  }

  public int tasksPerTurn() {
    return tasksPerTurn;
  }

  public Duration maxIdleParkDuration() {
    return maxIdleParkDuration;
  }

  public Duration closeTimeout() {
    return closeTimeout;
  }

  private static void requirePositive(Duration value, String key) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(
          "Expected " + key + " > 0, but was " + value + " (ActorSchedulerConfig)");
    }
  }

  @Override
  public String toString() {
    return "ActorSchedulerConfig{threadCount="
        + threadCount
        + ", tasksPerTurn="
        + tasksPerTurn
        + ", maxIdleParkDuration="
        + maxIdleParkDuration
        + ", closeTimeout="
        + closeTimeout
        + "}";
  }
}
