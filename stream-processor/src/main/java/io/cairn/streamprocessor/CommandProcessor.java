package io.cairn.streamprocessor;

/**
 * Handles one kind of command (one {@code (ValueType, Intent)}) on the leader.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>Read state, never write it: every change goes through an event appended to {@code result},
 *       which the registered {@link EventApplier} applies at once (so later reads in the same call
 *       see it) — the same applier that replays the event on followers.
 *   <li>Be deterministic: the same state and command give the same result. Time is {@link
 *       ProcessingContext#timestamp()}, never a clock; no random numbers, no I/O.
 *   <li>Effects outside the partition (messages to other partitions, timers) are {@linkplain
 *       ProcessingResultBuilder#appendSideEffect side effects}; they run only after the follow-up
 *       records are committed.
 * </ul>
 *
 * <p>A processor that throws has its command rejected with {@code PROCESSING_ERROR} (reason = the
 * exception's message) and every change of its transaction rolled back; processing goes on with the
 * next command. Where a failure must not be skipped that way (a broken invariant), the processor
 * calls {@link ProcessingResultBuilder#failPartition} instead: the transaction is rolled back and
 * the partition halts at this command with health {@code FAILED}.
 */
@FunctionalInterface
public interface CommandProcessor {

  /** Processes {@code context.command()}, writing its outcome to {@code result}. */
  void process(ProcessingContext context, ProcessingResultBuilder result);
}
