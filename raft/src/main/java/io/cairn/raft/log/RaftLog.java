package io.cairn.raft.log;

import io.cairn.journal.Journal;
import io.cairn.journal.JournalFlush;
import io.cairn.journal.JournalReader;
import io.cairn.journal.JournalRecord;
import io.cairn.raft.RaftSafetyException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The raft log of one member: a {@link Journal} whose records hold encoded {@link RaftEntry}s, plus
 * what raft needs to know without reading it (the term of every index, the snapshot boundary, the
 * flushed index). Single-threaded: only the owning raft member calls it.
 *
 * <p>Indexes below {@link #firstIndex()} were compacted or replaced by the snapshot at {@link
 * #snapshotIndex()}; the term of the snapshot's index stays known ({@link #termAt(long)}).
 */
public final class RaftLog implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RaftLog.class);

  /** Returned by {@link #termAt(long)} when the term of an index is not known. */
  public static final long UNKNOWN_TERM = -1;

  private final Journal journal;
  private final JournalReader reader;
  private final TermIndex terms = new TermIndex();
  private final String context;
  private long snapshotIndex;
  private long snapshotTerm;
  private long flushedIndex;
  // counts truncations and resets: a flush prepared before one may not count its entries
  private long truncations;
  private long lastPosition = RaftEntry.NO_POSITION;

  private RaftLog(Journal journal, long snapshotIndex, long snapshotTerm, String context) {
    this.journal = journal;
    this.reader = journal.openReader();
    this.snapshotIndex = snapshotIndex;
    this.snapshotTerm = snapshotTerm;
    this.context = context;
  }

  /**
   * Opens the log over a journal, reconciling it with the latest snapshot: when the journal does
   * not contain the snapshot's entry (it lags behind, has a gap, or holds another term at that
   * index) it is reset to start right after the snapshot.
   *
   * @param snapshotIndex index of the latest snapshot, 0 when none
   * @param snapshotTerm term of that index, 0 when none
   * @param context names the member in messages ("partition 1 node 2")
   */
  public static RaftLog open(
      Journal journal, long snapshotIndex, long snapshotTerm, String context) {
    Objects.requireNonNull(journal, "journal");
    RaftLog log = new RaftLog(journal, snapshotIndex, snapshotTerm, context);
    log.load();
    return log;
  }

  private void load() {
    long first = journal.getFirstIndex();
    long last = journal.getLastIndex();
    if (snapshotIndex > 0) {
      boolean gap = first > snapshotIndex + 1;
      boolean lags = last < snapshotIndex;
      boolean mismatch =
          !gap && !lags && first <= snapshotIndex && readTerm(snapshotIndex) != snapshotTerm;
      if (gap || lags || mismatch) {
        LOG.info(
            "Resetting journal of {} to start after snapshot {} (term {}): journal holds [{}, {}]",
            context,
            snapshotIndex,
            snapshotTerm,
            first,
            last);
        journal.reset(snapshotIndex + 1);
        first = journal.getFirstIndex();
        last = journal.getLastIndex();
      }
    }
    if (!journal.isEmpty()) {
      reader.seek(first);
      long expected = first;
      while (reader.hasNext()) {
        JournalRecord record = reader.next();
        checkIndex(record, expected);
        terms.onAppend(record.index(), RaftEntryCodec.term(record.data()));
        expected++;
      }
      if (expected != last + 1) {
        throw new IllegalStateException(
            "Expected to read the journal up to index "
                + last
                + ", but stopped at "
                + (expected - 1)
                + " ("
                + context
                + ")");
      }
    }
    flushedIndex = last;
    lastPosition = findLastPosition();
  }

  /** The index of the first entry still in the journal (or lastIndex + 1 when empty). */
  public long firstIndex() {
    return journal.getFirstIndex();
  }

  /** The index of the last entry, or the snapshot index when the journal is empty after it. */
  public long lastIndex() {
    return journal.getLastIndex();
  }

  public long lastTerm() {
    return termAt(lastIndex());
  }

  /** Index of the snapshot this log continues, 0 when none. */
  public long snapshotIndex() {
    return snapshotIndex;
  }

  public long snapshotTerm() {
    return snapshotTerm;
  }

  /** The index up to which every entry was flushed to disk. */
  public long flushedIndex() {
    return flushedIndex;
  }

  /** The highest stream position in the log, {@link RaftEntry#NO_POSITION} if none is known. */
  public long lastPosition() {
    return lastPosition;
  }

  /**
   * The term of the entry at {@code index}: 0 for index 0, the snapshot term for the snapshot
   * index, {@link #UNKNOWN_TERM} for indexes after the last or compacted without a known term.
   */
  public long termAt(long index) {
    if (index == 0) {
      return 0;
    }
    if (index > lastIndex() || index < 0) {
      return UNKNOWN_TERM;
    }
    if (index == snapshotIndex) {
      return snapshotTerm;
    }
    if (index >= terms.lowestKnownIndex()) {
      return terms.termAt(index);
    }
    return UNKNOWN_TERM;
  }

  /** The first index in the log with {@code term}, or -1 when none. */
  public long firstIndexOfTerm(long term) {
    return terms.firstIndexOf(term);
  }

  /** The last index in the log with {@code term}, or -1 when none. */
  public long lastIndexOfTerm(long term) {
    return terms.lastIndexOf(term, lastIndex());
  }

  /** Appends an entry created by this member as leader (not flushed). */
  public JournalRecord append(RaftEntry entry) {
    long index = lastIndex() + 1;
    long lastTerm = lastTerm();
    if (entry.term() < lastTerm) {
      throw new RaftSafetyException(
          "Expected entry term >= last term "
              + lastTerm
              + ", but was "
              + entry.term()
              + " at index "
              + index
              + " ("
              + context
              + ")");
    }
    JournalRecord record = journal.append(entry.asqn(), RaftEntryCodec.encode(entry));
    terms.onAppend(record.index(), entry.term());
    if (entry.type() == RaftEntryType.APPLICATION) {
      lastPosition = entry.highestPosition();
    }
    return record;
  }

  /**
   * Appends an entry replicated from the leader (not flushed).
   *
   * @throws io.cairn.journal.InvalidChecksumException if the record's checksum does not match
   * @throws IllegalArgumentException if the data is not a raft entry
   */
  public void appendReplicated(JournalRecord record) {
    long term = RaftEntryCodec.term(record.data());
    journal.append(record);
    terms.onAppend(record.index(), term);
    if (record.asqn() != Journal.ASQN_IGNORE) {
      lastPosition = RaftEntryCodec.highestPosition(record.data());
    }
  }

  /**
   * Deletes every entry after {@code index}.
   *
   * @throws RaftSafetyException if that would delete an entry at or below {@code commitIndex}
   */
  public void truncateAfter(long index, long commitIndex) {
    if (index < commitIndex) {
      throw new RaftSafetyException(
          "Expected to never truncate committed entries, but was asked to delete after "
              + index
              + " with commit index "
              + commitIndex
              + " ("
              + context
              + ")");
    }
    if (index >= lastIndex()) {
      return;
    }
    LOG.debug("Truncating log of {} after index {} (last was {})", context, index, lastIndex());
    journal.deleteAfter(index);
    terms.truncateAfter(index);
    flushedIndex = Math.min(flushedIndex, index);
    truncations++;
    lastPosition = findLastPosition();
  }

  /** Forces appended entries to disk if any is not yet flushed; returns the flushed index. */
  public long flush() {
    long last = lastIndex();
    if (flushedIndex < last) {
      journal.flush();
      flushedIndex = last;
    }
    return flushedIndex;
  }

  /** How often entries were truncated or the log reset: what an entry at an index is may change. */
  public long truncationCount() {
    return truncations;
  }

  /** Whether some appended entry is not flushed yet. */
  public boolean hasUnflushed() {
    return flushedIndex < lastIndex();
  }

  /**
   * Prepares the flush of every entry appended so far, whose fsync ({@link PendingFlush#force()})
   * may then run on another thread while this member goes on; tell the log with {@link
   * #onFlushed(PendingFlush)} on this member's thread once it ran.
   */
  public PendingFlush prepareFlush() {
    return new PendingFlush(journal.prepareFlush(), truncations);
  }

  /**
   * A prepared flush ran: its entries count as flushed unless the log was truncated or reset since
   * it was prepared (an entry it covered may have been replaced; the next flush covers the rest).
   */
  public void onFlushed(PendingFlush flush) {
    if (flush.truncations == truncations) {
      flushedIndex = Math.max(flushedIndex, Math.min(flush.lastIndex(), lastIndex()));
    }
  }

  /** The fsync of the entries a log held when it was prepared; {@link #force()} on any thread. */
  public static final class PendingFlush {
    private final JournalFlush work;
    private final long truncations;

    private PendingFlush(JournalFlush work, long truncations) {
      this.work = work;
      this.truncations = truncations;
    }

    /** The last index it makes durable. */
    public long lastIndex() {
      return work.lastIndex();
    }

    /** Forces the entries to disk (any thread, once). */
    public void force() {
      work.force();
    }
  }

  /**
   * Reads the records from {@code fromIndex}, at least one when it exists, until their data would
   * exceed {@code maxBytes} or {@code maxCount} records.
   */
  public List<JournalRecord> read(long fromIndex, int maxBytes, int maxCount) {
    List<JournalRecord> records = new ArrayList<>();
    long last = lastIndex();
    if (fromIndex > last || fromIndex < firstIndex()) {
      return records;
    }
    reader.seek(fromIndex);
    long expected = fromIndex;
    int bytes = 0;
    while (expected <= last && records.size() < maxCount && reader.hasNext()) {
      JournalRecord record = reader.next();
      checkIndex(record, expected);
      int size = record.data().capacity();
      if (!records.isEmpty() && bytes + size > maxBytes) {
        break;
      }
      records.add(record);
      bytes += size;
      expected++;
    }
    return records;
  }

  /** Reads one entry, or null when it is not in the journal. */
  public RaftEntry readEntry(long index) {
    List<JournalRecord> records = read(index, Integer.MAX_VALUE, 1);
    return records.isEmpty() ? null : RaftEntryCodec.decode(records.get(0).data());
  }

  /**
   * Deletes whole segments below {@code index} (see {@link Journal#deleteUntil(long)}).
   *
   * @return true if a segment was deleted
   */
  public boolean compact(long index) {
    return journal.deleteUntil(index);
  }

  /** Records that a newer snapshot exists (taken locally); the journal is not touched. */
  public void onSnapshot(long index, long term) {
    if (index > snapshotIndex) {
      snapshotIndex = index;
      snapshotTerm = term;
    }
  }

  /** Replaces the whole log by an installed snapshot: the next entry gets {@code index + 1}. */
  public void resetToSnapshot(long index, long term) {
    journal.reset(index + 1);
    terms.clear();
    snapshotIndex = index;
    snapshotTerm = term;
    flushedIndex = index;
    truncations++;
    lastPosition = RaftEntry.NO_POSITION;
  }

  public Journal journal() {
    return journal;
  }

  @Override
  public void close() {
    reader.close();
  }

  private long readTerm(long index) {
    reader.seek(index);
    if (!reader.hasNext()) {
      return UNKNOWN_TERM;
    }
    JournalRecord record = reader.next();
    return record.index() == index ? RaftEntryCodec.term(record.data()) : UNKNOWN_TERM;
  }

  private long findLastPosition() {
    if (journal.isEmpty()) {
      return RaftEntry.NO_POSITION;
    }
    reader.seekToAsqn(Long.MAX_VALUE);
    if (!reader.hasNext()) {
      return RaftEntry.NO_POSITION;
    }
    JournalRecord record = reader.next();
    if (record.asqn() == Journal.ASQN_IGNORE) {
      return RaftEntry.NO_POSITION;
    }
    return RaftEntryCodec.highestPosition(record.data());
  }

  private void checkIndex(JournalRecord record, long expected) {
    if (record.index() != expected) {
      throw new IllegalStateException(
          "Expected journal record index "
              + expected
              + ", but was "
              + record.index()
              + " ("
              + context
              + ")");
    }
  }
}
