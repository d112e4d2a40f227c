package io.cairn.benchmarks.hotpath;

import io.cairn.scheduler.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An open loop: call {@code i} is due at {@code start + i / rate}, whatever the answers do. The
 * sender waits for the due time and for one of {@value #MAX_IN_FLIGHT} in-flight slots; latency is
 * measured from the due time, so a system that falls behind shows it instead of slowing the sender
 * down (no coordinated omission), as the cli's load generator measures. Calls due in the measured
 * window are recorded (errors by code); throughput counts the acknowledgements that arrive inside
 * the window.
 *
 * <p>Something may run {@code alongside} the measured window (backups): it starts with the window
 * on its own thread, and the window lasts until it has ended, at least {@code window}.
 */
final class OpenLoopDriver {

  static final int MAX_IN_FLIGHT = 8192;

  /** The longest a window is extended for what runs alongside it. */
  static final Duration EXTENSION_MAX = Duration.ofMinutes(10);

  private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(60);

  private final Clock clock;
  private final ProcCpuSampler cpu;

  OpenLoopDriver(Clock clock, ProcCpuSampler cpu) {
    this.clock = clock;
    this.cpu = cpu;
  }

  /**
   * The measurement, the acknowledgements over time (from the start of the warm-up), the window's
   * edges and what ran alongside returned.
   */
  record Result<T>(
      Measurement measurement,
      AckTimeline timeline,
      long windowStartNanos,
      long windowEndNanos,
      T alongside) {}

  Result<Void> run(
      String step, Workload workload, double ratePerSecond, Duration warmup, Duration window)
      throws InterruptedException {
    return run(step, workload, ratePerSecond, warmup, window, () -> null);
  }

  <T> Result<T> run(
      String step,
      Workload workload,
      double ratePerSecond,
      Duration warmup,
      Duration window,
      Callable<T> alongside)
      throws InterruptedException {
    double nanosPerCall = 1e9 / ratePerSecond;
    Semaphore slots = new Semaphore(MAX_IN_FLIGHT);
    LatencyRecorder warm = new LatencyRecorder();
    LatencyRecorder measured = new LatencyRecorder();
    long start = clock.nanos();
    long windowStart = start + warmup.toNanos();
    long windowMinEnd = windowStart + window.toNanos();
    long hardEnd = windowMinEnd + EXTENSION_MAX.toNanos();
    AckTimeline timeline = new AckTimeline(start, hardEnd - start);
    FutureTask<T> task = new FutureTask<>(alongside);
    Thread alongsideThread = new Thread(task, "alongside-" + step);
    alongsideThread.setDaemon(true);
    Map<String, Long> cpuStart = null;
    long sequence = 0;
    long windowEnd;
    while (true) {
      long due = start + (long) (sequence * nanosPerCall);
      if (cpuStart == null && due - windowStart >= 0) {
        Pacing.sleepUntil(clock, windowStart);
        cpuStart = cpu.sample();
        alongsideThread.start();
      }
      // a sender that fell behind stops at the wall-clock end, as the cli's load generator does
      long late = Math.max(due, clock.nanos());
      if ((late - windowMinEnd >= 0 && task.isDone()) || late - hardEnd >= 0) {
        Pacing.sleepUntil(clock, due);
        windowEnd = clock.nanos();
        break;
      }
      Pacing.sleepUntil(clock, due);
      slots.acquire();
      LatencyRecorder recorder = due - windowStart >= 0 ? measured : warm;
      CompletableFuture<?> call;
      try {
        call = workload.send(sequence);
      } catch (RuntimeException e) {
        call = CompletableFuture.failedFuture(e);
      }
      call.whenComplete(
          (result, error) -> {
            long now = clock.nanos();
            if (error == null) {
              recorder.acknowledged(now - due);
              timeline.acknowledged(now);
            } else {
              recorder.failed(error);
            }
            slots.release();
          });
      sequence++;
    }
    Map<String, Long> cpuEnd = cpu.sample();
    drain(slots, workload);
    T alongsideResult = alongsideResult(task, alongsideThread);
    double seconds = (windowEnd - windowStart) / 1e9;
    double rate = timeline.ratePerSecond(windowStart, windowEnd);
    Measurement measurement =
        new Measurement(
            step,
            workload.side(),
            workload.name(),
            "open",
            0,
            ratePerSecond,
            seconds,
            Math.round(rate * seconds),
            rate,
            measured.latency(),
            measured.errors(),
            cpu.secondsBetween(cpuStart, cpuEnd));
    return new Result<>(measurement, timeline, windowStart, windowEnd, alongsideResult);
  }

  private static <T> T alongsideResult(FutureTask<T> task, Thread thread)
      throws InterruptedException {
    if (!task.isDone()) {
      thread.interrupt();
    }
    try {
      return task.get(DRAIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "Expected what ran alongside the load to succeed, but it failed: " + e.getCause(),
          e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "Expected what ran alongside the load to end within "
              + DRAIN_TIMEOUT
              + " of the load, but it did not",
          e);
    }
  }

  private static void drain(Semaphore slots, Workload workload) throws InterruptedException {
    if (!slots.tryAcquire(MAX_IN_FLIGHT, DRAIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException(
          "Expected every call in flight to be answered within "
              + DRAIN_TIMEOUT
              + ", but "
              + (MAX_IN_FLIGHT - slots.availablePermits())
              + " were not ("
              + workload.side()
              + " "
              + workload.name()
              + ")");
    }
    slots.release(MAX_IN_FLIGHT);
  }
}
