package io.cairn.logstreams.raft;

import io.cairn.journal.Journal;
import io.cairn.journal.JournalReader;
import io.cairn.journal.JournalRecord;
import io.cairn.logstreams.AbstractLogStreamReader;
import io.cairn.logstreams.CorruptedLogException;
import io.cairn.raft.log.RaftEntry;
import io.cairn.raft.log.RaftEntryCodec;
import io.cairn.raft.log.RaftEntryType;
import java.util.NoSuchElementException;

/**
 * Reads the committed application entries of a raft member's journal through its own journal
 * reader. Never reads an entry whose index is above the log stream's commit index.
 */
final class RaftLogStreamReader extends AbstractLogStreamReader {

  private final RaftLogStream stream;
  private final JournalReader reader;
  private long nextIndex;

  RaftLogStreamReader(RaftLogStream stream, JournalReader reader) {
    super(stream.partitionId());
    this.stream = stream;
    this.reader = reader;
    this.nextIndex = reader.seekToFirst();
  }

  @Override
  protected CommittedEntry nextCommittedEntry() {
    while (true) {
      long committed = stream.commitIndex();
      if (stream.isClosed() || nextIndex > committed || !reader.hasNext()) {
        return null;
      }
      JournalRecord record;
      try {
        record = reader.next();
      } catch (NoSuchElementException e) {
        return null; // removed by the raft thread between hasNext and next; ask again later
      }
      if (record.index() > committed) {
        // The journal reader moved past a gap (log reset after a snapshot); do not read ahead.
        nextIndex = reader.seek(record.index());
        return null;
      }
      nextIndex = record.index() + 1;
      if (record.asqn() == Journal.ASQN_IGNORE) {
        continue; // a raft entry without records (a new leader's initial entry)
      }
      RaftEntry entry;
      try {
        entry = RaftEntryCodec.decode(record.data());
      } catch (IllegalArgumentException e) {
        throw new CorruptedLogException(
            "Expected a raft entry at index "
                + record.index()
                + ", but: "
                + e.getMessage()
                + " (partition "
                + partitionId()
                + ")",
            e);
      }
      if (entry.type() != RaftEntryType.APPLICATION) {
        continue;
      }
      return new CommittedEntry(
          entry.lowestPosition(),
          entry.highestPosition(),
          entry.payload(),
          "raft index " + record.index());
    }
  }

  @Override
  protected void positionSource(long position) {
    nextIndex = position == Long.MIN_VALUE ? reader.seekToFirst() : reader.seekToAsqn(position);
  }

  @Override
  protected void release() {
    reader.close();
  }
}
