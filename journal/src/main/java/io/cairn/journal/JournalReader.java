package io.cairn.journal;

import java.util.Iterator;

/**
 * Reads records of a {@link Journal} in index order. A reader is used by one thread at a time; it
 * sees records appended after it was opened and skips records removed by {@code deleteAfter} once
 * it is re-positioned with {@link #seek(long)}.
 */
public interface JournalReader extends Iterator<JournalRecord>, AutoCloseable {

  /**
   * Positions the reader so that the next record is the one with {@code index}; when the index is
   * below the first index the reader is positioned at the first record, and when it is after the
   * last index, at the end.
   *
   * @return the index of the next record that {@link #next()} will return
   */
  long seek(long index);

  /** Positions the reader at the first record. */
  long seekToFirst();

  /** Positions the reader at the last record, so that {@link #next()} returns it. */
  long seekToLast();

  /**
   * Positions the reader at the record with the highest non-ignored asqn that is less than or equal
   * to {@code asqn}; at the first record when there is none.
   *
   * @return the index of the next record
   */
  long seekToAsqn(long asqn);

  @Override
  void close();
}
