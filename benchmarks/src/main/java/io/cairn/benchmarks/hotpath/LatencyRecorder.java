package io.cairn.benchmarks.hotpath;

import io.cairn.client.CairnClientException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * What one measured step saw: latencies of acknowledged calls (microseconds, 3 significant digits,
 * up to an hour) and failed calls counted by code — the gRPC code of a {@link
 * CairnClientException}, {@code HTTP <status>} for etcd, else the exception's class name.
 * Thread-safe: calls complete on the clients' threads.
 */
final class LatencyRecorder {

  private static final long LATENCY_MAX_MICROS = TimeUnit.HOURS.toMicros(1);

  private final Histogram latency = new ConcurrentHistogram(LATENCY_MAX_MICROS, 3);
  private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();

  void acknowledged(long latencyNanos) {
    latency.recordValue(Math.min(LATENCY_MAX_MICROS, Math.max(0, latencyNanos / 1_000)));
  }

  void failed(Throwable error) {
    errors.computeIfAbsent(code(error), c -> new LongAdder()).increment();
  }

  long acknowledgedCount() {
    return latency.getTotalCount();
  }

  /** Failed calls by code, sorted by code. */
  Map<String, Long> errors() {
    Map<String, Long> counts = new TreeMap<>();
    errors.forEach((code, count) -> counts.put(code, count.sum()));
    return counts;
  }

  /** The latency percentiles in milliseconds (zeros when nothing was acknowledged). */
  Latency latency() {
    if (latency.getTotalCount() == 0) {
      return new Latency(0, 0, 0);
    }
    return new Latency(
        latency.getValueAtPercentile(50) / 1000.0,
        latency.getValueAtPercentile(99) / 1000.0,
        latency.getMaxValue() / 1000.0);
  }

  /** The code an error is counted under. */
  static String code(Throwable error) {
    Throwable cause = error;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof CairnClientException e) {
      return e.code().name();
    }
    if (cause instanceof EtcdHttpException e) {
      return "HTTP " + e.status();
    }
    return cause.getClass().getSimpleName();
  }

  /** Latency percentiles, milliseconds. */
  record Latency(double p50Ms, double p99Ms, double maxMs) {}
}
