package io.cairn.scheduler;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The actor boundary of one {@link Actor}: runs its tasks so that nothing they throw escapes into
 * the scheduler's thread (it is logged and answered by the task's future), counts each with the
 * host, and clears an interrupt that a unit of work leaves on the thread.
 */
final class ActorBoundary {

  // the actor's logger: these lines are the actor's
  private static final Logger LOG = LoggerFactory.getLogger(Actor.class);

  private final String name;

  /**
   * @param name the actor's name, for the log
   */
  ActorBoundary(String name) {
    this.name = name;
  }

  /**
   * Every task runs here; nothing it throws escapes. The task is counted before its future
   * completes, so whoever waits on the future sees it in the metrics.
   *
   * @param future completed with the task's outcome, or null (plain executor tasks, timers)
   */
  void invoke(ActorHost host, Callable<?> callable, CompletableFuture<Object> future) {
    Clock clock = host.clock();
    long startNanos = clock.nanos();
    Object value = null;
    Throwable failure = null;
    try {
      value = callable.call();
    } catch (Throwable e) { // NOPMD - actor boundary: a task must never kill the worker
      failure = e;
      LOG.warn("Task of actor {} failed; the actor goes on", name, e);
    }
    clearInterrupt("A task");
    host.recordTask(clock.nanos() - startNanos, failure != null);
    if (future != null) {
      if (failure == null) {
        future.complete(value);
      } else {
        future.completeExceptionally(failure);
      }
      // The future's dependents ran inline, on this thread.
      clearInterrupt("A dependent of a task's future");
    }
  }

  /**
   * The thread belongs to the scheduler, not to the unit of work that just ran (a task, a dependent
   * of its future, onStart, onClose): an interrupt it threw or left behind is answered by its
   * future or logged here, and must not leak into what runs next on this thread.
   */
  void clearInterrupt(String what) {
    if (Thread.interrupted()) {
      LOG.warn("{} of actor {} left its thread interrupted; clearing the flag", what, name);
    }
  }
}
