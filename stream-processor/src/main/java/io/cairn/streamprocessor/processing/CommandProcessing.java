package io.cairn.streamprocessor.processing;

import io.cairn.db.Transaction;
import io.cairn.logstreams.LogStreamWriter;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.Intent;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.RejectionType;
import io.cairn.scheduler.Clock;
import io.cairn.streamprocessor.CommandInterceptor;
import io.cairn.streamprocessor.CommandProcessor;
import io.cairn.streamprocessor.ProcessingContext;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Processes one command on the leader, in this order:
 *
 * <ol>
 *   <li>open a transaction; run the interceptors, then the command's processor; every event they
 *       append is applied at once by its applier;
 *   <li>a processor or interceptor that threw: roll back, open a new transaction, and reject the
 *       command with {@code PROCESSING_ERROR} instead; an applier that failed, or a handler that
 *       called {@link io.cairn.streamprocessor.ProcessingResultBuilder#failPartition}, rolls back
 *       and fails the partition (nothing written, the command not marked processed);
 *   <li>write the follow-up records as one batch; backpressure or not-leader: roll back and tell
 *       the caller (nothing was written, nothing changed);
 *   <li>store the positions (this command processed, the batch's end written) in the transaction
 *       and commit it;
 *   <li>answer at once, at the command's position (the command is committed, so its result is
 *       settled: processing is deterministic over the committed log, and a leader that loses the
 *       batch processes the command again to the same result, its follow-ups perhaps at other
 *       positions); queue the side effects — and a {@code PROCESSING_ERROR} answer, which may come
 *       from the machine rather than the log — until the batch is committed in the log.
 * </ol>
 */
public final class CommandProcessing {

  private static final Logger LOG = LoggerFactory.getLogger(CommandProcessing.class);

  /** What became of a command. */
  public enum Outcome {
    /** Processed (or rejected): state committed, batch handed to the log. */
    PROCESSED,
    /** The log answered backpressure; nothing changed. Process the same command again later. */
    RETRY_LATER,
    /** The log refused the write because this member does not lead; nothing changed. */
    NOT_LEADER
  }

  private record Attempt(Transaction transaction, ResultCollector result) {}

  private record Context(int partitionId, Record command) implements ProcessingContext {}

  private final ProcessingState state;
  private final LogStreamWriter writer;
  private final PostCommitQueue postCommit;
  private final Clock clock;

  public CommandProcessing(
      ProcessingState state, LogStreamWriter writer, PostCommitQueue postCommit, Clock clock) {
    this.state = state;
    this.writer = writer;
    this.postCommit = postCommit;
    this.clock = clock;
  }

  /**
   * Processes {@code command}; see the class doc.
   *
   * @param startNanos when the command was read, for the latency metric
   * @throws PartitionFailedException if an applier failed, a handler halted the partition, or the
   *     state could not be committed
   */
  public Outcome process(Record command, long startNanos) {
    Attempt attempt = attempt(command);
    WriteResult written = write(attempt);
    if (written instanceof WriteResult.TooLarge tooLarge) {
      attempt.transaction().rollback();
      attempt =
          errorAttempt(
              command,
              "Expected the follow-up records to fit in a batch of at most "
                  + tooLarge.maxBatchSizeBytes()
                  + " bytes, but they take "
                  + tooLarge.batchSizeBytes()
                  + " bytes");
      written = write(attempt);
      if (written instanceof WriteResult.TooLarge) {
        attempt.transaction().rollback();
        throw new PartitionFailedException(
            "Expected the rejection of the command at position "
                + command.position()
                + " to fit in a batch, but it is too large (partition "
                + state.partitionId()
                + ")",
            null);
      }
    }
    if (written instanceof WriteResult.Backpressure) {
      attempt.transaction().rollback();
      state.metrics().writeRetry();
      return Outcome.RETRY_LATER;
    }
    if (written instanceof WriteResult.NotLeader) {
      attempt.transaction().rollback();
      return Outcome.NOT_LEADER;
    }

    long lowest = RecordMetadata.NO_POSITION;
    long lastWritten = state.lastWrittenPosition();
    if (written instanceof WriteResult.Written batch) {
      lowest = batch.lowestPosition();
      lastWritten = batch.highestPosition();
    }
    commit(attempt.transaction(), command, lastWritten);

    ResultCollector result = attempt.result();
    state.metrics().processingLatency(clock.nanos() - startNanos);
    if (result.rejectsCommand()) {
      state.metrics().rejected();
    } else {
      state.metrics().processed();
    }
    RecordMetadata metadata = command.metadata();
    boolean answerable =
        metadata.requestId() != RecordMetadata.NO_REQUEST_ID
            && metadata.requestStreamId() != RecordMetadata.NO_REQUEST_STREAM_ID;
    Record response = answerable ? result.positionedResponse(lowest) : null;
    if (response != null && !isProcessingError(response)) {
      // The command is committed and its result follows from the committed log alone: a leader
      // that loses this batch processes the command again to the same result — though its
      // follow-ups may land at other positions. So answer now, at the command's position.
      postCommit.respond(
          metadata.requestStreamId(),
          metadata.requestId(),
          new Record(
              response.metadata().toBuilder().position(command.position()).build(),
              response.value()));
      postCommit.add(
          lastWritten,
          metadata.requestStreamId(),
          metadata.requestId(),
          null,
          List.copyOf(result.sideEffects()));
    } else {
      postCommit.add(
          lastWritten,
          metadata.requestStreamId(),
          metadata.requestId(),
          response,
          List.copyOf(result.sideEffects()));
    }
    return Outcome.PROCESSED;
  }

  /**
   * A rejection for a processing error may come from the machine (storage, memory), not from the
   * log: it is answered only once its batch is committed, so the answer is what the log says.
   */
  private static boolean isProcessingError(Record response) {
    return response.metadata().recordType() == RecordType.REJECTION
        && response.metadata().rejectionType() == RejectionType.PROCESSING_ERROR;
  }

  /**
   * Runs the handlers in a new transaction; on their failure, a rejection in a fresh one. A request
   * to halt the partition (an applier failure, {@code failPartition}) wins over everything else.
   */
  private Attempt attempt(Record command) {
    Transaction transaction = state.db().beginTransaction();
    ResultCollector result = new ResultCollector(state.partitionId(), command, state.processors());
    RuntimeException thrown = null;
    try {
      runHandlers(new Context(state.partitionId(), command), result);
    } catch (RuntimeException e) {
      thrown = e;
    }
    if (result.partitionFailure() != null) {
      // Also when the processor caught an applier's exception: the state is broken all the same.
      transaction.rollback();
      throw result.partitionFailure();
    }
    if (thrown != null) {
      transaction.rollback();
      LOG.warn(
          "Processing the command at position {} ({} {}) failed; rejecting it (partition {})",
          command.position(),
          command.metadata().valueType(),
          command.metadata().intent().name(),
          state.partitionId(),
          thrown);
      return errorAttempt(command, reasonOf(thrown));
    }
    return new Attempt(transaction, result);
  }

  private void runHandlers(ProcessingContext context, ResultCollector result) {
    for (CommandInterceptor interceptor : state.processors().interceptors()) {
      if (interceptor.intercept(context, result) == CommandInterceptor.Decision.HANDLED
          || result.partitionFailure() != null) {
        return;
      }
    }
    Intent intent = context.intent();
    CommandProcessor processor = state.processors().processor(intent);
    if (processor == null) {
      result.reject(
          RejectionType.PROCESSING_ERROR,
          "Expected a processor for "
              + intent.valueType()
              + " "
              + intent.name()
              + ", but none is registered (partition "
              + state.partitionId()
              + ")");
      return;
    }
    processor.process(context, result);
  }

  private Attempt errorAttempt(Record command, String reason) {
    Transaction transaction = state.db().beginTransaction();
    ResultCollector result = new ResultCollector(state.partitionId(), command, state.processors());
    result.reject(RejectionType.PROCESSING_ERROR, reason);
    return new Attempt(transaction, result);
  }

  /** The write's result, or null when there is nothing to write. */
  private WriteResult write(Attempt attempt) {
    List<Record> records = attempt.result().records();
    return records.isEmpty() ? null : writer.tryWrite(records);
  }

  private void commit(Transaction transaction, Record command, long lastWritten) {
    try {
      state.store(command.position(), lastWritten);
      transaction.commit();
    } catch (RuntimeException e) {
      transaction.close();
      throw new PartitionFailedException(
          "Expected to commit the state of the command at position "
              + command.position()
              + " (its follow-ups end at "
              + lastWritten
              + " in the log), but: "
              + e.getMessage()
              + " (partition "
              + state.partitionId()
              + ")",
          e);
    }
    state.committed(command.position(), lastWritten);
  }

  private static String reasonOf(RuntimeException e) {
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getName() : message;
  }
}
