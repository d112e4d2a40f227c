package io.cairn.logstreams;

/**
 * The outcome of {@link LogStreamWriter#tryWrite}. Only {@link Written} wrote anything; the others
 * are expected conditions the caller handles (retry later, stop, reject), never exceptions.
 */
public sealed interface WriteResult {

  /** True for {@link Written}. */
  default boolean isWritten() {
    return this instanceof Written;
  }

  /**
   * The batch was handed to the log with positions [{@code lowestPosition}, {@code
   * highestPosition}]; it is not committed yet.
   */
  record Written(long lowestPosition, long highestPosition) implements WriteResult {
    public Written {
      if (lowestPosition < LogStream.FIRST_POSITION || highestPosition < lowestPosition) {
        throw new IllegalArgumentException(
            "Expected "
                + LogStream.FIRST_POSITION
                + " <= lowestPosition <= highestPosition, but was ["
                + lowestPosition
                + ", "
                + highestPosition
                + "]");
      }
    }
  }

  /**
   * Too many batches are written but not committed yet; nothing was written. Retry once the commit
   * position advanced.
   */
  record Backpressure(int inFlightAppends, int maxInFlightAppends) implements WriteResult {}

  /** This member does not lead the partition (or stopped leading it); nothing was written. */
  record NotLeader() implements WriteResult {}

  /** The encoded batch is larger than the log accepts; nothing was written. Never retry as is. */
  record TooLarge(int batchSizeBytes, int maxBatchSizeBytes) implements WriteResult {}
}
