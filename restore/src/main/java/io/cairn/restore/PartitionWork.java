package io.cairn.restore;

import io.cairn.restore.catalog.StoreCalls;
import io.cairn.scheduler.Futures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;

/**
 * Runs one task per partition with at most {@code concurrency} at once on an executor: that many
 * workers take partitions from a queue. After the first failure no further partition starts; the
 * running ones end, then the first failure (lowest partition id) is thrown with the others
 * suppressed. Blocks the caller until every started task ended.
 */
final class PartitionWork {

  private PartitionWork() {}

  static <T> Map<Integer, T> run(
      List<Integer> partitions, int concurrency, Executor executor, IntFunction<T> task) {
    ConcurrentLinkedQueue<Integer> queue = new ConcurrentLinkedQueue<>(partitions);
    Map<Integer, T> results = new TreeMap<>();
    Map<Integer, RuntimeException> failures = new TreeMap<>();
    AtomicBoolean stop = new AtomicBoolean();
    List<CompletableFuture<Void>> workers = new ArrayList<>();
    int workerCount = Math.max(1, Math.min(concurrency, partitions.size()));
    for (int i = 0; i < workerCount; i++) {
      workers.add(
          CompletableFuture.runAsync(
              () -> {
                Integer partitionId;
                while (!stop.get() && (partitionId = queue.poll()) != null) {
                  try {
                    T result = task.apply(partitionId);
                    synchronized (results) {
                      results.put(partitionId, result);
                    }
                  } catch (RuntimeException e) { // NOPMD - collected, thrown below
                    stop.set(true);
                    synchronized (results) {
                      failures.put(partitionId, e);
                    }
                  }
                }
              },
              executor));
    }
    try {
      CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get();
    } catch (InterruptedException e) {
      stop.set(true);
      Thread.currentThread().interrupt();
      throw new RestoreException(
          RestoreProblem.INTERRUPTED,
          OptionalInt.empty(),
          Optional.empty(),
          "Interrupted while restoring partitions " + partitions,
          e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw StoreCalls.translate(Futures.unwrap(e), "running a partition", OptionalInt.empty());
    }
    synchronized (results) {
      if (!failures.isEmpty()) {
        RuntimeException first = failures.values().iterator().next();
        failures.values().stream().skip(1).forEach(first::addSuppressed);
        throw first;
      }
      return new TreeMap<>(results);
    }
  }
}
