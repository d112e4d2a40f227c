package io.cairn.raft.log;

import java.util.Arrays;

/**
 * The first index of every term in the log, ascending: answers "which term has the entry at index
 * i" without reading the journal. Terms change rarely, so it stays small.
 */
final class TermIndex {

  private long[] startIndexes = new long[8];
  private long[] terms = new long[8];
  private int size;

  /** Records that {@code index} (the next entry appended) has {@code term}. */
  void onAppend(long index, long term) {
    if (size > 0) {
      long lastTerm = terms[size - 1];
      if (term < lastTerm) {
        throw new IllegalStateException(
            "Expected terms to not decrease along the log, but entry "
                + index
                + " has term "
                + term
                + " after term "
                + lastTerm
                + " (raft log)");
      }
      if (term == lastTerm) {
        return;
      }
    }
    if (size == startIndexes.length) {
      startIndexes = Arrays.copyOf(startIndexes, size * 2);
      terms = Arrays.copyOf(terms, size * 2);
    }
    startIndexes[size] = index;
    terms[size] = term;
    size++;
  }

  /** Forgets every entry after {@code index}. */
  void truncateAfter(long index) {
    while (size > 0 && startIndexes[size - 1] > index) {
      size--;
    }
  }

  void clear() {
    size = 0;
  }

  /** The lowest index whose term is known, or Long.MAX_VALUE when none. */
  long lowestKnownIndex() {
    return size == 0 ? Long.MAX_VALUE : startIndexes[0];
  }

  /** The term of the entry at index (which the caller knows to exist), or -1 if unknown. */
  long termAt(long index) {
    int slot = slotOf(index);
    return slot < 0 ? -1 : terms[slot];
  }

  /** The first index with {@code term}, or -1 when no entry has it. */
  long firstIndexOf(long term) {
    int slot = slotOfTerm(term);
    return slot < 0 ? -1 : startIndexes[slot];
  }

  /** The last index with {@code term} given the log's last index, or -1 when no entry has it. */
  long lastIndexOf(long term, long lastIndex) {
    int slot = slotOfTerm(term);
    if (slot < 0) {
      return -1;
    }
    return slot == size - 1 ? lastIndex : startIndexes[slot + 1] - 1;
  }

  private int slotOfTerm(long term) {
    int slot = Arrays.binarySearch(terms, 0, size, term);
    return slot < 0 ? -1 : slot;
  }

  private int slotOf(long index) {
    int low = 0;
    int high = size - 1;
    int found = -1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (startIndexes[mid] <= index) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return found;
  }
}
