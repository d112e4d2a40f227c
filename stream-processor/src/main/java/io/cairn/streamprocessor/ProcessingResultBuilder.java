package io.cairn.streamprocessor;

import io.cairn.protocol.Intent;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordValue;
import io.cairn.protocol.RejectionType;

/**
 * Collects the outcome of one command: the follow-up records (written as one batch), the response
 * and the side effects.
 *
 * <p>Every follow-up record gets the command's position as its source position and the command's
 * timestamp. The batch is: every {@linkplain #prependCommand prepended} command in call order, then
 * every appended record in call order.
 */
public interface ProcessingResultBuilder {

  /**
   * Appends an event and applies it to state at once with the applier registered for {@code
   * intent}, so that what the processor reads next sees it.
   *
   * @throws IllegalArgumentException if {@code intent} is not an event intent
   * @throws EventApplierException if no applier is registered or the applier threw; the partition
   *     fails whatever the caller does with this exception
   */
  ProcessingResultBuilder appendEvent(long key, Intent intent, RecordValue value);

  /**
   * Appends a command, processed on this partition when it is read back from the log.
   *
   * @throws IllegalArgumentException if {@code intent} is not a command intent
   */
  ProcessingResultBuilder appendCommand(long key, Intent intent, RecordValue value);

  /**
   * Appends a copy of {@code command} with every field kept (key, request ids, checkpoint id)
   * except its position (assigned when written) and its source position (this command's). Used to
   * re-write a command behind records that must be processed first.
   *
   * @throws IllegalArgumentException if {@code command} is not a command
   */
  ProcessingResultBuilder appendCommand(Record command);

  /**
   * Puts a command at the front of the batch: after the commands prepended before it, ahead of
   * every appended record, whenever those were appended.
   *
   * @throws IllegalArgumentException if {@code intent} is not a command intent
   */
  ProcessingResultBuilder prependCommand(long key, Intent intent, RecordValue value);

  /**
   * Appends a rejection of the command (its intent, key and value) with {@code type} and {@code
   * reason}. A reason longer than the protocol allows is shortened.
   *
   * @throws IllegalArgumentException if {@code type} is {@link RejectionType#NONE}
   */
  ProcessingResultBuilder appendRejection(RejectionType type, String reason);

  /** Sets the response to an event; replaces any response set before. */
  ProcessingResultBuilder respondWithEvent(long key, Intent intent, RecordValue value);

  /** Sets the response to a rejection of the command; replaces any response set before. */
  ProcessingResultBuilder respondWithRejection(RejectionType type, String reason);

  /** {@link #appendRejection} and {@link #respondWithRejection}: the usual way to reject. */
  default ProcessingResultBuilder reject(RejectionType type, String reason) {
    return appendRejection(type, reason).respondWithRejection(type, reason);
  }

  /** {@link #appendEvent} and {@link #respondWithEvent} of the same event. */
  default ProcessingResultBuilder appendEventAndRespond(
      long key, Intent intent, RecordValue value) {
    return appendEvent(key, intent, value).respondWithEvent(key, intent, value);
  }

  /** Adds a side effect, run after the batch is committed, in the order added. */
  ProcessingResultBuilder appendSideEffect(SideEffect sideEffect);

  /**
   * Halts the partition at this command, for an outcome that must be neither skipped nor turned
   * into a rejection (a broken invariant, unreadable state): the command's transaction is rolled
   * back (events applied so far included), nothing of this result is written, answered or run, the
   * command is not marked processed, and the stream processor stops with health {@link
   * HealthStatus#FAILED} and {@code reason}.
   *
   * <p>Once called, the outcome is settled whatever the caller does next: records added later are
   * discarded, no further interceptor or processor runs, and an exception thrown afterwards does
   * not turn it into a rejection. The first call's reason counts; so does an {@linkplain
   * #appendEvent applier failure} that came first.
   *
   * @param reason what failed and where, shown as the partition's health reason; a blank reason is
   *     replaced by one naming the command
   * @param cause the failure behind it, logged with the reason; may be null
   */
  void failPartition(String reason, Throwable cause);

  /** {@link #failPartition(String, Throwable)} without a cause. */
  default void failPartition(String reason) {
    failPartition(reason, null);
  }

  /** Shorthand for {@link RecordMetadata#NO_KEY}. */
  long NO_KEY = RecordMetadata.NO_KEY;
}
