package io.cairn.raft.log;

import io.cairn.journal.Journal;
import java.util.Objects;
import org.agrona.DirectBuffer;

/**
 * One raft log entry as the application and the protocol see it. Stored as the data of one journal
 * record (see {@link RaftEntryDescriptor}).
 *
 * @param term the leader term in which the entry was created
 * @param type what the entry carries
 * @param lowestPosition position of the first stream record, {@link #NO_POSITION} for INITIAL
 * @param highestPosition position of the last stream record, {@link #NO_POSITION} for INITIAL
 * @param payload the batch of stream records (empty for INITIAL)
 */
public record RaftEntry(
    long term,
    RaftEntryType type,
    long lowestPosition,
    long highestPosition,
    DirectBuffer payload) {

  /** Position value of entries that carry no stream records. */
  public static final long NO_POSITION = -1;

  public RaftEntry {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(payload, "payload");
    if (term < 1) {
      throw new IllegalArgumentException("Expected term >= 1, but was " + term + " (raft entry)");
    }
    if (type == RaftEntryType.APPLICATION
        && (lowestPosition < 0 || highestPosition < lowestPosition)) {
      throw new IllegalArgumentException(
          "Expected 0 <= lowestPosition <= highestPosition, but was ["
              + lowestPosition
              + ", "
              + highestPosition
              + "] (raft application entry)");
    }
  }

  /** The asqn of the journal record holding this entry. */
  public long asqn() {
    return type == RaftEntryType.APPLICATION ? lowestPosition : Journal.ASQN_IGNORE;
  }
}
