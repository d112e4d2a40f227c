package io.cairn.engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Immutable, validated settings of the ledger engine. {@link Builder#build()} checks every key and
 * lists every violation in one {@link IllegalArgumentException}.
 *
 * <table>
 *   <caption>Keys</caption>
 *   <tr><th>key</th><th>default</th><th>allowed</th></tr>
 *   <tr><td>partitionCount</td><td>(required)</td><td>[1, 32767]; the cluster's P, fixed for its
 *       life (it decides account placement)</td></tr>
 *   <tr><td>creditRetryInterval</td><td>1 s</td><td>[1 ms, 10 min]; wait before the first re-send
 *       of an unacknowledged credit; doubles with every further attempt</td></tr>
 *   <tr><td>creditRetryIntervalMax</td><td>30 s</td><td>[creditRetryInterval, 1 h]; the longest
 *       wait between two sends of one credit</td></tr>
 *   <tr><td>creditRetryCheckInterval</td><td>100 ms</td><td>[1 ms, creditRetryInterval]; how often
 *       the leader checks whether a re-send is due (a check scans the pending credits only when
 *       one may be due)</td></tr>
 *   <tr><td>maxCreditsPerRetry</td><td>1000</td><td>[1, 1,000,000]; re-sends per check; the rest
 *       wait for the next check</td></tr>
 * </table>
 */
public final class LedgerEngineConfig {

  public static final Duration CREDIT_RETRY_INTERVAL_DEFAULT = Duration.ofSeconds(1);
  public static final Duration CREDIT_RETRY_INTERVAL_MAX_DEFAULT = Duration.ofSeconds(30);
  public static final Duration CREDIT_RETRY_CHECK_INTERVAL_DEFAULT = Duration.ofMillis(100);
  public static final int MAX_CREDITS_PER_RETRY_DEFAULT = 1000;

  private static final Duration MIN_INTERVAL = Duration.ofMillis(1);
  private static final Duration MAX_RETRY_INTERVAL = Duration.ofMinutes(10);
  private static final Duration MAX_RETRY_INTERVAL_MAX = Duration.ofHours(1);
  private static final int MAX_CREDITS_PER_RETRY_LIMIT = 1_000_000;

  private final int partitionCount;
  private final Duration creditRetryInterval;
  private final Duration creditRetryIntervalMax;
  private final Duration creditRetryCheckInterval;
  private final int maxCreditsPerRetry;

  private LedgerEngineConfig(Builder builder) {
    partitionCount = builder.partitionCount;
    creditRetryInterval = builder.creditRetryInterval;
    creditRetryIntervalMax = builder.creditRetryIntervalMax;
    creditRetryCheckInterval = builder.creditRetryCheckInterval;
    maxCreditsPerRetry = builder.maxCreditsPerRetry;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Defaults for a cluster of {@code partitionCount} partitions. */
  public static LedgerEngineConfig of(int partitionCount) {
    return builder().partitionCount(partitionCount).build();
  }

  public Builder toBuilder() {
    return builder()
        .partitionCount(partitionCount)
        .creditRetryInterval(creditRetryInterval)
        .creditRetryIntervalMax(creditRetryIntervalMax)
        .creditRetryCheckInterval(creditRetryCheckInterval)
        .maxCreditsPerRetry(maxCreditsPerRetry);
  }

  public int partitionCount() {
    return partitionCount;
  }

  public Duration creditRetryInterval() {
    return creditRetryInterval;
  }

  public Duration creditRetryIntervalMax() {
    return creditRetryIntervalMax;
  }

  public Duration creditRetryCheckInterval() {
    return creditRetryCheckInterval;
  }

  public int maxCreditsPerRetry() {
    return maxCreditsPerRetry;
  }

  @Override
  public String toString() {
    return "LedgerEngineConfig{partitionCount="
        + partitionCount
        + ", creditRetryInterval="
        + creditRetryInterval
        + ", creditRetryIntervalMax="
        + creditRetryIntervalMax
        + ", creditRetryCheckInterval="
        + creditRetryCheckInterval
        + ", maxCreditsPerRetry="
        + maxCreditsPerRetry
        + "}";
  }

  /** Collects settings; {@link #build()} validates them all at once. */
  public static final class Builder {
    private int partitionCount = -1;
    private Duration creditRetryInterval = CREDIT_RETRY_INTERVAL_DEFAULT;
    private Duration creditRetryIntervalMax = CREDIT_RETRY_INTERVAL_MAX_DEFAULT;
    private Duration creditRetryCheckInterval = CREDIT_RETRY_CHECK_INTERVAL_DEFAULT;
    private int maxCreditsPerRetry = MAX_CREDITS_PER_RETRY_DEFAULT;

    private Builder() {}

    public Builder partitionCount(int value) {
      partitionCount = value;
      return this;
    }

    public Builder creditRetryInterval(Duration value) {
      creditRetryInterval = value;
      return this;
    }

    public Builder creditRetryIntervalMax(Duration value) {
      creditRetryIntervalMax = value;
      return this;
    }

    public Builder creditRetryCheckInterval(Duration value) {
      creditRetryCheckInterval = value;
      return this;
    }

    public Builder maxCreditsPerRetry(int value) {
      maxCreditsPerRetry = value;
      return this;
    }

    /**
     * @throws IllegalArgumentException listing every violated rule
     */
    public LedgerEngineConfig build() {
      List<String> violations = new ArrayList<>();
      if (partitionCount < 1 || partitionCount > LedgerKeys.MAX_PARTITION_ID) {
        violations.add(
            "Expected partitionCount in [1, "
                + LedgerKeys.MAX_PARTITION_ID
                + "], but was "
                + partitionCount
                + (partitionCount == -1 ? " (not set)" : ""));
      }
      checkDuration(
          violations, "creditRetryInterval", creditRetryInterval, MIN_INTERVAL, MAX_RETRY_INTERVAL);
      if (creditRetryInterval != null) {
        checkDuration(
            violations,
            "creditRetryIntervalMax",
            creditRetryIntervalMax,
            creditRetryInterval,
            MAX_RETRY_INTERVAL_MAX);
        checkDuration(
            violations,
            "creditRetryCheckInterval",
            creditRetryCheckInterval,
            MIN_INTERVAL,
            creditRetryInterval);
      }
      if (maxCreditsPerRetry < 1 || maxCreditsPerRetry > MAX_CREDITS_PER_RETRY_LIMIT) {
        violations.add(
            "Expected maxCreditsPerRetry in [1, "
                + MAX_CREDITS_PER_RETRY_LIMIT
                + "], but was "
                + maxCreditsPerRetry);
      }
      if (!violations.isEmpty()) {
        throw new IllegalArgumentException(String.join("; ", violations) + " (LedgerEngineConfig)");
      }
      return new LedgerEngineConfig(this);
    }

    private static void checkDuration(
        List<String> violations, String key, Duration value, Duration min, Duration max) {
      if (value == null) {
        violations.add("Expected " + key + " to be set, but it is null");
        return;
      }
      Objects.requireNonNull(min, "min");
      if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
        violations.add("Expected " + key + " in [" + min + ", " + max + "], but was " + value);
      }
    }
  }
}
