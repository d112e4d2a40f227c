package io.cairn.backupfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ParallelCopiesTest {

  /** How long a copy waits for another thread; generous, as the machine may be loaded. */
  private static final long WAIT_SECONDS = 60;

  private final ExecutorService pool = Executors.newFixedThreadPool(3);

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  @Test
  void shouldRunEveryCopyOnceAndNoMoreAtOnceThanAllowed() throws Exception {
    var runs = new ConcurrentHashMap<Integer, AtomicInteger>();
    var running = new AtomicInteger();
    var mostAtOnce = new AtomicInteger();

    ParallelCopies.run(
        pool,
        2,
        200,
        index -> {
          mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
          runs.computeIfAbsent(index, i -> new AtomicInteger()).incrementAndGet();
          running.decrementAndGet();
        });

    assertThat(runs).hasSize(200).allSatisfy((index, count) -> assertThat(count.get()).isOne());
    assertThat(mostAtOnce.get()).isBetween(1, 2);
  }

  @Test
  void shouldCopyInParallelOnTheExecutorsThreads() throws Exception {
    // each copy waits for the other: passes only if both run at once
    var barrier = new CyclicBarrier(2);
    var threads = ConcurrentHashMap.<String>newKeySet();

    ParallelCopies.run(
        pool,
        2,
        2,
        index -> {
          threads.add(Thread.currentThread().getName());
          try {
            barrier.await(WAIT_SECONDS, TimeUnit.SECONDS);
          } catch (Exception e) {
            throw new IOException("Expected the other copy to run at the same time", e);
          }
        });

    assertThat(threads).hasSize(2).contains(Thread.currentThread().getName());
  }

  @Test
  void shouldLetOtherTasksOfTheExecutorRunBetweenTwoFilesOfAHelper() throws Exception {
    // given a one-thread executor, as a store whose other operations queue behind a save
    ExecutorService single = Executors.newSingleThreadExecutor(r -> new Thread(r, "store-io"));
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    var helperFiles = new AtomicInteger();
    var twoHelperFiles = new CountDownLatch(2);
    try {
      // when another task is queued while the helper copies its first file (the calling thread
      // holds its own first file until the helper copied two)
      ParallelCopies.run(
          single,
          2,
          6,
          index -> {
            if (Thread.currentThread().getName().equals("store-io")) {
              events.add("file");
              if (helperFiles.incrementAndGet() == 1) {
                single.execute(() -> events.add("other task"));
              }
              twoHelperFiles.countDown();
              return;
            }
            try {
              if (!twoHelperFiles.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IOException("Expected the helper to copy two files");
              }
            } catch (InterruptedException e) {
              throw new IOException(e);
            }
          });
    } finally {
      single.shutdownNow();
    }

    // then it ran between the helper's first and second file, not after the save
    assertThat(events.subList(0, 3)).containsExactly("file", "other task", "file");
  }

  @Test
  void shouldCopyEverythingOnTheCallingThreadWhenNoHelperStarts() throws Exception {
    // an executor that queues and never runs: a store executor with no free thread
    List<Runnable> queued = new ArrayList<>();
    var copied = new ArrayList<Integer>();

    ParallelCopies.run(queued::add, 4, 5, copied::add);

    assertThat(copied).containsExactly(0, 1, 2, 3, 4);
    assertThat(queued).hasSize(3);
    // helpers that start after the save returned find nothing to do
    queued.forEach(Runnable::run);
    assertThat(copied).hasSize(5);
  }

  @Test
  void shouldCopyEverythingWhenTheExecutorRefusesHelpers() throws Exception {
    var copied = new ArrayList<Integer>();

    ParallelCopies.run(
        command -> {
          throw new RejectedExecutionException("full");
        },
        3,
        4,
        copied::add);

    assertThat(copied).containsExactly(0, 1, 2, 3);
  }

  @Test
  void shouldThrowTheFirstFailureAndStartNoCopyAfterIt() {
    var copied = new ArrayList<Integer>();

    assertThatThrownBy(
            () ->
                ParallelCopies.run(
                    pool,
                    1,
                    10,
                    index -> {
                      if (index == 3) {
                        throw new IOException("disk full at " + index);
                      }
                      copied.add(index);
                    }))
        .isInstanceOf(IOException.class)
        .hasMessage("disk full at 3");

    assertThat(copied).containsExactly(0, 1, 2);
  }

  @Test
  void shouldWaitForTheRunningCopiesBeforeReportingAFailure() {
    // one copy fails while the other still runs, on another thread
    var bothStarted = new CyclicBarrier(2);
    var failed = new CountDownLatch(1);
    var otherDone = new AtomicInteger();

    assertThatThrownBy(
            () ->
                ParallelCopies.run(
                    pool,
                    2,
                    2,
                    index -> {
                      try {
                        bothStarted.await(WAIT_SECONDS, TimeUnit.SECONDS);
                        if (index == 0) {
                          failed.countDown();
                          throw new IllegalStateException("copy 0 broke");
                        }
                        if (!failed.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                          throw new IOException("Expected copy 0 to fail while this one runs");
                        }
                      } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                        throw new IOException("Expected both copies to run at once", e);
                      }
                      otherDone.incrementAndGet();
                    }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("copy 0 broke");

    assertThat(otherDone.get()).isOne();
  }
}
