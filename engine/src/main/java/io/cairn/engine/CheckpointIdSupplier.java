package io.cairn.engine;

import io.cairn.protocol.RecordMetadata;

/**
 * The partition's latest checkpoint id, stamped on every inter-partition command (DESIGN.md §7).
 *
 * <p>Contract: the value is a function of the partition's <em>state</em> (for example the
 * checkpoint processor's column family), never of time or of anything outside the state. The engine
 * reads it inside event appliers to store the id with a pending credit, so a leader and a follower
 * replaying the same log must read the same value. Called on the partition's thread.
 */
@FunctionalInterface
public interface CheckpointIdSupplier {

  /** No checkpoint taken yet: always {@link RecordMetadata#NO_CHECKPOINT_ID}. */
  CheckpointIdSupplier NONE = () -> RecordMetadata.NO_CHECKPOINT_ID;

  /**
   * The latest checkpoint id in the partition's state, or {@link RecordMetadata#NO_CHECKPOINT_ID}.
   */
  long latestCheckpointId();
}
