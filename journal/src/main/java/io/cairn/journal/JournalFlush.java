package io.cairn.journal;

/**
 * The fsync of the records a journal held when {@link Journal#prepareFlush()} was called. Runs on
 * any thread, once, while the journal's writer goes on appending.
 */
public interface JournalFlush {

  /** The index of the last record this flush makes durable (0 when the journal is empty). */
  long lastIndex();

  /**
   * Forces the records to disk; returns after the fsync.
   *
   * @throws JournalException if the fsync failed: the records may not be durable
   */
  void force();
}
