package io.cairn.journal.segment;

import io.cairn.journal.Journal;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The in-memory sparse index of a journal: for every {@code density}-th record and the first record
 * of each segment, its file position; and for those of them with an asqn, asqn to index. Written by
 * the writer thread, read by readers on any thread. Internal to the journal.
 */
public final class SparseIndex {

  /**
   * @param index the record's index
   * @param position the record's frame offset inside the segment that holds the index
   * @param lastAsqn the highest non-ignored asqn of the records up to and including this one, or
   *     {@link Journal#ASQN_IGNORE}
   */
  public record Entry(long index, int position, long lastAsqn) {}

  private final int density;
  private final ConcurrentSkipListMap<Long, Entry> positions = new ConcurrentSkipListMap<>();
  private final ConcurrentSkipListMap<Long, Long> asqnToIndex = new ConcurrentSkipListMap<>();

  public SparseIndex(int density) {
    this.density = density;
  }

  /** Called for each record appended or loaded, in index order. */
  public void onRecord(long index, long asqn, long lastAsqn, int position, boolean firstOfSegment) {
    if (firstOfSegment || index % density == 0) {
      positions.put(index, new Entry(index, position, lastAsqn));
      if (asqn != Journal.ASQN_IGNORE) {
        asqnToIndex.put(asqn, index);
      }
    }
  }

  /** The indexed record with the highest index at or below {@code index}, or null. */
  public Entry floor(long index) {
    Map.Entry<Long, Entry> entry = positions.floorEntry(index);
    return entry == null ? null : entry.getValue();
  }

  /** The index of the indexed record with the highest asqn at or below {@code asqn}, or -1. */
  public long floorIndexOfAsqn(long asqn) {
    Map.Entry<Long, Long> entry = asqnToIndex.floorEntry(asqn);
    return entry == null ? -1 : entry.getValue();
  }

  /** Forgets every record after {@code indexExclusive}. */
  public void deleteAfter(long indexExclusive) {
    positions.tailMap(indexExclusive, false).clear();
    // asqn grows with index, so the entries to drop are the highest asqns
    Iterator<Long> indexes = asqnToIndex.descendingMap().values().iterator();
    while (indexes.hasNext() && indexes.next() > indexExclusive) {
      indexes.remove();
    }
  }

  /** Forgets every record before {@code firstIndex}. */
  public void deleteUntil(long firstIndex) {
    positions.headMap(firstIndex, false).clear();
    Iterator<Long> indexes = asqnToIndex.values().iterator();
    while (indexes.hasNext() && indexes.next() < firstIndex) {
      indexes.remove();
    }
  }

  public void clear() {
    positions.clear();
    asqnToIndex.clear();
  }

  /** The number of indexed positions; for tests and metrics. */
  public int size() {
    return positions.size();
  }
}
