package io.cairn.backupstore;

import io.cairn.backupapi.BackupStoreException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The lifecycle every backup store gives its operations: refused once the store is closed, run on
 * the executor the operation names (transfers and queries have pools of their own), timed under
 * their result, and waited for by {@link #close}. A checked failure becomes a {@link
 * BackupStoreException} naming the operation and the store; runtime failures (the SPI's own
 * exceptions, bad arguments) pass through as they are.
 *
 * <p>The timer is {@code <store>.operations} with tags {@code operation} (save, status, list,
 * delete, markFailed, restore, verify) and {@code result} (success, failure); it is recorded before
 * the future completes, so a caller that saw the result also sees the meter.
 */
public final class StoreOperations {

  /** One operation's work, on the executor it was submitted to. */
  @FunctionalInterface
  public interface Work<T> {
    T run() throws Exception;
  }

  private final String location;
  private final MeterRegistry registry;
  private final String operationsMeter;
  private final Set<CompletableFuture<?>> running = ConcurrentHashMap.newKeySet();
  private final Object lifecycle = new Object();
  private boolean closed;

  /**
   * @param location where the store is, for messages (a path, an S3 URL)
   * @param operationsMeter the name of the operations timer, e.g. {@code cairn.backupfs.operations}
   */
  public StoreOperations(String location, MeterRegistry registry, String operationsMeter) {
    this.location = location;
    this.registry = registry;
    this.operationsMeter = operationsMeter;
  }

  /** Runs {@code work} as {@code operation} on {@code executor}; its future completes there. */
  public <T> CompletableFuture<T> submit(String operation, Executor executor, Work<T> work) {
    CompletableFuture<T> future = new CompletableFuture<>();
    synchronized (lifecycle) {
      if (closed) {
        return CompletableFuture.failedFuture(
            new IllegalStateException(
                "Expected an open backup store, but it is closed ("
                    + operation
                    + " at "
                    + location
                    + ")"));
      }
      running.add(future);
    }
    future.whenComplete((value, error) -> running.remove(future));
    Timer.Sample sample = Timer.start(registry);
    try {
      executor.execute(
          () -> {
            try {
              T value = work.run();
              stop(sample, operation, true);
              future.complete(value);
            } catch (UncheckedIOException e) {
              fail(future, sample, operation, failed(operation, e.getCause()));
            } catch (RuntimeException e) {
              fail(future, sample, operation, e);
            } catch (Exception e) {
              fail(future, sample, operation, failed(operation, e));
            } catch (Error e) {
              fail(future, sample, operation, e);
              throw e;
            }
          });
    } catch (RejectedExecutionException e) {
      fail(
          future,
          sample,
          operation,
          new IllegalStateException(
              "Expected the backup store's executor to take " + operation + ", but it refused", e));
    }
    return future;
  }

  /**
   * Refuses new operations and waits for the running ones to end.
   *
   * @return false if the store was closed already (the caller then releases nothing)
   */
  public boolean close() {
    List<CompletableFuture<?>> pending;
    synchronized (lifecycle) {
      if (closed) {
        return false;
      }
      closed = true;
      pending = List.copyOf(running);
    }
    CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
        .exceptionally(error -> null)
        .join();
    return true;
  }

  private BackupStoreException failed(String operation, Throwable cause) {
    return new BackupStoreException(
        "Expected " + operation + " to succeed, but " + cause + " (store " + location + ")", cause);
  }

  /** Records the failed operation, then fails its future (the meter is there when it fails). */
  private void fail(
      CompletableFuture<?> future, Timer.Sample sample, String operation, Throwable error) {
    stop(sample, operation, false);
    future.completeExceptionally(error);
  }

  private void stop(Timer.Sample sample, String operation, boolean success) {
    sample.stop(
        Timer.builder(operationsMeter)
            .description("Backup store operations")
            .tag("operation", operation)
            .tag("result", success ? "success" : "failure")
            .register(registry));
  }
}
