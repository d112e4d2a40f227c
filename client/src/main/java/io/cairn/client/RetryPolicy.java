package io.cairn.client;

import java.time.Duration;
import java.util.Objects;

/**
 * When {@link CairnClient} sends a call again that the gateway answered with RESOURCE_EXHAUSTED,
 * and how long it waits before it does.
 *
 * <p>Resending is safe for every call, transfers and deposits included: the gateway answers
 * RESOURCE_EXHAUSTED only for a command that was not written — a broker answered BACKPRESSURE (it
 * refuses before writing to its log: too many commands in flight, or too many appends not committed
 * yet), or the gateway's own queue was full before anything was sent. Every other code is returned
 * at once, as without a policy.
 *
 * <p>Retry {@code n} (1 for the first) waits a uniformly random time in {@code [0, min(backoffMax,
 * backoffMin * 2^(n-1))]} — exponential backoff with full jitter, so that clients refused together
 * do not come back together. A call is sent at most {@code maxAttempts} times in all, and never
 * again once the wait would reach its deadline: then, or when the attempts are used up, the last
 * RESOURCE_EXHAUSTED is returned, its message naming the attempts made. {@code maxAttempts = 1}
 * turns retrying off.
 *
 * <p>Immutable; the delay is a pure function of the retry number and a random draw.
 */
public final class RetryPolicy {
  /** Sends of one call at most, the first included. */
  public static final int DEFAULT_MAX_ATTEMPTS = 10;

  /** The longest wait before the first retry. */
  public static final Duration DEFAULT_BACKOFF_MIN = Duration.ofMillis(10);

  /** The longest wait before any retry. */
  public static final Duration DEFAULT_BACKOFF_MAX = Duration.ofMillis(500);

  static final int MAX_ATTEMPTS_MAX = 1000;
  static final Duration BACKOFF_LOWEST = Duration.ofMillis(1);
  static final Duration BACKOFF_HIGHEST = Duration.ofMinutes(1);

  private static final RetryPolicy DEFAULTS =
      new RetryPolicy(DEFAULT_MAX_ATTEMPTS, DEFAULT_BACKOFF_MIN, DEFAULT_BACKOFF_MAX);
  private static final RetryPolicy NONE =
      new RetryPolicy(1, DEFAULT_BACKOFF_MIN, DEFAULT_BACKOFF_MAX);

  private final int maxAttempts;
  private final Duration backoffMin;
  private final Duration backoffMax;

  private RetryPolicy(int maxAttempts, Duration backoffMin, Duration backoffMax) {
    this.maxAttempts = maxAttempts;
    this.backoffMin = backoffMin;
    this.backoffMax = backoffMax;
  }

  /** 10 attempts, backoff 10 ms .. 500 ms. */
  public static RetryPolicy defaults() {
    return DEFAULTS;
  }

  /** One attempt: RESOURCE_EXHAUSTED is returned to the caller at once. */
  public static RetryPolicy none() {
    return NONE;
  }

  /**
   * A policy of {@code maxAttempts} in [1, 1000] sends at most, waiting up to {@code backoffMin}
   * before the first retry and never more than {@code backoffMax}, both in [1 ms, 1 min] and {@code
   * backoffMin <= backoffMax}.
   *
   * @throws CairnClientException INVALID_ARGUMENT listing every bad value
   */
  public static RetryPolicy of(int maxAttempts, Duration backoffMin, Duration backoffMax) {
    Arguments arguments = Arguments.of("RetryPolicy");
    if (maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS_MAX) {
      arguments.add(
          "Expected maxAttempts in [1, " + MAX_ATTEMPTS_MAX + "], but was " + maxAttempts);
    }
    arguments.duration("backoffMin", backoffMin, BACKOFF_LOWEST, BACKOFF_HIGHEST);
    arguments.duration("backoffMax", backoffMax, BACKOFF_LOWEST, BACKOFF_HIGHEST);
    if (arguments.violations().isEmpty() && backoffMin.compareTo(backoffMax) > 0) {
      arguments.add("Expected backoffMin <= backoffMax, but " + backoffMin + " > " + backoffMax);
    }
    arguments.check();
    return new RetryPolicy(maxAttempts, backoffMin, backoffMax);
  }

  /** This policy with another number of attempts, in [1, 1000]. */
  public RetryPolicy withMaxAttempts(int attempts) {
    return of(attempts, backoffMin, backoffMax);
  }

  public int maxAttempts() {
    return maxAttempts;
  }

  public Duration backoffMin() {
    return backoffMin;
  }

  public Duration backoffMax() {
    return backoffMax;
  }

  /** Whether a call may be sent more than once. */
  boolean retries() {
    return maxAttempts > 1;
  }

  /**
   * The wait before retry {@code retry} (1 for the first): {@code uniform} (a draw from [0, 1))
   * times the ceiling {@code min(backoffMax, backoffMin * 2^(retry-1))}, in nanoseconds.
   */
  long backoffNanos(int retry, double uniform) {
    if (retry < 1) {
      throw new IllegalArgumentException("Expected retry >= 1, but was " + retry);
    }
    long max = backoffMax.toNanos();
    long ceiling = backoffMin.toNanos();
    // at most 2 * 1 min in nanoseconds: no overflow
    for (int i = 1; i < retry && ceiling < max; i++) {
      ceiling *= 2;
    }
    ceiling = Math.min(ceiling, max);
    return (long) (Math.min(Math.max(uniform, 0.0), 1.0) * ceiling);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RetryPolicy that
        && maxAttempts == that.maxAttempts
        && backoffMin.equals(that.backoffMin)
        && backoffMax.equals(that.backoffMax);
  }

  @Override
  public int hashCode() {
    return Objects.hash(maxAttempts, backoffMin, backoffMax);
  }

  @Override
  public String toString() {
    return "RetryPolicy{maxAttempts="
        + maxAttempts
        + ", backoff="
        + backoffMin.toMillis()
        + ".."
        + backoffMax.toMillis()
        + " ms}";
  }
}
