package io.cairn.streamprocessor.processing;

import io.cairn.db.Transaction;
import io.cairn.protocol.Intent;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordType;
import io.cairn.streamprocessor.EventApplier;

/**
 * Brings state up to date with follow-up records read from the log: applies every event above the
 * last written position with its registered applier, and moves the positions along (the source
 * position of a follow-up is a processed command; the follow-up's own position is written). No
 * processor, response or side effect ever runs here.
 *
 * <p>Records are applied in one transaction until {@link #commit()}, which stores the positions in
 * the same transaction, so the state and its positions always match.
 */
public final class EventReplay {

  private final ProcessingState state;
  private Transaction transaction;
  private long pendingProcessed;
  private long pendingWritten;
  private int appliedEvents;

  public EventReplay(ProcessingState state) {
    this.state = state;
  }

  /**
   * Replays {@code record} if it is a follow-up whose effects are not in state yet.
   *
   * @return true if the record was new to the state (and is now part of the open transaction)
   * @throws PartitionFailedException if an event has no applier or its applier threw; the open
   *     transaction is rolled back
   */
  public boolean replay(Record record) {
    RecordMetadata metadata = record.metadata();
    boolean event = metadata.recordType() == RecordType.EVENT;
    if (!event && metadata.sourcePosition() == RecordMetadata.NO_POSITION) {
      return false; // a command from outside (a client, another partition): not a follow-up
    }
    long written = transaction == null ? state.lastWrittenPosition() : pendingWritten;
    if (record.position() <= written) {
      return false; // in state already
    }
    begin();
    if (event) {
      apply(record);
      appliedEvents++;
    }
    pendingWritten = record.position();
    if (metadata.sourcePosition() != RecordMetadata.NO_POSITION) {
      pendingProcessed = Math.max(pendingProcessed, metadata.sourcePosition());
    }
    return true;
  }

  /**
   * Commits what was replayed since the last commit, with the positions; does nothing if nothing
   * was.
   *
   * @throws PartitionFailedException if the transaction cannot be committed
   */
  public void commit() {
    if (transaction == null) {
      return;
    }
    Transaction committing = transaction;
    transaction = null;
    try {
      state.store(pendingProcessed, pendingWritten);
      committing.commit();
    } catch (RuntimeException e) {
      committing.close();
      throw new PartitionFailedException(
          "Expected to commit the replayed state up to position "
              + pendingWritten
              + ", but: "
              + e.getMessage()
              + " (partition "
              + state.partitionId()
              + ")",
          e);
    }
    state.committed(pendingProcessed, pendingWritten);
    state.metrics().replayed(appliedEvents);
  }

  /** Drops what was replayed since the last commit. */
  public void rollback() {
    if (transaction != null) {
      transaction.close();
      transaction = null;
    }
  }

  private void begin() {
    if (transaction == null) {
      transaction = state.db().beginTransaction();
      pendingProcessed = state.lastProcessedPosition();
      pendingWritten = state.lastWrittenPosition();
      appliedEvents = 0;
    }
  }

  private void apply(Record event) {
    Intent intent = event.metadata().intent();
    EventApplier applier = state.processors().applier(intent);
    if (applier == null) {
      rollback();
      throw new PartitionFailedException(
          "Expected an event applier for "
              + intent.valueType()
              + " "
              + intent.name()
              + ", but none is registered (partition "
              + state.partitionId()
              + ", event at position "
              + event.position()
              + ")",
          null);
    }
    // Appliers see the event as the leader did, before it had a position.
    Record unpositioned =
        new Record(
            event.metadata().toBuilder().position(RecordMetadata.NO_POSITION).build(),
            event.value());
    try {
      applier.apply(unpositioned);
    } catch (RuntimeException e) {
      rollback();
      throw new PartitionFailedException(
          "Expected the applier of "
              + intent.valueType()
              + " "
              + intent.name()
              + " to apply the event at position "
              + event.position()
              + ", but it threw: "
              + e
              + " (partition "
              + state.partitionId()
              + ")",
          e);
    }
  }
}
