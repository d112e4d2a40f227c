package io.cairn.backups3;

import io.cairn.backupapi.BackupStoreException;
import io.cairn.backups3.client.S3Calls;
import io.cairn.scheduler.Futures;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one task per file on the store's transfer executor and waits for all of them. When one
 * fails, the others are told to stop (tasks not yet started are skipped; running ones check {@link
 * #stopped()}), every task is waited for — so nothing still writes when the caller undoes its work
 * — and the first failure is thrown.
 */
final class FileTasks {

  @FunctionalInterface
  interface Task<T> {
    T run() throws Exception;
  }

  private final Executor executor;
  private final AtomicBoolean stop = new AtomicBoolean();

  FileTasks(Executor executor) {
    this.executor = executor;
  }

  /** True once a task failed; running tasks should give up early. */
  boolean stopped() {
    return stop.get();
  }

  /**
   * Gives up the calling task if another one failed (its failure is the one reported).
   *
   * @throws CancellationException if a task failed
   */
  void checkNotStopped(String what) {
    if (stop.get()) {
      throw new CancellationException("Skipped " + what + " after another file failed");
    }
  }

  /** Runs every task; returns their results in order, or throws the first failure. */
  <T> List<T> runAll(List<Task<T>> tasks) throws Exception {
    return runAll(tasks, new long[tasks.size()]);
  }

  /**
   * Like {@link #runAll(List)}, but starts the tasks with the largest {@code sizes} first (ties in
   * their order), so the longest transfers do not start last and keep the others waiting.
   */
  <T> List<T> runAll(List<Task<T>> tasks, long[] sizes) throws Exception {
    if (sizes.length != tasks.size()) {
      throw new IllegalArgumentException(
          "Expected a size for each of the "
              + tasks.size()
              + " tasks, but got "
              + sizes.length
              + " sizes");
    }
    List<CompletableFuture<T>> futures = new ArrayList<>(tasks.size());
    for (int i = 0; i < tasks.size(); i++) {
      futures.add(new CompletableFuture<>());
    }
    Integer[] order = new Integer[tasks.size()];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, Comparator.comparingLong((Integer i) -> sizes[i]).reversed());
    for (int index : order) {
      Task<T> task = tasks.get(index);
      CompletableFuture<T> future = futures.get(index);
      try {
        executor.execute(
            () -> {
              if (stop.get()) {
                future.cancel(false);
                return;
              }
              try {
                future.complete(task.run());
              } catch (Exception e) {
                stop.set(true);
                future.completeExceptionally(e);
              } catch (Error e) {
                stop.set(true);
                future.completeExceptionally(e);
                throw e;
              }
            });
      } catch (RejectedExecutionException e) {
        stop.set(true);
        future.completeExceptionally(
            new IllegalStateException(
                "Expected the transfer executor to take a file task, but it refused (store closed?)",
                e));
      }
    }
    S3Calls.await(
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
            .handle((value, error) -> null),
        "file tasks");
    Throwable first = null;
    List<T> results = new ArrayList<>(futures.size());
    for (CompletableFuture<T> future : futures) {
      if (!future.isCompletedExceptionally()) {
        results.add(future.join());
        continue;
      }
      Throwable error = Futures.unwrap(future.handle((value, e) -> e).join());
      if (!(error instanceof CancellationException) && first == null) {
        first = error;
      }
    }
    if (first instanceof Exception e) {
      throw e;
    }
    if (first instanceof Error e) {
      throw e;
    }
    if (results.size() != tasks.size()) {
      throw new BackupStoreException(
          "Expected "
              + tasks.size()
              + " file tasks to finish, but "
              + (tasks.size() - results.size())
              + " were skipped");
    }
    return results;
  }
}
