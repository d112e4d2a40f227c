package io.cairn.transport.sim;

import io.cairn.scheduler.DeterministicScheduler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/** Helpers to drive a {@link DeterministicScheduler} in tests of simulated members. */
public final class SimTesting {

  private SimTesting() {}

  /**
   * Runs the scheduler's tasks one at a time until {@code future} completes, at most {@code
   * stepsMax} tasks, and returns its value or throws the exception it failed with (unwrapped).
   *
   * @throws AssertionError if the future is not done when no task is left or after stepsMax tasks
   */
  public static <T> T runUntilDone(
      DeterministicScheduler scheduler, CompletableFuture<T> future, int stepsMax, String context) {
    int steps = 0;
    while (!future.isDone() && steps < stepsMax && scheduler.runNext()) {
      steps++;
    }
    if (!future.isDone()) {
      throw new AssertionError(
          "Expected the future to complete, but it did not after "
              + steps
              + " tasks ("
              + (scheduler.hasPendingTasks() ? "step limit reached" : "no task left")
              + ", "
              + scheduler.clock()
              + ", "
              + context
              + ")");
    }
    try {
      return future.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new AssertionError("Expected a RuntimeException, but got " + e.getCause(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("Interrupted reading a completed future", e);
    }
  }
}
