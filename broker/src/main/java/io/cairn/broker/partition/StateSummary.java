package io.cairn.broker.partition;

import io.cairn.db.StateDigest;
import java.util.Objects;

/**
 * A partition's state at one moment, read on the stream processor's thread: the positions the state
 * holds and its digest. Two members whose summaries are equal hold the same state for the same
 * prefix of the log.
 *
 * @param lastProcessedPosition the last processed command in state ({@code -1}: none)
 * @param lastWrittenPosition the last follow-up record in state ({@code -1}: none)
 * @param digest the state digest
 */
public record StateSummary(
    long lastProcessedPosition, long lastWrittenPosition, StateDigest digest) {

  public StateSummary {
    Objects.requireNonNull(digest, "digest");
  }
}
