package io.cairn.broker.api.limit;

/**
 * Where a {@link CommandLimiter}'s limit comes from: told the round trip of every finished command,
 * it answers the limit now. The seam in front of the algorithms of Netflix's concurrency-limits
 * library ({@link ConcurrencyLimitsAlgorithm}); tests may plug in their own.
 *
 * <p>Thread-safety: implementations are called from any thread.
 */
public interface LimitAlgorithm {

  /** The limit now; the limiter keeps it within the configured [min, max]. */
  int limit();

  /**
   * One finished command.
   *
   * @param startNanos when it was admitted (the limiter's clock)
   * @param rttNanos from admission to its answer, at least 1
   * @param inFlight commands in flight when it was admitted, itself included
   * @param dropped it timed out or met a full log: a sign of overload whatever its round trip
   */
  void onSample(long startNanos, long rttNanos, int inFlight, boolean dropped);

  /** The algorithm {@code config} names. */
  static LimitAlgorithm of(CommandLimitConfig config) {
    return ConcurrencyLimitsAlgorithm.of(config);
  }
}
