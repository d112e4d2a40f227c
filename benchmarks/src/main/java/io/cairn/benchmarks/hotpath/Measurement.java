package io.cairn.benchmarks.hotpath;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * One measured step.
 *
 * @param step what the step was, e.g. {@code c16} (closed loop, 16 in flight) or {@code 80%} (open
 *     loop at 80% of the highest deposit rate)
 * @param side {@code cairn} or {@code etcd}
 * @param workload {@code deposit}, {@code transfer}, {@code put}
 * @param mode {@code closed} (concurrency calls in flight) or {@code open} (a fixed rate)
 * @param concurrency calls in flight (closed loop); 0 for an open loop
 * @param offeredPerSecond the rate sent (open loop); 0 for a closed loop
 * @param seconds the measured window
 * @param acknowledged calls answered with success in the window
 * @param opsPerSecond acknowledged / seconds
 * @param latency of the acknowledged calls: from sending (closed loop), from the due time (open
 *     loop)
 * @param errors failed calls by code
 * @param cpuSeconds CPU seconds of each process group in the window
 */
record Measurement(
    String step,
    String side,
    String workload,
    String mode,
    int concurrency,
    double offeredPerSecond,
    double seconds,
    long acknowledged,
    double opsPerSecond,
    LatencyRecorder.Latency latency,
    Map<String, Long> errors,
    Map<String, Double> cpuSeconds) {

  Measurement {
    errors = Collections.unmodifiableMap(new TreeMap<>(errors));
    cpuSeconds = Collections.unmodifiableMap(new LinkedHashMap<>(cpuSeconds));
  }

  long errorCount() {
    return errors.values().stream().mapToLong(Long::longValue).sum();
  }

  /** CPU milliseconds of {@code group} per acknowledged call; NaN when nothing was acknowledged. */
  double cpuMsPerOp(String group) {
    Double seconds = cpuSeconds.get(group);
    if (seconds == null || acknowledged == 0) {
      return Double.NaN;
    }
    return seconds * 1000 / acknowledged;
  }

  /** The step's label in tables, e.g. {@code cairn deposit c16}. */
  String label() {
    return side + " " + workload + " " + step;
  }
}
