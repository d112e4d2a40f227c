package io.cairn.broker.api.limit;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.limit.AIMDLimit;
import com.netflix.concurrency.limits.limit.FixedLimit;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import com.netflix.concurrency.limits.limit.WindowedLimit;
import java.util.concurrent.TimeUnit;

/**
 * The algorithms of Netflix's concurrency-limits library (the ones Zeebe's backpressure uses),
 * behind {@link LimitAlgorithm}. The only class that knows the library.
 *
 * <p>Every adaptive algorithm sees <b>windows</b>, not single commands: the samples of a window
 * (from {@value #WINDOW_MIN_MS}ms to {@value #WINDOW_MAX_MS}ms long — twice the smallest round trip
 * in it — and at least {@value #WINDOW_SAMPLES_MIN} samples) are averaged into one, so the limit
 * moves at most once per window. One slow commit (a stalled fsync, a leader change) then costs one
 * step, not one step per command that waited for it; sustained latency still moves the limit every
 * window. Windows close on the samples' own times (the limiter's clock), so a run is reproducible
 * from its samples.
 */
final class ConcurrencyLimitsAlgorithm implements LimitAlgorithm {

  static final long WINDOW_MIN_MS = 100;
  static final long WINDOW_MAX_MS = 1000;
  static final int WINDOW_SAMPLES_MIN = 10;
  static final double AIMD_BACKOFF_RATIO = 0.9;

  private final Limit limit;

  private ConcurrencyLimitsAlgorithm(Limit limit) {
    this.limit = limit;
  }

  static ConcurrencyLimitsAlgorithm of(CommandLimitConfig config) {
    Limit algorithm =
        switch (config.algorithm()) {
          case FIXED -> FixedLimit.of(config.initialLimit());
          case AIMD ->
              windowed(
                  AIMDLimit.newBuilder()
                      .initialLimit(config.initialLimit())
                      .minLimit(config.minLimit())
                      .maxLimit(config.maxLimit())
                      .backoffRatio(AIMD_BACKOFF_RATIO)
                      .timeout(config.targetLatency().toNanos(), TimeUnit.NANOSECONDS)
                      .build());
          case GRADIENT ->
              windowed(
                  Gradient2Limit.newBuilder()
                      .initialLimit(config.initialLimit())
                      .minLimit(config.minLimit())
                      .maxConcurrency(config.maxLimit())
                      .build());
          case VEGAS ->
              windowed(
                  VegasLimit.newBuilder()
                      .initialLimit(config.initialLimit())
                      .maxConcurrency(config.maxLimit())
                      .build());
        };
    return new ConcurrencyLimitsAlgorithm(algorithm);
  }

  private static Limit windowed(Limit delegate) {
    return WindowedLimit.newBuilder()
        .minWindowTime(WINDOW_MIN_MS, TimeUnit.MILLISECONDS)
        .maxWindowTime(WINDOW_MAX_MS, TimeUnit.MILLISECONDS)
        .windowSize(WINDOW_SAMPLES_MIN)
        .minRttThreshold(0, TimeUnit.NANOSECONDS)
        .build(delegate);
  }

  @Override
  public int limit() {
    return limit.getLimit();
  }

  @Override
  public void onSample(long startNanos, long rttNanos, int inFlight, boolean dropped) {
    limit.onSample(startNanos, Math.max(1, rttNanos), inFlight, dropped);
  }

  @Override
  public String toString() {
    return limit.toString();
  }
}
