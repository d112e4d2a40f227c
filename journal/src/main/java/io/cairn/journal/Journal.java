package io.cairn.journal;

import java.util.List;
import org.agrona.DirectBuffer;

/**
 * A segmented, append-only, durable sequence of records with 1-based, gapless indexes.
 *
 * <p>Single writer: one thread appends, flushes and truncates. Readers may run on other threads.
 * Records become durable only after {@link #flush()}; callers batch appends and flush once. A
 * writer that must not wait for the disk splits the flush: {@link #prepareFlush()} on its thread,
 * {@link JournalFlush#force()} on another while it goes on appending.
 */
public interface Journal extends AutoCloseable {

  /** The asqn of a record that carries no application sequence number. */
  long ASQN_IGNORE = -1;

  /**
   * Appends a record at index {@link #getLastIndex()} + 1 and computes its checksum.
   *
   * @param asqn {@link #ASQN_IGNORE} or a value greater than the highest asqn in the journal
   * @return the record as written
   * @throws IllegalArgumentException if asqn is not increasing, or the record cannot fit in an
   *     empty segment
   */
  JournalRecord append(long asqn, DirectBuffer data);

  /**
   * Appends a record replicated from another journal (a raft leader's). Its index must be {@link
   * #getLastIndex()} + 1 and its checksum must match its data.
   *
   * @throws InvalidIndexException if the index is not the next one
   * @throws InvalidChecksumException if the checksum does not match the data
   */
  void append(JournalRecord record);

  /** Forces every appended record to disk. Returns after the fsync. */
  void flush();

  /**
   * Writer thread: makes every record appended so far ready to be forced (their frames complete)
   * and returns the fsync that makes them durable, to run once on any thread while the writer goes
   * on. Records appended after this call are not covered by it.
   *
   * <p>If the records are deleted ({@link #deleteAfter}, {@link #reset}) or the journal closed
   * before the fsync ran, the fsync does nothing for them: the caller must not count them as
   * durable then (it knows it truncated).
   */
  JournalFlush prepareFlush();

  /**
   * Deletes every record with an index greater than {@code indexExclusive}. The next append gets
   * index {@code indexExclusive + 1}.
   */
  void deleteAfter(long indexExclusive);

  /**
   * Compaction: deletes whole segments whose every record has an index lower than {@code index}.
   * Never deletes the segment containing {@code index} or anything after it.
   *
   * @return true if at least one segment was deleted
   */
  boolean deleteUntil(long index);

  /**
   * Deletes everything and starts empty so that the next append gets {@code nextIndex}. Used when a
   * snapshot or a restored backup replaces the log.
   */
  void reset(long nextIndex);

  /** The index of the first record, or the next index to be appended when the journal is empty. */
  long getFirstIndex();

  /** The index of the last record, or {@code getFirstIndex() - 1} when the journal is empty. */
  long getLastIndex();

  boolean isEmpty();

  /** Opens a reader positioned at the first record. */
  JournalReader openReader();

  /**
   * A read-only view of the segment files at this moment, oldest first. Each file is valid up to
   * its {@code committedLengthBytes}; bytes beyond it may be written later or be garbage. Backups
   * copy exactly that length.
   */
  List<JournalSegmentFile> segmentFiles();

  boolean isOpen();

  @Override
  void close();
}
