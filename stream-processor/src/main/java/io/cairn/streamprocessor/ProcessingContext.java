package io.cairn.streamprocessor;

import io.cairn.protocol.Intent;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordValue;

/** What a processor or interceptor knows about the command it handles. */
public interface ProcessingContext {

  /** The partition the command belongs to. */
  int partitionId();

  /** The command, as read from the log. */
  Record command();

  /** The command's position in the log. */
  default long position() {
    return command().position();
  }

  /** The command's key, or {@link RecordMetadata#NO_KEY}. */
  default long key() {
    return command().metadata().key();
  }

  /** The command's intent. */
  default Intent intent() {
    return command().metadata().intent();
  }

  /** The command's value. */
  default RecordValue value() {
    return command().value();
  }

  /**
   * The command's timestamp: the time to use for every decision, and the timestamp of its follow-up
   * records. Never read a clock instead.
   */
  default long timestamp() {
    return command().metadata().timestamp();
  }

  /**
   * The checkpoint id the sender stamped on an inter-partition command, or {@link
   * RecordMetadata#NO_CHECKPOINT_ID}.
   */
  default long checkpointId() {
    return command().metadata().checkpointId();
  }
}
