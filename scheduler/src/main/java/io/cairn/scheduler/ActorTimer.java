package io.cairn.scheduler;

/**
 * A one-shot or fixed-rate timer of one actor. The host keeps it until {@link #dueNanos()} and then
 * hands it to the actor, whose thread runs the task (and re-arms a fixed-rate timer).
 */
final class ActorTimer implements Cancellable {

  private final Actor actor;
  private final Runnable task;
  private final long periodNanos;
  private volatile long dueNanos;
  private volatile boolean cancelled;

  ActorTimer(Actor actor, Runnable task, long dueNanos, long periodNanos) {
    this.actor = actor;
    this.task = task;
    this.dueNanos = dueNanos;
    this.periodNanos = periodNanos;
  }

  Actor actor() {
    return actor;
  }

  Runnable task() {
    return task;
  }

  long dueNanos() {
    return dueNanos;
  }

  boolean isPeriodic() {
    return periodNanos > 0;
  }

  /**
   * Moves a fixed-rate timer to its next period: {@code due + period}, or {@code now} if that is
   * already past (missed periods are skipped rather than run back to back).
   */
  void advance(long nowNanos) {
    dueNanos = Math.max(dueNanos + periodNanos, nowNanos);
  }

  @Override
  public void cancel() {
    cancelled = true;
    actor.forgetTimer(this);
  }

  /** Marks the timer cancelled without touching the actor's bookkeeping (the actor closes). */
  void cancelQuietly() {
    cancelled = true;
  }

  @Override
  public boolean isCancelled() {
    return cancelled;
  }

  @Override
  public String toString() {
    return "ActorTimer{actor="
        + actor.name()
        + ", dueNanos="
        + dueNanos
        + ", periodNanos="
        + periodNanos
        + ", cancelled="
        + cancelled
        + "}";
  }
}
