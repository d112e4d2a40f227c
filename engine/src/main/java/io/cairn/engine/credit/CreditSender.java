package io.cairn.engine.credit;

import io.cairn.engine.InterPartitionSender;
import io.cairn.engine.LedgerMetrics;
import io.cairn.engine.PendingCredit;
import io.cairn.protocol.CreditIntent;
import io.cairn.protocol.CreditValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the inter-partition commands of the credit protocol and hands them to the {@link
 * InterPartitionSender}. A sender that throws is counted and logged; the credit is re-sent later
 * (an {@code APPLY} by the retry loop, an {@code ACK} or {@code REFUND} when the duplicate {@code
 * APPLY} arrives).
 */
public final class CreditSender {

  private static final Logger LOG = LoggerFactory.getLogger(CreditSender.class);

  private final int partitionId;
  private final InterPartitionSender sender;
  private final LedgerMetrics metrics;

  public CreditSender(int partitionId, InterPartitionSender sender, LedgerMetrics metrics) {
    this.partitionId = partitionId;
    this.sender = Objects.requireNonNull(sender, "sender");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /**
   * Sends {@code CREDIT APPLY} of {@code credit} to its target, with the credit's checkpoint id.
   */
  public void sendApply(PendingCredit credit, boolean retry) {
    Record command = applyCommand(credit);
    try {
      sender.send(credit.targetPartitionId(), command, credit.checkpointId());
      metrics.applySent(retry);
    } catch (RuntimeException e) {
      metrics.sendFailed(LedgerMetrics.Operation.APPLY);
      LOG.warn(
          "Partition {} could not send CREDIT APPLY of transfer {} to partition {}; it is re-sent"
              + " later",
          partitionId,
          credit.transferKey(),
          credit.targetPartitionId(),
          e);
    }
  }

  /** Sends {@code CREDIT ACK} of {@code credit} back to its source partition. */
  public void sendAck(CreditValue credit, long checkpointId) {
    Record command = ackCommand(credit, checkpointId);
    try {
      sender.send(credit.sourcePartitionId(), command, checkpointId);
      metrics.ackSent();
    } catch (RuntimeException e) {
      metrics.sendFailed(LedgerMetrics.Operation.ACK);
      LOG.warn(
          "Partition {} could not send CREDIT ACK of transfer {} to partition {}; the source"
              + " re-sends the credit and is acknowledged then",
          partitionId,
          credit.transferKey(),
          credit.sourcePartitionId(),
          e);
    }
  }

  /**
   * Sends {@code CREDIT REFUND} of a refused {@code credit} back to its source partition. Not
   * re-sent by itself: the source keeps re-sending the {@code APPLY} until it has refunded, and
   * every duplicate {@code APPLY} is answered with this again.
   */
  public void sendRefund(CreditValue credit, long checkpointId) {
    Record command = refundCommand(credit, checkpointId);
    try {
      sender.send(credit.sourcePartitionId(), command, checkpointId);
      metrics.refundSent();
    } catch (RuntimeException e) {
      metrics.sendFailed(LedgerMetrics.Operation.REFUND);
      LOG.warn(
          "Partition {} could not send CREDIT REFUND of transfer {} to partition {}; the source"
              + " re-sends the credit and is refunded then",
          partitionId,
          credit.transferKey(),
          credit.sourcePartitionId(),
          e);
    }
  }

  /** The {@code CREDIT APPLY} command of a pending credit. */
  public static Record applyCommand(PendingCredit credit) {
    return new Record(
        RecordMetadata.builder()
            .command(CreditIntent.APPLY)
            .key(credit.transferKey())
            .checkpointId(credit.checkpointId())
            .build(),
        new CreditValue(
            credit.transferKey(),
            credit.toAccountId(),
            credit.amount(),
            credit.sourcePartitionId(),
            credit.targetPartitionId()));
  }

  /** The {@code CREDIT ACK} command answering an applied (or ignored) credit. */
  public static Record ackCommand(CreditValue credit, long checkpointId) {
    return new Record(
        RecordMetadata.builder()
            .command(CreditIntent.ACK)
            .key(credit.transferKey())
            .checkpointId(checkpointId)
            .build(),
        credit);
  }

  /** The {@code CREDIT REFUND} command answering a refused (or ignored refused) credit. */
  public static Record refundCommand(CreditValue credit, long checkpointId) {
    return new Record(
        RecordMetadata.builder()
            .command(CreditIntent.REFUND)
            .key(credit.transferKey())
            .checkpointId(checkpointId)
            .build(),
        credit);
  }
}
