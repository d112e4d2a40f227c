package io.cairn.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.logstreams.InMemoryLogStream;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.CreditIntent;
import io.cairn.protocol.CreditValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.scheduler.SimClock;
import org.junit.jupiter.api.Test;

class InterPartitionReceiverTest {

  private final InMemoryLogStream log = new InMemoryLogStream(2, new SimClock(5_000));
  private final InterPartitionReceiver receiver = new InterPartitionReceiver(2, log.writer());

  @Test
  void shouldWriteCommandAsExternalCommandKeepingKeyValueAndCheckpointId() {
    // given a command that still carries fields of the sender's log
    CreditValue credit = new CreditValue(LedgerKeys.of(1, 8), "carol", 5, 1, 2);
    Record command =
        new Record(
            RecordMetadata.builder()
                .command(CreditIntent.APPLY)
                .key(credit.transferKey())
                .sourcePosition(7)
                .requestId(3)
                .requestStreamId(4)
                .checkpointId(12)
                .build(),
            credit);

    // when
    WriteResult result = receiver.receive(command);

    // then
    assertThat(result).isEqualTo(new WriteResult.Written(1, 1));
    Record written = log.committedRecords().get(0);
    assertThat(written.value()).isEqualTo(credit);
    assertThat(written.metadata().key()).isEqualTo(credit.transferKey());
    assertThat(written.metadata().checkpointId()).isEqualTo(12);
    assertThat(written.metadata().sourcePosition()).isEqualTo(RecordMetadata.NO_POSITION);
    assertThat(written.metadata().requestId()).isEqualTo(RecordMetadata.NO_REQUEST_ID);
  }

  @Test
  void shouldPassOnTheWritersAnswer() {
    // given
    log.leader(false);

    // when
    WriteResult result =
        receiver.receive(
            new Record(
                RecordMetadata.builder().command(CreditIntent.ACK).build(),
                new CreditValue(LedgerKeys.of(2, 8), "carol", 5, 2, 3)));

    // then
    assertThat(result).isInstanceOf(WriteResult.NotLeader.class);
  }

  @Test
  void shouldWriteRefundAddressedToTheSourceAndRefuseOneForAnotherSource() {
    // given refunds of credits from partition 2 (this one) and from partition 1
    CreditValue ours = new CreditValue(LedgerKeys.of(2, 8), "carol", 5, 2, 3);
    CreditValue theirs = new CreditValue(LedgerKeys.of(1, 8), "carol", 5, 1, 3);

    // when
    WriteResult result =
        receiver.receive(
            new Record(
                RecordMetadata.builder().command(CreditIntent.REFUND).checkpointId(4).build(),
                ours));

    // then
    assertThat(result.isWritten()).isTrue();
    assertThat(log.committedRecords().get(0).metadata().intent()).isEqualTo(CreditIntent.REFUND);
    assertThat(log.committedRecords().get(0).metadata().checkpointId()).isEqualTo(4);
    assertThatThrownBy(
            () ->
                receiver.receive(
                    new Record(
                        RecordMetadata.builder().command(CreditIntent.REFUND).build(), theirs)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Expected CREDIT REFUND for partition 2, but its sourcePartitionId is 1 (transfer key "
                + LedgerKeys.of(1, 8)
                + ")");
    assertThat(log.committedRecords()).hasSize(1);
  }

  @Test
  void shouldRefuseCommandsThatAreNotForThisPartition() {
    assertThatThrownBy(
            () ->
                receiver.receive(
                    new Record(
                        RecordMetadata.builder().command(CreditIntent.APPLY).build(),
                        new CreditValue(LedgerKeys.of(1, 8), "carol", 5, 1, 3))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Expected CREDIT APPLY for partition 2, but its targetPartitionId is 3 (transfer key "
                + LedgerKeys.of(1, 8)
                + ")");
    assertThatThrownBy(
            () ->
                receiver.receive(
                    new Record(
                        RecordMetadata.builder().command(DepositIntent.DEPOSIT).build(),
                        new DepositValue("carol", 5))))
        .hasMessage(
            "Expected an inter-partition command CREDIT APPLY, CREDIT ACK or CREDIT REFUND, but was"
                + " COMMAND DEPOSIT DEPOSIT (partition 2)");
    assertThat(log.committedRecords()).isEmpty();
  }
}
