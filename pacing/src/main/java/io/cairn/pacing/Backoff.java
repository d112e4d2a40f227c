package io.cairn.pacing;

import java.time.Duration;

/**
 * Exponential backoff with jitter: before retry {@code n} (1 = the first retry) wait between half
 * and all of {@code min(max, base * 2^(n-1))}. The jitter is derived from the target and the
 * attempt instead of a random source, so runs are reproducible while requests to different objects
 * still spread out.
 *
 * @param base the delay before the first retry
 * @param max the longest delay
 */
public record Backoff(Duration base, Duration max) {

  public Backoff {
    if (base.isNegative() || base.isZero() || max.compareTo(base) < 0) {
      throw new IllegalArgumentException(
          "Expected 0 < base <= max, but base is " + base + " and max " + max + " (backoff)");
    }
  }

  /**
   * The delay before retry {@code n} (1 = the first retry) without jitter: {@code min(max, base ×
   * 2^(n-1))}. For a single retrier whose waits need not spread out (an actor retrying its own
   * step); requests to a shared server use {@link #delay}.
   */
  public Duration ceiling(int retry) {
    if (retry < 1) {
      throw new IllegalArgumentException("Expected retry >= 1, but was " + retry + " (backoff)");
    }
    long baseNanos = base.toNanos();
    long maxNanos = max.toNanos();
    int shift = Math.min(retry - 1, 30);
    return Duration.ofNanos(
        baseNanos > (maxNanos >> shift) ? maxNanos : Math.min(maxNanos, baseNanos << shift));
  }

  /**
   * @param retry 1 for the first retry
   * @param target what is retried (its hash spreads the jitter)
   */
  public Duration delay(int retry, String target) {
    long ceiling = ceiling(retry).toNanos();
    long mixed = mix(target.hashCode() * 31L + retry);
    // A fraction in [0.5, 1.0) of the ceiling.
    double fraction = 0.5 + (mixed >>> 11) * 0x1.0p-54;
    return Duration.ofNanos(Math.max(1, (long) (ceiling * fraction)));
  }

  /** SplitMix64's finaliser: spreads nearby inputs over all 64 bits. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
