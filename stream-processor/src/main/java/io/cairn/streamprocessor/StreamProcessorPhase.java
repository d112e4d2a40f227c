package io.cairn.streamprocessor;

/**
 * Where a stream processor is in its life.
 *
 * <pre>
 * STARTING ─▶ REPLAYING ─▶ PROCESSING ─▶ NOT_LEADER
 *                 │             │
 *                 └─────────────┴────────▶ FAILED        (any phase ─▶ CLOSED on close)
 * </pre>
 *
 * A follower stays in {@code REPLAYING}. {@code NOT_LEADER} and {@code FAILED} are final: the owner
 * closes the processor.
 */
public enum StreamProcessorPhase {
  /** Created, not started on its scheduler yet. */
  STARTING,
  /** Applying the events of the log to state; no command is processed. */
  REPLAYING,
  /** Leader: processing commands. */
  PROCESSING,
  /**
   * The log refused a write because this member no longer leads. Processing stopped; the state may
   * hold effects of batches that will never be committed, so the owner must close this processor
   * and rebuild state from a snapshot (or from scratch) plus the committed log.
   */
  NOT_LEADER,
  /** See {@link HealthStatus#FAILED}. */
  FAILED,
  /** Closed. */
  CLOSED
}
