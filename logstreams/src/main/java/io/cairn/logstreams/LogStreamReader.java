package io.cairn.logstreams;

import io.cairn.protocol.Record;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Reads the committed records of a {@link LogStream} in position order. {@link #hasNext()} is true
 * only while a committed record is available now; when it is false, more records may come later
 * (wait for a {@link CommitListener} call and ask again).
 *
 * <p>Used by one thread at a time.
 */
public interface LogStreamReader extends Iterator<Record>, AutoCloseable {

  /**
   * Positions the reader so that the next record is the first one with a position {@code >=
   * position} (which may not be committed yet, or not written yet).
   */
  void seek(long position);

  /** Positions the reader at the first record of the log. */
  void seekToFirst();

  /** True if a committed record is available now. */
  @Override
  boolean hasNext();

  /**
   * The next committed record.
   *
   * @throws NoSuchElementException if {@link #hasNext()} is false
   * @throws CorruptedLogException if the committed entry holding the next record cannot be decoded;
   *     the reader is unusable afterwards
   */
  @Override
  Record next();

  /** Releases the reader; it returns no more records. Idempotent. */
  @Override
  void close();
}
