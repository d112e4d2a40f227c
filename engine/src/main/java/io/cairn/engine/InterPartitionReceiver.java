package io.cairn.engine;

import io.cairn.logstreams.LogStreamWriter;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.CreditIntent;
import io.cairn.protocol.CreditValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordType;
import java.util.Objects;

/**
 * The receiving end of {@link InterPartitionSender}: writes an inter-partition command to the local
 * partition's log, where the leader's stream processor processes it like any command.
 *
 * <p>The written command keeps the sender's key, value and checkpoint id; its position and source
 * position are cleared (it is a command from outside, not a follow-up of a local command), and so
 * are request ids (nobody waits for a response). Safe to call from any thread (the log stream
 * writer is).
 */
public final class InterPartitionReceiver {

  private final int partitionId;
  private final LogStreamWriter writer;

  public InterPartitionReceiver(int partitionId, LogStreamWriter writer) {
    this.partitionId = partitionId;
    this.writer = Objects.requireNonNull(writer, "writer");
  }

  public int partitionId() {
    return partitionId;
  }

  /**
   * Writes {@code command} to the local log.
   *
   * @return the writer's answer; anything but {@link WriteResult.Written} means the command was
   *     dropped (not leader, backpressure) and the sender's retry will bring it again
   * @throws IllegalArgumentException if {@code command} is not a {@code CREDIT APPLY} for this
   *     partition or a {@code CREDIT ACK} or {@code CREDIT REFUND} for a credit this partition sent
   */
  public WriteResult receive(Record command) {
    Objects.requireNonNull(command, "command");
    RecordMetadata metadata = command.metadata();
    if (metadata.recordType() != RecordType.COMMAND
        || !(metadata.intent() == CreditIntent.APPLY
            || metadata.intent() == CreditIntent.ACK
            || metadata.intent() == CreditIntent.REFUND)) {
      throw new IllegalArgumentException(
          "Expected an inter-partition command CREDIT APPLY, CREDIT ACK or CREDIT REFUND, but was "
              + metadata.recordType()
              + " "
              + metadata.valueType()
              + " "
              + metadata.intent().name()
              + " (partition "
              + partitionId
              + ")");
    }
    CreditValue credit = (CreditValue) command.value();
    boolean apply = metadata.intent() == CreditIntent.APPLY;
    int addressed = apply ? credit.targetPartitionId() : credit.sourcePartitionId();
    if (addressed != partitionId) {
      throw new IllegalArgumentException(
          "Expected CREDIT "
              + metadata.intent().name()
              + " for partition "
              + partitionId
              + ", but its "
              + (apply ? "targetPartitionId" : "sourcePartitionId")
              + " is "
              + addressed
              + " (transfer key "
              + credit.transferKey()
              + ")");
    }
    RecordMetadata local =
        metadata.toBuilder()
            .position(RecordMetadata.NO_POSITION)
            .sourcePosition(RecordMetadata.NO_POSITION)
            .requestId(RecordMetadata.NO_REQUEST_ID)
            .requestStreamId(RecordMetadata.NO_REQUEST_STREAM_ID)
            .build();
    return writer.tryWrite(new Record(local, credit));
  }
}
