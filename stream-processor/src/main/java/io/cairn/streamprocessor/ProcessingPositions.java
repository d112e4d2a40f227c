package io.cairn.streamprocessor;

import io.cairn.db.CairnDb;
import io.cairn.db.ColumnFamily;
import io.cairn.db.DbCodecs;
import io.cairn.logstreams.LogStream;

/**
 * The positions the stream processor keeps in state, in the same transactions as the state they
 * describe, so they survive restarts and are rebuilt by replay:
 *
 * <ul>
 *   <li><b>last processed position</b>: the position of the last command whose processing is in
 *       state — on the leader the command just processed, in replay the highest source position of
 *       a replayed follow-up record. Commands at or below it are never processed again.
 *   <li><b>last written position</b>: the highest position of a follow-up record whose effects are
 *       in state — on the leader the end of the last batch it wrote, in replay the last follow-up
 *       record replayed. Events at or below it are in state already and are not applied again.
 * </ul>
 *
 * Both are {@link LogStream#NO_POSITION} in a fresh state. A snapshot records both; a snapshot is
 * usable for a backup only when both are below the checkpoint position (DESIGN.md §10).
 */
public final class ProcessingPositions {

  private static final String LAST_PROCESSED = "lastProcessedPosition";
  private static final String LAST_WRITTEN = "lastWrittenPosition";

  private final ColumnFamily<String, Long> family;

  /**
   * @throws IllegalArgumentException if the database was opened without {@link
   *     StreamProcessorColumnFamily#all()}
   */
  public ProcessingPositions(CairnDb db) {
    try {
      family =
          db.columnFamily(
              StreamProcessorColumnFamily.STREAM_PROCESSOR_POSITIONS,
              DbCodecs.STRING,
              DbCodecs.LONG);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Expected the partition's database to be opened with the stream processor's column"
              + " families (StreamProcessorColumnFamily.all()), but: "
              + e.getMessage(),
          e);
    }
  }

  /** The last processed position as stored (including the open transaction's write, if any). */
  public long lastProcessedPosition() {
    return read(LAST_PROCESSED);
  }

  /** The last written position as stored (including the open transaction's write, if any). */
  public long lastWrittenPosition() {
    return read(LAST_WRITTEN);
  }

  /**
   * Stores both positions, in the open transaction if there is one. Only the stream processor calls
   * this.
   */
  public void store(long lastProcessedPosition, long lastWrittenPosition) {
    family.put(LAST_PROCESSED, lastProcessedPosition);
    family.put(LAST_WRITTEN, lastWrittenPosition);
  }

  private long read(String key) {
    Long value = family.get(key);
    return value == null ? LogStream.NO_POSITION : value;
  }
}
