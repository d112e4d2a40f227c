package io.cairn.raft;

import io.cairn.journal.InvalidChecksumException;
import io.cairn.journal.InvalidIndexException;
import io.cairn.journal.Journal;
import io.cairn.journal.JournalFlush;
import io.cairn.journal.JournalReader;
import io.cairn.journal.JournalRecord;
import io.cairn.journal.JournalSegmentFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.zip.CRC32C;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A {@link Journal} in memory that enforces the interface's contract: gapless indexes, increasing
 * asqns, checksums of replicated records, whole-segment compaction (segments of {@code
 * recordsPerSegment} records), and "durable only after flush" ({@link #loseUnflushed()} models a
 * crash).
 */
final class InMemoryJournal implements Journal {

  private final int recordsPerSegment;
  private final List<JournalRecord> records = new ArrayList<>();
  private long firstIndex = 1;
  private long segmentBase = 1;
  private long flushedIndex;
  private boolean open = true;
  private int flushCount;
  private long truncations;

  InMemoryJournal() {
    this(4);
  }

  InMemoryJournal(int recordsPerSegment) {
    this.recordsPerSegment = recordsPerSegment;
  }

  static int checksum(long index, long asqn, DirectBuffer data) {
    ByteBuffer header = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
    header.putLong(index).putLong(asqn);
    CRC32C crc = new CRC32C();
    crc.update(header.array());
    byte[] bytes = new byte[data.capacity()];
    data.getBytes(0, bytes);
    crc.update(bytes);
    return (int) crc.getValue();
  }

  @Override
  public JournalRecord append(long asqn, DirectBuffer data) {
    ensureOpen();
    checkAsqn(asqn);
    long index = getLastIndex() + 1;
    JournalRecord record = new JournalRecord(index, asqn, checksum(index, asqn, data), copy(data));
    records.add(record);
    return record;
  }

  @Override
  public void append(JournalRecord record) {
    ensureOpen();
    long expected = getLastIndex() + 1;
    if (record.index() != expected) {
      throw new InvalidIndexException(
          "Expected index " + expected + ", but was " + record.index() + " (in-memory journal)");
    }
    checkAsqn(record.asqn());
    int actual = checksum(record.index(), record.asqn(), record.data());
    if (actual != record.checksum()) {
      throw new InvalidChecksumException(
          "Expected checksum "
              + actual
              + ", but was "
              + record.checksum()
              + " (in-memory journal)");
    }
    records.add(
        new JournalRecord(record.index(), record.asqn(), record.checksum(), copy(record.data())));
  }

  @Override
  public void flush() {
    ensureOpen();
    flushedIndex = getLastIndex();
    flushCount++;
  }

  @Override
  public JournalFlush prepareFlush() {
    ensureOpen();
    long lastIndex = getLastIndex();
    long generation = truncations;
    return new JournalFlush() {
      @Override
      public long lastIndex() {
        return lastIndex;
      }

      @Override
      public void force() {
        // a truncation since the flush was prepared may have replaced what it covered
        if (generation == truncations) {
          flushedIndex = Math.max(flushedIndex, lastIndex);
        }
        flushCount++;
      }
    };
  }

  @Override
  public void deleteAfter(long indexExclusive) {
    ensureOpen();
    while (!records.isEmpty() && getLastIndex() > indexExclusive) {
      records.remove(records.size() - 1);
    }
    if (records.isEmpty() && indexExclusive + 1 < firstIndex) {
      firstIndex = indexExclusive + 1;
    }
    flushedIndex = Math.min(flushedIndex, getLastIndex());
    truncations++;
  }

  @Override
  public boolean deleteUntil(long index) {
    ensureOpen();
    boolean deleted = false;
    // whole segments [segmentBase, segmentBase + recordsPerSegment) whose every index < index
    while (segmentBase + recordsPerSegment - 1 < index
        && segmentBase + recordsPerSegment - 1 <= getLastIndex()
        && segmentBase + recordsPerSegment <= getLastIndex()) {
      long segmentEnd = segmentBase + recordsPerSegment;
      while (!records.isEmpty() && records.get(0).index() < segmentEnd) {
        records.remove(0);
      }
      firstIndex = segmentEnd;
      segmentBase = segmentEnd;
      deleted = true;
    }
    return deleted;
  }

  @Override
  public void reset(long nextIndex) {
    ensureOpen();
    records.clear();
    firstIndex = nextIndex;
    segmentBase = nextIndex;
    flushedIndex = nextIndex - 1;
    truncations++;
  }

  @Override
  public long getFirstIndex() {
    return firstIndex;
  }

  @Override
  public long getLastIndex() {
    return records.isEmpty() ? firstIndex - 1 : records.get(records.size() - 1).index();
  }

  @Override
  public boolean isEmpty() {
    return records.isEmpty();
  }

  @Override
  public JournalReader openReader() {
    return new Reader();
  }

  @Override
  public List<JournalSegmentFile> segmentFiles() {
    return List.of();
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void close() {
    open = false;
  }

  /** A crash: everything appended after the last flush is gone. */
  void loseUnflushed() {
    deleteAfter(flushedIndex);
  }

  long flushedIndex() {
    return flushedIndex;
  }

  int flushCount() {
    return flushCount;
  }

  JournalRecord record(long index) {
    int slot = (int) (index - firstIndex);
    return slot < 0 || slot >= records.size() ? null : records.get(slot);
  }

  private void checkAsqn(long asqn) {
    if (asqn == ASQN_IGNORE) {
      return;
    }
    for (int i = records.size() - 1; i >= 0; i--) {
      long previous = records.get(i).asqn();
      if (previous != ASQN_IGNORE) {
        if (asqn <= previous) {
          throw new IllegalArgumentException(
              "Expected asqn > " + previous + ", but was " + asqn + " (in-memory journal)");
        }
        return;
      }
    }
  }

  private void ensureOpen() {
    if (!open) {
      throw new IllegalStateException("Expected an open journal, but it is closed");
    }
  }

  private static DirectBuffer copy(DirectBuffer data) {
    byte[] bytes = new byte[data.capacity()];
    data.getBytes(0, bytes);
    return new UnsafeBuffer(bytes);
  }

  private final class Reader implements JournalReader {
    private long next = firstIndex;

    @Override
    public long seek(long index) {
      next = Math.max(firstIndex, Math.min(index, getLastIndex() + 1));
      return next;
    }

    @Override
    public long seekToFirst() {
      next = firstIndex;
      return next;
    }

    @Override
    public long seekToLast() {
      next = records.isEmpty() ? firstIndex : getLastIndex();
      return next;
    }

    @Override
    public long seekToAsqn(long asqn) {
      next = firstIndex;
      for (JournalRecord record : records) {
        if (record.asqn() != ASQN_IGNORE && record.asqn() <= asqn) {
          next = record.index();
        }
      }
      return next;
    }

    @Override
    public boolean hasNext() {
      return next >= firstIndex && next <= getLastIndex();
    }

    @Override
    public JournalRecord next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return records.get((int) (next++ - firstIndex));
    }

    @Override
    public void close() {}
  }
}
