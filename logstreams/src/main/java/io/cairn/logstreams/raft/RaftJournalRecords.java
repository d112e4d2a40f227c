package io.cairn.logstreams.raft;

import io.cairn.journal.Journal;
import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.RecordBatch;
import io.cairn.protocol.RecordBatchCodec;
import io.cairn.raft.log.RaftEntry;
import io.cairn.raft.log.RaftEntryCodec;
import io.cairn.raft.log.RaftEntryType;
import java.util.Optional;
import org.agrona.DirectBuffer;

/**
 * The log records a raft journal record holds, for readers of the raw journal (the log archive)
 * that do not go through a {@link io.cairn.logstreams.LogStream}.
 */
public final class RaftJournalRecords {

  private RaftJournalRecords() {}

  /**
   * The batch of log records in a journal record; empty for a raft entry without records (a new
   * leader's initial entry, a configuration entry).
   *
   * @throws IllegalArgumentException if the data is not a raft entry holding a valid batch
   */
  public static Optional<RecordBatch> batchOf(long asqn, DirectBuffer data) {
    if (asqn == Journal.ASQN_IGNORE) {
      return Optional.empty();
    }
    RaftEntry entry = RaftEntryCodec.decode(data);
    if (entry.type() != RaftEntryType.APPLICATION) {
      return Optional.empty();
    }
    try {
      return Optional.of(RecordBatchCodec.decode(entry.payload(), 0, entry.payload().capacity()));
    } catch (ProtocolException e) {
      throw new IllegalArgumentException(
          "Expected a record batch in the raft entry, but: " + e.getMessage(), e);
    }
  }
}
