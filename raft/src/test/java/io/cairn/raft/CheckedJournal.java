package io.cairn.raft;

import io.cairn.journal.Journal;
import io.cairn.journal.JournalFlush;
import io.cairn.journal.JournalReader;
import io.cairn.journal.JournalRecord;
import io.cairn.journal.JournalSegmentFile;
import io.cairn.raft.log.RaftEntryCodec;
import java.util.List;
import java.util.zip.CRC32C;
import org.agrona.DirectBuffer;

/**
 * Wraps a real journal for the simulation: mirrors every append, truncation and reset into a {@link
 * LogMirror}, reports them to the checker before they happen, and remembers the durable index (what
 * a crash cannot lose).
 */
final class CheckedJournal implements Journal {

  /** Sees every change of one member's journal. */
  interface Observer {
    void onAppend(int member, long index, long term, long hash, long prevTerm);

    void onDeleteAfter(int member, long index, LogMirror mirror);
  }

  private final int member;
  private final Journal delegate;
  private final LogMirror mirror = new LogMirror();
  private final Observer observer;
  private long durableIndex;
  private long truncations;

  CheckedJournal(int member, Journal delegate, Observer observer) {
    this.member = member;
    this.delegate = delegate;
    this.observer = observer;
    mirror.reset(delegate.getFirstIndex());
    try (JournalReader reader = delegate.openReader()) {
      reader.seekToFirst();
      while (reader.hasNext()) {
        JournalRecord record = reader.next();
        mirror.append(record.index(), RaftEntryCodec.term(record.data()), hash(record.data()));
      }
    }
    durableIndex = delegate.getLastIndex();
  }

  static long hash(DirectBuffer data) {
    byte[] bytes = new byte[data.capacity()];
    data.getBytes(0, bytes);
    CRC32C crc = new CRC32C();
    crc.update(bytes);
    return crc.getValue() ^ ((long) bytes.length << 32);
  }

  LogMirror mirror() {
    return mirror;
  }

  long durableIndex() {
    return durableIndex;
  }

  private void record(long index, DirectBuffer data) {
    long term = RaftEntryCodec.term(data);
    long hash = hash(data);
    long prevTerm = mirror.holds(index - 1) ? mirror.term(index - 1) : LogMirror.UNKNOWN;
    observer.onAppend(member, index, term, hash, prevTerm);
    mirror.append(index, term, hash);
  }

  @Override
  public JournalRecord append(long asqn, DirectBuffer data) {
    JournalRecord record = delegate.append(asqn, data);
    record(record.index(), record.data());
    return record;
  }

  @Override
  public void append(JournalRecord record) {
    delegate.append(record);
    record(record.index(), record.data());
  }

  @Override
  public void flush() {
    delegate.flush();
    durableIndex = delegate.getLastIndex();
  }

  @Override
  public JournalFlush prepareFlush() {
    JournalFlush flush = delegate.prepareFlush();
    long generation = truncations;
    return new JournalFlush() {
      @Override
      public long lastIndex() {
        return flush.lastIndex();
      }

      @Override
      public void force() {
        flush.force();
        // a truncation since the flush was prepared may have replaced what it covered
        if (generation == truncations) {
          durableIndex = Math.max(durableIndex, flush.lastIndex());
        }
      }
    };
  }

  @Override
  public void deleteAfter(long indexExclusive) {
    observer.onDeleteAfter(member, indexExclusive, mirror);
    delegate.deleteAfter(indexExclusive);
    mirror.deleteAfter(indexExclusive);
    durableIndex = Math.min(durableIndex, indexExclusive);
    truncations++;
  }

  @Override
  public boolean deleteUntil(long index) {
    return delegate.deleteUntil(index);
  }

  @Override
  public void reset(long nextIndex) {
    delegate.reset(nextIndex);
    mirror.reset(nextIndex);
    durableIndex = nextIndex - 1;
    truncations++;
  }

  @Override
  public long getFirstIndex() {
    return delegate.getFirstIndex();
  }

  @Override
  public long getLastIndex() {
    return delegate.getLastIndex();
  }

  @Override
  public boolean isEmpty() {
    return delegate.isEmpty();
  }

  @Override
  public JournalReader openReader() {
    return delegate.openReader();
  }

  @Override
  public List<JournalSegmentFile> segmentFiles() {
    return delegate.segmentFiles();
  }

  @Override
  public boolean isOpen() {
    return delegate.isOpen();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
