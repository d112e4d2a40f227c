package io.cairn.engine.credit;

import io.cairn.protocol.RecordMetadata;

/**
 * What the leader knows about sending one pending credit; kept in memory only (a new leader starts
 * without it and re-sends everything pending).
 *
 * @param committedAfterPosition for a credit found in state but not sent yet: it may stem from a
 *     batch not committed yet, so it is sent only once the log's commit position reaches this
 *     position (the last written position when it was found); {@link RecordMetadata#NO_POSITION}
 *     once sent
 * @param attempts how often it was sent (0: not yet)
 * @param lastSentMillis when it was last sent, or -1
 */
public record CreditTracking(long committedAfterPosition, int attempts, long lastSentMillis) {

  /** Found in state at a scan, when the last written position was {@code lastWrittenPosition}. */
  public static CreditTracking found(long lastWrittenPosition) {
    return new CreditTracking(lastWrittenPosition, 0, -1);
  }

  /** Sent for the first time at {@code nowMillis}. */
  public static CreditTracking sentAt(long nowMillis) {
    return new CreditTracking(RecordMetadata.NO_POSITION, 1, nowMillis);
  }

  /** This credit, sent once more at {@code nowMillis}. */
  public CreditTracking resentAt(long nowMillis) {
    return new CreditTracking(RecordMetadata.NO_POSITION, attempts + 1, nowMillis);
  }

  public boolean isSent() {
    return attempts > 0;
  }
}
