package io.cairn.raft;

import io.cairn.scheduler.Actor;
import io.cairn.scheduler.Cancellable;
import io.cairn.scheduler.Clock;
import java.time.Duration;

/**
 * The one actor timer that drives a {@link RaftServer}'s node (elections, heartbeats, retries): it
 * is armed for the node's next deadline and moved only when an earlier deadline comes up; one that
 * fires early is harmless, the tick then re-arms it. Actor thread only.
 */
final class DeadlineTimer {

  private final Actor actor;
  private final Clock clock;
  private final Runnable onDue;
  private Cancellable timer;
  private long dueMs = Long.MAX_VALUE;

  /**
   * @param onDue runs on the actor thread when the timer fires
   */
  DeadlineTimer(Actor actor, Clock clock, Runnable onDue) {
    this.actor = actor;
    this.clock = clock;
    this.onDue = onDue;
  }

  /** Makes the timer fire by {@code deadlineMs}; {@link Long#MAX_VALUE}: nothing is due. */
  void armFor(long deadlineMs) {
    if (deadlineMs == Long.MAX_VALUE) {
      return;
    }
    if (timer != null && !timer.isCancelled() && dueMs <= deadlineMs) {
      return; // fires no later than needed; the tick then reschedules
    }
    if (timer != null) {
      timer.cancel();
    }
    dueMs = deadlineMs;
    timer = actor.schedule(Duration.ofMillis(Math.max(0, deadlineMs - clock.millis())), this::fire);
  }

  void cancel() {
    if (timer != null) {
      timer.cancel();
    }
  }

  private void fire() {
    timer = null;
    dueMs = Long.MAX_VALUE;
    onDue.run();
  }
}
