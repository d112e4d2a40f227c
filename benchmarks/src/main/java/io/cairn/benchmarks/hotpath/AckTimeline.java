package io.cairn.benchmarks.hotpath;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Acknowledgements counted per {@value #BUCKET_MILLIS} ms from a start time, so the throughput of
 * any window (the time a backup ran) can be read afterwards. Bounded: answers after the last bucket
 * count in the last bucket. Thread-safe.
 */
final class AckTimeline {

  static final long BUCKET_MILLIS = 100;
  private static final long BUCKET_NANOS = BUCKET_MILLIS * 1_000_000;

  private final long startNanos;
  private final AtomicLongArray buckets;

  /**
   * @param startNanos the clock's nanos at bucket 0
   * @param spanNanos how long the timeline must cover
   */
  AckTimeline(long startNanos, long spanNanos) {
    this.startNanos = startNanos;
    this.buckets = new AtomicLongArray((int) Math.max(1, spanNanos / BUCKET_NANOS + 1));
  }

  void acknowledged(long nowNanos) {
    long index = Math.max(0, (nowNanos - startNanos) / BUCKET_NANOS);
    buckets.incrementAndGet((int) Math.min(index, buckets.length() - 1));
  }

  /**
   * Acknowledgements per second in [fromNanos, toNanos), counting the buckets whose start lies in
   * the window (so the window is rounded to whole buckets).
   */
  double ratePerSecond(long fromNanos, long toNanos) {
    long first = Math.max(0, ceilDiv(fromNanos - startNanos, BUCKET_NANOS));
    long end = Math.min(buckets.length(), ceilDiv(toNanos - startNanos, BUCKET_NANOS));
    if (end <= first) {
      return 0;
    }
    long sum = 0;
    for (long i = first; i < end; i++) {
      sum += buckets.get((int) i);
    }
    return sum * 1e9 / ((end - first) * BUCKET_NANOS);
  }

  private static long ceilDiv(long x, long y) {
    return -Math.floorDiv(-x, y);
  }
}
