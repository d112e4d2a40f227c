package io.cairn.streamprocessor.processing;

import io.cairn.db.CairnDb;
import io.cairn.streamprocessor.ProcessingPositions;
import io.cairn.streamprocessor.RecordProcessors;
import io.cairn.streamprocessor.StreamProcessorMetrics;

/**
 * What processing and replay share: the database, the registry, the metrics, and the positions of
 * the committed state (mirrored in memory; the database is updated in the same transaction as the
 * state they describe).
 */
public final class ProcessingState {

  private final int partitionId;
  private final CairnDb db;
  private final ProcessingPositions positions;
  private final RecordProcessors processors;
  private final StreamProcessorMetrics metrics;
  private long lastProcessedPosition;
  private long lastWrittenPosition;

  public ProcessingState(
      int partitionId, CairnDb db, RecordProcessors processors, StreamProcessorMetrics metrics) {
    this.partitionId = partitionId;
    this.db = db;
    this.positions = new ProcessingPositions(db);
    this.processors = processors;
    this.metrics = metrics;
    this.lastProcessedPosition = positions.lastProcessedPosition();
    this.lastWrittenPosition = positions.lastWrittenPosition();
    metrics.positions(lastProcessedPosition, lastWrittenPosition);
  }

  public int partitionId() {
    return partitionId;
  }

  public CairnDb db() {
    return db;
  }

  public RecordProcessors processors() {
    return processors;
  }

  public StreamProcessorMetrics metrics() {
    return metrics;
  }

  /** The last processed position of the committed state. */
  public long lastProcessedPosition() {
    return lastProcessedPosition;
  }

  /** The last written position of the committed state. */
  public long lastWrittenPosition() {
    return lastWrittenPosition;
  }

  /** Writes both positions into the open transaction. */
  void store(long lastProcessed, long lastWritten) {
    positions.store(lastProcessed, lastWritten);
  }

  /** The transaction that stored these positions committed. */
  void committed(long lastProcessed, long lastWritten) {
    lastProcessedPosition = lastProcessed;
    lastWrittenPosition = lastWritten;
    metrics.positions(lastProcessed, lastWritten);
  }
}
