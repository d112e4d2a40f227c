package io.cairn.broker.api.limit;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Immutable, validated settings of the per-partition limit of client commands in flight (the broker
 * keys {@code processing.commandLimit.*}).
 *
 * <ul>
 *   <li>{@code algorithm} (default {@link Algorithm#AIMD}): how the limit moves, see {@link
 *       Algorithm}; {@link Algorithm#FIXED} keeps it at {@code initialLimit}.
 *   <li>{@code initialLimit} (default {@value #INITIAL_LIMIT_DEFAULT}): the limit before anything
 *       was measured — what a new leader admits in a burst.
 *   <li>{@code minLimit} (default {@value #MIN_LIMIT_DEFAULT}), {@code maxLimit} (default {@value
 *       #MAX_LIMIT_DEFAULT}): the limit never leaves [min, max]; max also bounds what a partition
 *       holds in memory for its clients. All three in [1, {@value #LIMIT_MAX}], min ≤ initial ≤
 *       max.
 *   <li>{@code targetLatency} (default 500ms, in [1ms, 10m]): {@link Algorithm#AIMD} shrinks the
 *       limit when commands take longer than this on average, and lets it grow otherwise.
 * </ul>
 */
public final class CommandLimitConfig {

  public static final int INITIAL_LIMIT_DEFAULT = 500;
  public static final int MIN_LIMIT_DEFAULT = 10;
  public static final int MAX_LIMIT_DEFAULT = 1000;
  public static final int LIMIT_MAX = 100_000;
  public static final Duration TARGET_LATENCY_DEFAULT = Duration.ofMillis(500);
  public static final Duration TARGET_LATENCY_MIN = Duration.ofMillis(1);
  public static final Duration TARGET_LATENCY_MAX = Duration.ofMinutes(10);

  /** How the limit follows the measured round trips (write to answer) of client commands. */
  public enum Algorithm {
    /** The limit stays at {@code initialLimit}. */
    FIXED,
    /**
     * Additive increase, multiplicative decrease against a latency target: a window whose commands
     * took longer than {@code targetLatency} on average (or timed out, or met a full log) takes the
     * limit down by 10%; a window within the target, with at least half the limit in use, raises it
     * by one.
     */
    AIMD,
    /**
     * Gradient: the limit follows the ratio of the long-term to the short-term round trip (a rise
     * of more than half over the long-term average shrinks it).
     */
    GRADIENT,
    /**
     * Vegas: estimates the queue from the ratio of the smallest round trip seen to the current one
     * and keeps it small; the most conservative.
     */
    VEGAS;

    /** The name used in configuration. */
    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final Algorithm algorithm;
  private final int initialLimit;
  private final int minLimit;
  private final int maxLimit;
  private final Duration targetLatency;

  private CommandLimitConfig(Builder builder) {
    algorithm = builder.algorithm;
    initialLimit = builder.initialLimit;
    minLimit = builder.minLimit;
    maxLimit = builder.maxLimit;
    targetLatency = builder.targetLatency;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The defaults listed in the class comment. */
  public static CommandLimitConfig defaults() {
    return builder().build();
  }

  public Builder toBuilder() {
    return builder()
        .algorithm(algorithm)
        .initialLimit(initialLimit)
        .minLimit(minLimit)
        .maxLimit(maxLimit)
        .targetLatency(targetLatency);
  }

  public Algorithm algorithm() {
    return algorithm;
  }

  public int initialLimit() {
    return initialLimit;
  }

  public int minLimit() {
    return minLimit;
  }

  public int maxLimit() {
    return maxLimit;
  }

  public Duration targetLatency() {
    return targetLatency;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof CommandLimitConfig that
        && algorithm == that.algorithm
        && initialLimit == that.initialLimit
        && minLimit == that.minLimit
        && maxLimit == that.maxLimit
        && targetLatency.equals(that.targetLatency);
  }

  @Override
  public int hashCode() {
    return Objects.hash(algorithm, initialLimit, minLimit, maxLimit, targetLatency);
  }

  @Override
  public String toString() {
    return "CommandLimitConfig{algorithm="
        + algorithm.configName()
        + ", initialLimit="
        + initialLimit
        + ", minLimit="
        + minLimit
        + ", maxLimit="
        + maxLimit
        + ", targetLatency="
        + targetLatency.toMillis()
        + "ms}";
  }

  /** Collects settings; {@link #build()} validates them. */
  public static final class Builder {
    private Algorithm algorithm = Algorithm.AIMD;
    private int initialLimit = INITIAL_LIMIT_DEFAULT;
    private int minLimit = MIN_LIMIT_DEFAULT;
    private int maxLimit = MAX_LIMIT_DEFAULT;
    private Duration targetLatency = TARGET_LATENCY_DEFAULT;

    private Builder() {}

    public Builder algorithm(Algorithm value) {
      algorithm = Objects.requireNonNull(value, "algorithm");
      return this;
    }

    public Builder initialLimit(int value) {
      initialLimit = value;
      return this;
    }

    public Builder minLimit(int value) {
      minLimit = value;
      return this;
    }

    public Builder maxLimit(int value) {
      maxLimit = value;
      return this;
    }

    public Builder targetLatency(Duration value) {
      targetLatency = Objects.requireNonNull(value, "targetLatency");
      return this;
    }

    /**
     * @throws IllegalArgumentException naming the setting, its value and the allowed range
     */
    public CommandLimitConfig build() {
      checkRange("minLimit", minLimit, 1, LIMIT_MAX);
      checkRange("maxLimit", maxLimit, 1, LIMIT_MAX);
      checkRange("initialLimit", initialLimit, 1, LIMIT_MAX);
      if (minLimit > maxLimit || initialLimit < minLimit || initialLimit > maxLimit) {
        throw new IllegalArgumentException(
            "Expected minLimit <= initialLimit <= maxLimit, but they are "
                + minLimit
                + ", "
                + initialLimit
                + " and "
                + maxLimit
                + " (CommandLimitConfig)");
      }
      if (targetLatency.compareTo(TARGET_LATENCY_MIN) < 0
          || targetLatency.compareTo(TARGET_LATENCY_MAX) > 0) {
        throw new IllegalArgumentException(
            "Expected targetLatency in [1ms, 10m], but was "
                + targetLatency
                + " (CommandLimitConfig)");
      }
      return new CommandLimitConfig(this);
    }

    private static void checkRange(String name, int value, int min, int max) {
      if (value < min || value > max) {
        throw new IllegalArgumentException(
            "Expected "
                + name
                + " in ["
                + min
                + ", "
                + max
                + "], but was "
                + value
                + " (CommandLimitConfig)");
      }
    }
  }
}
