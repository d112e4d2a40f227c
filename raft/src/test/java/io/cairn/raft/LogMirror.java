package io.cairn.raft;

import java.util.Arrays;

/**
 * What the checker knows of one member's journal: the term and a content hash of every entry it
 * holds, maintained from the journal's own operations.
 */
final class LogMirror {

  static final long UNKNOWN = Long.MIN_VALUE;

  private long base = 1; // index of slot 0
  private long[] terms = new long[256];
  private long[] hashes = new long[256];
  private int size;

  long firstIndex() {
    return base;
  }

  long lastIndex() {
    return base + size - 1;
  }

  void append(long index, long term, long hash) {
    if (index != base + size) {
      throw new IllegalStateException(
          "Expected the journal to append index " + (base + size) + ", but it appended " + index);
    }
    if (size == terms.length) {
      terms = Arrays.copyOf(terms, size * 2);
      hashes = Arrays.copyOf(hashes, size * 2);
    }
    terms[size] = term;
    hashes[size] = hash;
    size++;
  }

  void deleteAfter(long index) {
    size = (int) Math.max(0, Math.min(size, index - base + 1));
  }

  void reset(long nextIndex) {
    base = nextIndex;
    size = 0;
  }

  /** The term at index, or UNKNOWN when the mirror does not hold it. */
  long term(long index) {
    return holds(index) ? terms[(int) (index - base)] : UNKNOWN;
  }

  long hash(long index) {
    return holds(index) ? hashes[(int) (index - base)] : UNKNOWN;
  }

  boolean holds(long index) {
    return index >= base && index < base + size;
  }
}
