package io.cairn.benchmarks.hotpath;

import io.cairn.scheduler.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A closed loop: {@code concurrency} calls in flight, each answer immediately sends the next (no
 * pause, no retry: a failed call is counted under its code and the next one goes out). The loop
 * runs the warm-up, then the measured window: what is answered inside the window is recorded,
 * latency from sending to the answer. CPU of every process group is sampled at the window's edges.
 */
final class ClosedLoopDriver {

  /** How long the calls in flight at the end may take to answer (beyond the client's deadline). */
  private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(60);

  private final Clock clock;
  private final ProcCpuSampler cpu;

  ClosedLoopDriver(Clock clock, ProcCpuSampler cpu) {
    this.clock = clock;
    this.cpu = cpu;
  }

  Measurement run(Workload workload, int concurrency, Duration warmup, Duration window)
      throws InterruptedException {
    Loop loop = new Loop(workload, concurrency);
    long start = clock.nanos();
    loop.start();
    Pacing.sleepUntil(clock, start + warmup.toNanos());
    LatencyRecorder measured = new LatencyRecorder();
    Map<String, Long> cpuStart = cpu.sample();
    long windowStart = clock.nanos();
    loop.recorder.set(measured);
    Pacing.sleepUntil(clock, windowStart + window.toNanos());
    loop.recorder.set(new LatencyRecorder()); // answers after the window are not counted
    long windowEnd = clock.nanos();
    Map<String, Long> cpuEnd = cpu.sample();
    loop.stopAndDrain();
    double seconds = (windowEnd - windowStart) / 1e9;
    return new Measurement(
        "c" + concurrency,
        workload.side(),
        workload.name(),
        "closed",
        concurrency,
        0,
        seconds,
        measured.acknowledgedCount(),
        measured.acknowledgedCount() / seconds,
        measured.latency(),
        measured.errors(),
        cpu.secondsBetween(cpuStart, cpuEnd));
  }

  /** The loop's state: the recorder of the current phase, the stop flag, the slots' latch. */
  private final class Loop {
    private final Workload workload;
    private final int concurrency;
    private final AtomicReference<LatencyRecorder> recorder =
        new AtomicReference<>(new LatencyRecorder());
    private final AtomicLong sequence = new AtomicLong();
    private final CountDownLatch stopped;
    // runs the next call when an answer came synchronously, so a burst of immediate failures
    // cannot recurse on one stack
    private final ExecutorService trampoline =
        Executors.newSingleThreadExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "closed-loop");
              thread.setDaemon(true);
              return thread;
            });
    private volatile boolean stopping;

    Loop(Workload workload, int concurrency) {
      this.workload = workload;
      this.concurrency = concurrency;
      this.stopped = new CountDownLatch(concurrency);
    }

    void start() {
      for (int slot = 0; slot < concurrency; slot++) {
        sendNext();
      }
    }

    void stopAndDrain() throws InterruptedException {
      stopping = true;
      try {
        if (!stopped.await(DRAIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
          throw new IllegalStateException(
              "Expected every call in flight to be answered within "
                  + DRAIN_TIMEOUT
                  + ", but "
                  + stopped.getCount()
                  + " of "
                  + concurrency
                  + " were not ("
                  + workload.side()
                  + " "
                  + workload.name()
                  + ")");
        }
      } finally {
        trampoline.shutdownNow();
      }
    }

    private void sendNext() {
      if (stopping) {
        stopped.countDown();
        return;
      }
      long sentAt = clock.nanos();
      CompletableFuture<?> call;
      try {
        call = workload.send(sequence.getAndIncrement());
      } catch (RuntimeException e) {
        call = CompletableFuture.failedFuture(e);
      }
      if (call.isDone()) {
        CompletableFuture<?> done = call;
        trampoline.execute(() -> answered(done, sentAt));
      } else {
        call.whenComplete((result, error) -> answered(error, sentAt));
      }
    }

    private void answered(CompletableFuture<?> done, long sentAt) {
      Throwable error = null;
      try {
        done.join();
      } catch (RuntimeException e) {
        error = e;
      }
      answered(error, sentAt);
    }

    private void answered(Throwable error, long sentAt) {
      LatencyRecorder current = recorder.get();
      if (error == null) {
        current.acknowledged(clock.nanos() - sentAt);
      } else {
        current.failed(error);
      }
      sendNext();
    }
  }
}
