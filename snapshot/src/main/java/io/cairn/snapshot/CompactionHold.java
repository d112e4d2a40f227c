package io.cairn.snapshot;

/**
 * Keeps the log from being compacted at or above {@link #index()} while open: an in-flight backup
 * that still reads segments, an exporter that has not seen some entries. Thread-safe; {@link
 * #close()} is idempotent.
 */
public interface CompactionHold extends AutoCloseable {

  /** Who holds the log, for logs and diagnostics. */
  String name();

  /** The lowest log index still needed. */
  long index();

  /**
   * Moves the hold (a lagging exporter catching up moves it forward).
   *
   * @param index at least 1
   * @throws IllegalStateException if the hold was closed
   */
  void moveTo(long index);

  /** Releases the hold. Idempotent. */
  @Override
  void close();
}
