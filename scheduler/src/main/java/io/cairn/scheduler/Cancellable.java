package io.cairn.scheduler;

/** A handle to a timer or a scheduled task. */
public interface Cancellable {

  /**
   * Prevents the task from running if it has not started yet; a periodic task runs no more.
   * Idempotent; may be called from any thread. A run already in progress is not interrupted.
   */
  void cancel();

  /** True once {@link #cancel()} was called (or the owner closed and cancelled it). */
  boolean isCancelled();
}
