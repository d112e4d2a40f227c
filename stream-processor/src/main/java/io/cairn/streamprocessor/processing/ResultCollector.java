package io.cairn.streamprocessor.processing;

import io.cairn.protocol.Intent;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordDescriptor;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.RecordValue;
import io.cairn.protocol.RejectionType;
import io.cairn.streamprocessor.EventApplier;
import io.cairn.streamprocessor.EventApplierException;
import io.cairn.streamprocessor.ProcessingResultBuilder;
import io.cairn.streamprocessor.RecordProcessors;
import io.cairn.streamprocessor.SideEffect;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The {@link ProcessingResultBuilder} of one command. Applies events as they are appended, and
 * keeps the first request to halt the partition: an applier failure or {@link #failPartition}.
 */
public final class ResultCollector implements ProcessingResultBuilder {

  private final int partitionId;
  private final Record command;
  private final RecordProcessors processors;
  private final List<Record> prepended = new ArrayList<>();
  private final List<Record> appended = new ArrayList<>();
  private final List<SideEffect> sideEffects = new ArrayList<>();
  private Record response;
  private EventApplierException applierFailure;
  private PartitionFailedException partitionFailure;

  public ResultCollector(int partitionId, Record command, RecordProcessors processors) {
    this.partitionId = partitionId;
    this.command = command;
    this.processors = processors;
  }

  @Override
  public ProcessingResultBuilder appendEvent(long key, Intent intent, RecordValue value) {
    requireIntent(intent, true, "appendEvent");
    if (partitionFailure != null) {
      return this; // the outcome is settled: nothing more is applied
    }
    Record event = new Record(followUp().event(intent).key(key).build(), value);
    apply(event);
    appended.add(event);
    return this;
  }

  @Override
  public ProcessingResultBuilder appendCommand(long key, Intent intent, RecordValue value) {
    requireIntent(intent, false, "appendCommand");
    appended.add(new Record(followUp().command(intent).key(key).build(), value));
    return this;
  }

  @Override
  public ProcessingResultBuilder appendCommand(Record copied) {
    if (copied.metadata().recordType() != RecordType.COMMAND) {
      throw new IllegalArgumentException(
          "Expected a command to copy, but was a " + copied.metadata().recordType());
    }
    RecordMetadata metadata =
        copied.metadata().toBuilder()
            .position(RecordMetadata.NO_POSITION)
            .sourcePosition(command.position())
            .build();
    appended.add(new Record(metadata, copied.value()));
    return this;
  }

  @Override
  public ProcessingResultBuilder prependCommand(long key, Intent intent, RecordValue value) {
    requireIntent(intent, false, "prependCommand");
    prepended.add(new Record(followUp().command(intent).key(key).build(), value));
    return this;
  }

  @Override
  public ProcessingResultBuilder appendRejection(RejectionType type, String reason) {
    appended.add(rejection(followUp(), type, reason));
    return this;
  }

  @Override
  public ProcessingResultBuilder respondWithEvent(long key, Intent intent, RecordValue value) {
    requireIntent(intent, true, "respondWithEvent");
    response = new Record(responseMetadata().event(intent).key(key).build(), value);
    return this;
  }

  @Override
  public ProcessingResultBuilder respondWithRejection(RejectionType type, String reason) {
    response = rejection(responseMetadata(), type, reason);
    return this;
  }

  @Override
  public ProcessingResultBuilder appendSideEffect(SideEffect sideEffect) {
    sideEffects.add(Objects.requireNonNull(sideEffect, "sideEffect"));
    return this;
  }

  @Override
  public void failPartition(String reason, Throwable cause) {
    if (partitionFailure != null) {
      return;
    }
    String text =
        reason == null || reason.isBlank()
            ? "A processor halted the partition without a reason (partition "
                + partitionId
                + ", command at position "
                + command.position()
                + ", "
                + command.metadata().valueType()
                + " "
                + command.metadata().intent().name()
                + ")"
            : reason;
    partitionFailure = new PartitionFailedException(text, cause);
  }

  /** The batch to write: prepended commands, then appended records. */
  public List<Record> records() {
    if (prepended.isEmpty()) {
      return Collections.unmodifiableList(appended);
    }
    List<Record> records = new ArrayList<>(prepended.size() + appended.size());
    records.addAll(prepended);
    records.addAll(appended);
    return records;
  }

  /** The response, or null; its position is {@link RecordMetadata#NO_POSITION}. */
  public Record response() {
    return response;
  }

  public List<SideEffect> sideEffects() {
    return sideEffects;
  }

  /** The first failure of an applier, or null; set even if the processor caught it. */
  public EventApplierException applierFailure() {
    return applierFailure;
  }

  /**
   * The first request to halt the partition, or null: an applier that failed (even if the processor
   * caught it) or a call of {@link #failPartition}, whichever came first.
   */
  public PartitionFailedException partitionFailure() {
    return partitionFailure;
  }

  /** True if the batch rejects the command. */
  public boolean rejectsCommand() {
    for (Record record : appended) {
      if (record.metadata().recordType() == RecordType.REJECTION
          && record.metadata().sourcePosition() == command.position()
          && record.metadata().intent() == command.metadata().intent()) {
        return true;
      }
    }
    return false;
  }

  /**
   * The response with the position of the follow-up record it matches (same type, intent, key,
   * rejection and value), given the positions the batch was written at; unchanged if none matches.
   */
  public Record positionedResponse(long lowestPosition) {
    if (response == null || lowestPosition == RecordMetadata.NO_POSITION) {
      return response;
    }
    List<Record> records = records();
    for (int i = 0; i < records.size(); i++) {
      RecordMetadata written = records.get(i).metadata();
      RecordMetadata answer = response.metadata();
      if (written.recordType() == answer.recordType()
          && written.intent() == answer.intent()
          && written.key() == answer.key()
          && written.rejectionType() == answer.rejectionType()
          && written.rejectionReason().equals(answer.rejectionReason())
          && records.get(i).value().equals(response.value())) {
        return new Record(
            answer.toBuilder().position(lowestPosition + i).build(), response.value());
      }
    }
    return response;
  }

  /** A reason the protocol accepts: at most {@link RecordDescriptor#REJECTION_REASON_MAX_BYTES}. */
  static String boundedReason(String reason) {
    String text = reason == null ? "" : reason;
    if (text.getBytes(StandardCharsets.UTF_8).length
        <= RecordDescriptor.REJECTION_REASON_MAX_BYTES) {
      return text;
    }
    String ellipsis = "...";
    int budget = RecordDescriptor.REJECTION_REASON_MAX_BYTES - ellipsis.length();
    StringBuilder bounded = new StringBuilder();
    int bytes = 0;
    for (int i = 0; i < text.length(); ) {
      int codePoint = text.codePointAt(i);
      int length = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8).length;
      if (bytes + length > budget) {
        break;
      }
      bounded.appendCodePoint(codePoint);
      bytes += length;
      i += Character.charCount(codePoint);
    }
    return bounded.append(ellipsis).toString();
  }

  private void apply(Record event) {
    Intent intent = event.metadata().intent();
    EventApplier applier = processors.applier(intent);
    if (applier == null) {
      throw applierFailed(
          "Expected an event applier for "
              + intent.valueType()
              + " "
              + intent.name()
              + ", but none is registered",
          null);
    }
    try {
      applier.apply(event);
    } catch (RuntimeException e) {
      throw applierFailed(
          "Expected the applier of "
              + intent.valueType()
              + " "
              + intent.name()
              + " to apply the event, but it threw: "
              + e,
          e);
    }
  }

  private EventApplierException applierFailed(String message, Throwable cause) {
    EventApplierException failure =
        new EventApplierException(
            message
                + " (partition "
                + partitionId
                + ", command at position "
                + command.position()
                + ")",
            cause);
    if (applierFailure == null) {
      applierFailure = failure;
    }
    if (partitionFailure == null) {
      partitionFailure = new PartitionFailedException(failure.getMessage(), failure);
    }
    return failure;
  }

  private RecordMetadata.Builder followUp() {
    return RecordMetadata.builder()
        .sourcePosition(command.position())
        .timestamp(command.metadata().timestamp());
  }

  private RecordMetadata.Builder responseMetadata() {
    RecordMetadata metadata = command.metadata();
    return followUp().requestId(metadata.requestId()).requestStreamId(metadata.requestStreamId());
  }

  private Record rejection(RecordMetadata.Builder builder, RejectionType type, String reason) {
    if (type == null || type == RejectionType.NONE) {
      throw new IllegalArgumentException(
          "Expected a rejection type other than NONE, but was " + type);
    }
    RecordMetadata metadata =
        builder
            .rejection(command.metadata().intent(), type, boundedReason(reason))
            .key(command.metadata().key())
            .build();
    return new Record(metadata, command.value());
  }

  private static void requireIntent(Intent intent, boolean event, String method) {
    Objects.requireNonNull(intent, "intent");
    if (intent.isEvent() != event) {
      throw new IllegalArgumentException(
          "Expected "
              + (event ? "an event" : "a command")
              + " intent in "
              + method
              + ", but "
              + intent.valueType()
              + " "
              + intent.name()
              + " is "
              + (event ? "a command" : "an event"));
    }
  }
}
