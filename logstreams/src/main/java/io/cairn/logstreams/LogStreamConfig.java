package io.cairn.logstreams;

/**
 * Immutable, validated settings of a log stream.
 *
 * <ul>
 *   <li>{@code maxInFlightAppends} (default {@value #MAX_IN_FLIGHT_APPENDS_DEFAULT}, allowed [1,
 *       {@value #MAX_IN_FLIGHT_APPENDS_LIMIT}]): batches written but not committed yet; a write
 *       beyond it answers {@link WriteResult.Backpressure}. A safety bound on the memory held for
 *       uncommitted batches and on what a leader change can drop, not a throughput limit: it counts
 *       every batch (client commands, the stream processor's follow-ups, inter-partition commands),
 *       so a small value lets internal writes crowd out client commands and the other way round.
 *       Keep client load in check above the log (the broker's per-partition command limit).
 *   <li>{@code maxBatchSizeBytes} (default {@value #MAX_BATCH_SIZE_BYTES_DEFAULT}, allowed [{@value
 *       #MAX_BATCH_SIZE_BYTES_MIN}, {@value #MAX_BATCH_SIZE_BYTES_LIMIT}]): the largest encoded
 *       batch; a larger one answers {@link WriteResult.TooLarge}. Keep it below the journal's
 *       largest record and the transport's frame limit.
 * </ul>
 */
public final class LogStreamConfig {

  public static final int MAX_IN_FLIGHT_APPENDS_DEFAULT = 4096;
  public static final int MAX_IN_FLIGHT_APPENDS_LIMIT = 10_000;
  public static final int MAX_BATCH_SIZE_BYTES_DEFAULT = 1024 * 1024;
  public static final int MAX_BATCH_SIZE_BYTES_MIN = 1024;
  public static final int MAX_BATCH_SIZE_BYTES_LIMIT = 64 * 1024 * 1024;

  private final int maxInFlightAppends;
  private final int maxBatchSizeBytes;

  private LogStreamConfig(Builder builder) {
    maxInFlightAppends = builder.maxInFlightAppends;
    maxBatchSizeBytes = builder.maxBatchSizeBytes;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The defaults listed in the class doc. */
  public static LogStreamConfig defaults() {
    return builder().build();
  }

  public Builder toBuilder() {
    return builder().maxInFlightAppends(maxInFlightAppends).maxBatchSizeBytes(maxBatchSizeBytes);
  }

  public int maxInFlightAppends() {
    return maxInFlightAppends;
  }

  public int maxBatchSizeBytes() {
    return maxBatchSizeBytes;
  }

  @Override
  public String toString() {
    return "LogStreamConfig{maxInFlightAppends="
        + maxInFlightAppends
        + ", maxBatchSizeBytes="
        + maxBatchSizeBytes
        + "}";
  }

  /** Collects settings; {@link #build()} validates them. */
  public static final class Builder {
    private int maxInFlightAppends = MAX_IN_FLIGHT_APPENDS_DEFAULT;
    private int maxBatchSizeBytes = MAX_BATCH_SIZE_BYTES_DEFAULT;

    private Builder() {}

    public Builder maxInFlightAppends(int value) {
      maxInFlightAppends = value;
      return this;
    }

    public Builder maxBatchSizeBytes(int value) {
      maxBatchSizeBytes = value;
      return this;
    }

    /**
     * @throws IllegalArgumentException naming the setting, its value and the allowed range
     */
    public LogStreamConfig build() {
      if (maxInFlightAppends < 1 || maxInFlightAppends > MAX_IN_FLIGHT_APPENDS_LIMIT) {
        throw new IllegalArgumentException(
            "Expected maxInFlightAppends in [1, "
                + MAX_IN_FLIGHT_APPENDS_LIMIT
                + "], but was "
                + maxInFlightAppends
                + " (LogStreamConfig)");
      }
      if (maxBatchSizeBytes < MAX_BATCH_SIZE_BYTES_MIN
          || maxBatchSizeBytes > MAX_BATCH_SIZE_BYTES_LIMIT) {
        throw new IllegalArgumentException(
            "Expected maxBatchSizeBytes in ["
                + MAX_BATCH_SIZE_BYTES_MIN
                + ", "
                + MAX_BATCH_SIZE_BYTES_LIMIT
                + "], but was "
                + maxBatchSizeBytes
                + " (LogStreamConfig)");
      }
      return new LogStreamConfig(this);
    }
  }
}
