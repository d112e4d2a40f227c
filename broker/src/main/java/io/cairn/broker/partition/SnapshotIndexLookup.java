package io.cairn.broker.partition;

import io.cairn.journal.Journal;
import io.cairn.journal.JournalReader;
import io.cairn.journal.JournalRecord;
import io.cairn.logstreams.LogStream;
import io.cairn.raft.log.RaftEntryCodec;
import java.util.Optional;

/**
 * Finds the raft entry a snapshot may claim to cover: the <b>last entry whose records all have
 * positions at or below a position</b>. A snapshot of a state that holds everything up to position
 * {@code p} (and resumes reading at {@code p + 1}) records that entry's index and term, so that
 * neither log compaction nor a snapshot installed on a follower drops an entry holding a record
 * after {@code p}.
 *
 * <p>Reads the journal through its own reader (journal readers may run on any thread); used by one
 * thread at a time.
 */
final class SnapshotIndexLookup implements AutoCloseable {

  /** A raft entry's index and term. */
  record EntryId(long index, long term) {}

  private final Journal journal;
  private final JournalReader reader;

  SnapshotIndexLookup(Journal journal) {
    this.journal = journal;
    this.reader = journal.openReader();
  }

  /**
   * The last entry whose positions are all at or below {@code position}; empty if the journal no
   * longer (or does not yet) hold the entries needed to tell.
   */
  Optional<EntryId> lastEntryUpTo(long position) {
    if (position < LogStream.FIRST_POSITION || journal.isEmpty()) {
      return Optional.empty();
    }
    reader.seekToAsqn(position);
    if (!reader.hasNext()) {
      return Optional.empty();
    }
    JournalRecord holding = reader.next();
    if (holding.asqn() == Journal.ASQN_IGNORE || holding.asqn() > position) {
      // no entry at or below the position is in the journal (compacted, or reset by a snapshot)
      return Optional.empty();
    }
    if (RaftEntryCodec.highestPosition(holding.data()) <= position) {
      return Optional.of(new EntryId(holding.index(), RaftEntryCodec.term(holding.data())));
    }
    // the entry holding the position also holds later records: claim only the entry before it
    long previous = holding.index() - 1;
    if (previous < journal.getFirstIndex()) {
      return Optional.empty();
    }
    reader.seek(previous);
    if (!reader.hasNext()) {
      return Optional.empty();
    }
    JournalRecord before = reader.next();
    if (before.index() != previous) {
      return Optional.empty();
    }
    return Optional.of(new EntryId(before.index(), RaftEntryCodec.term(before.data())));
  }

  @Override
  public void close() {
    reader.close();
  }
}
