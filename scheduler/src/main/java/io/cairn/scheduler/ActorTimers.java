package io.cairn.scheduler;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The timers one {@link Actor} has armed and that have neither fired for good nor been cancelled:
 * it checks the delays of {@link Actor#schedule} and {@link Actor#scheduleAtFixedRate}, turns them
 * into due times on the host's clock, keeps the timers until they are done and cancels them all
 * when the actor closes. Whether a timer may be armed, fire or be re-armed is the actor's to decide
 * (under its lock, by its life cycle); this class keeps the set.
 */
final class ActorTimers {

  private final Actor actor;
  private final Set<ActorTimer> armed = ConcurrentHashMap.newKeySet();

  ActorTimers(Actor actor) {
    this.actor = actor;
  }

  /**
   * {@code delay} in nanoseconds, {@link Long#MAX_VALUE} if it does not fit.
   *
   * @throws IllegalArgumentException if {@code delay} is negative
   */
  long delayNanos(Duration delay, String what) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException(
          "Expected " + what + " >= 0, but was " + delay + " (actor " + actor.name() + ")");
    }
    try {
      return delay.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  /**
   * {@code period} in nanoseconds, {@link Long#MAX_VALUE} if it does not fit.
   *
   * @throws IllegalArgumentException if {@code period} is not positive
   */
  long periodNanos(Duration period) {
    long periodNanos = delayNanos(period, "period");
    if (periodNanos == 0) {
      throw new IllegalArgumentException(
          "Expected period > 0, but was " + period + " (actor " + actor.name() + ")");
    }
    return periodNanos;
  }

  /**
   * A timer due {@code delayNanos} after {@code nowNanos} ({@link Long#MAX_VALUE} if that
   * overflows), kept until it is done; the caller hands it to the host.
   */
  ActorTimer add(Runnable task, long nowNanos, long delayNanos, long periodNanos) {
    long due = delayNanos > Long.MAX_VALUE - nowNanos ? Long.MAX_VALUE : nowNanos + delayNanos;
    ActorTimer timer = new ActorTimer(actor, task, due, periodNanos);
    armed.add(timer);
    return timer;
  }

  /** A handle that is cancelled already, for an actor that takes no more tasks. */
  ActorTimer dead(Runnable task, long periodNanos) {
    ActorTimer dead = new ActorTimer(actor, task, Long.MAX_VALUE, periodNanos);
    dead.cancelQuietly();
    return dead;
  }

  /** The timer was cancelled or will not fire again. */
  void forget(ActorTimer timer) {
    armed.remove(timer);
  }

  /** The actor closes: every armed timer is cancelled and forgotten. */
  void cancelAll() {
    for (ActorTimer timer : armed) {
      timer.cancelQuietly();
    }
    armed.clear();
  }
}
