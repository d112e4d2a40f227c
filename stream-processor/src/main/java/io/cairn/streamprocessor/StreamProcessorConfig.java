package io.cairn.streamprocessor;

import java.time.Duration;
import java.util.Objects;

/**
 * Immutable, validated settings of a stream processor.
 *
 * <ul>
 *   <li>{@code maxRecordsPerTurn} (default {@value #MAX_RECORDS_PER_TURN_DEFAULT}, allowed [1,
 *       {@value #MAX_RECORDS_PER_TURN_LIMIT}]): records handled in one task on the actor thread
 *       before it yields to other tasks; also the most events one replay transaction applies.
 *   <li>{@code writeRetryDelay} (default 10ms, allowed (0, 10s]): when the log answers
 *       backpressure, the command is retried after this delay or at the next commit, whichever
 *       comes first.
 * </ul>
 */
public final class StreamProcessorConfig {

  public static final int MAX_RECORDS_PER_TURN_DEFAULT = 100;
  public static final int MAX_RECORDS_PER_TURN_LIMIT = 100_000;
  public static final Duration WRITE_RETRY_DELAY_DEFAULT = Duration.ofMillis(10);
  public static final Duration WRITE_RETRY_DELAY_LIMIT = Duration.ofSeconds(10);

  private final int maxRecordsPerTurn;
  private final Duration writeRetryDelay;

  private StreamProcessorConfig(Builder builder) {
    maxRecordsPerTurn = builder.maxRecordsPerTurn;
    writeRetryDelay = builder.writeRetryDelay;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The defaults listed in the class doc. */
  public static StreamProcessorConfig defaults() {
    return builder().build();
  }

  public Builder toBuilder() {
    return builder().maxRecordsPerTurn(maxRecordsPerTurn).writeRetryDelay(writeRetryDelay);
  }

  public int maxRecordsPerTurn() {
    return maxRecordsPerTurn;
  }

  public Duration writeRetryDelay() {
    return writeRetryDelay;
  }

  @Override
  public String toString() {
    return "StreamProcessorConfig{maxRecordsPerTurn="
        + maxRecordsPerTurn
        + ", writeRetryDelay="
        + writeRetryDelay
        + "}";
  }

  /** Collects settings; {@link #build()} validates them. */
  public static final class Builder {
    private int maxRecordsPerTurn = MAX_RECORDS_PER_TURN_DEFAULT;
    private Duration writeRetryDelay = WRITE_RETRY_DELAY_DEFAULT;

    private Builder() {}

    public Builder maxRecordsPerTurn(int value) {
      maxRecordsPerTurn = value;
      return this;
    }

    public Builder writeRetryDelay(Duration value) {
      writeRetryDelay = value;
      return this;
    }

    /**
     * @throws IllegalArgumentException naming the setting, its value and the allowed range
     */
    public StreamProcessorConfig build() {
      if (maxRecordsPerTurn < 1 || maxRecordsPerTurn > MAX_RECORDS_PER_TURN_LIMIT) {
        throw new IllegalArgumentException(
            "Expected maxRecordsPerTurn in [1, "
                + MAX_RECORDS_PER_TURN_LIMIT
                + "], but was "
                + maxRecordsPerTurn
                + " (StreamProcessorConfig)");
      }
      if (Objects.isNull(writeRetryDelay)
          || writeRetryDelay.isNegative()
          || writeRetryDelay.isZero()
          || writeRetryDelay.compareTo(WRITE_RETRY_DELAY_LIMIT) > 0) {
        throw new IllegalArgumentException(
            "Expected writeRetryDelay in (0, "
                + WRITE_RETRY_DELAY_LIMIT
                + "], but was "
                + writeRetryDelay
                + " (StreamProcessorConfig)");
      }
      return new StreamProcessorConfig(this);
    }
  }
}
