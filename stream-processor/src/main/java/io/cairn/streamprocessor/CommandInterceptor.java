package io.cairn.streamprocessor;

/**
 * Runs before the processor of every command, in the order interceptors were registered, inside the
 * command's transaction. It may append records to the command's batch (before those of the
 * processor) and may take the command over entirely.
 *
 * <p>Example, the consistent cut (DESIGN.md §7): an inter-partition command carries a checkpoint id
 * higher than the partition's last one. The cut requires that {@code CHECKPOINT CREATE(id)} is
 * processed <em>before</em> the command, so the interceptor appends {@code CREATE(id)} and then a
 * copy of the command ({@link ProcessingResultBuilder#appendCommand(io.cairn.protocol.Record)}) and
 * answers {@link Decision#HANDLED}: the batch {@code [CREATE(id), command]} is written, and both
 * are processed in that order when read back. (A receiver outside the stream processor may write
 * the same two records as one batch directly.)
 *
 * <p>Same rules as a {@link CommandProcessor}: read state only, deterministic. One that throws
 * rejects the command with {@code PROCESSING_ERROR}; one that calls {@link
 * ProcessingResultBuilder#failPartition} halts the partition (whatever it answers, no further
 * interceptor or processor runs).
 */
@FunctionalInterface
public interface CommandInterceptor {

  /** What happens after an interceptor ran. */
  enum Decision {
    /** Run the next interceptor, then the command's processor. */
    CONTINUE,
    /**
     * The command is handled: no further interceptor or processor runs; what was written to the
     * result is the command's outcome.
     */
    HANDLED
  }

  Decision intercept(ProcessingContext context, ProcessingResultBuilder result);
}
