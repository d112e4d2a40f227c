package io.cairn.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.tuple;

import io.cairn.db.DbCodecs;
import io.cairn.protocol.CreditIntent;
import io.cairn.protocol.CreditValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.RejectionType;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CreditProcessorsTest {

  @TempDir Path directory;
  private LedgerKit ledger;
  private String alice;
  private String carol;

  @BeforeEach
  void setUp() {
    ledger = new LedgerKit(directory, 3);
    ledger.startLeader();
    alice = ledger.localId("alice");
    carol = ledger.idOn(2, "carol");
    ledger.open(100, alice);
  }

  @AfterEach
  void tearDown() {
    ledger.close();
  }

  // ---- APPLY (this partition is the target) -----------------------------------------------------

  @Test
  void shouldApplyCreditOnceAndAcknowledgeWithOwnCheckpointId() {
    // given a credit from partition 2
    CreditValue credit = new CreditValue(LedgerKeys.of(2, 17), alice, 25, 2, 1);
    ledger.checkpointId(9);

    // when
    long position = ledger.writeCredit(CreditIntent.APPLY, credit, 4);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.followUps(position))
        .extracting(r -> r.metadata().intent())
        .containsExactly(CreditIntent.APPLIED);
    assertThat(ledger.followUps(position).get(0).metadata().key()).isEqualTo(credit.transferKey());
    assertThat(ledger.balance(alice)).isEqualTo(125);
    assertThat(ledger.state().isCreditApplied(credit.transferKey())).isTrue();
    assertThat(ledger.sender().sent()).hasSize(1);
    RecordingInterPartitionSender.Sent ack = ledger.sender().sent().get(0);
    assertThat(ack.targetPartitionId()).isEqualTo(2);
    assertThat(ack.checkpointId()).isEqualTo(9);
    assertThat(ack.command().metadata().intent()).isEqualTo(CreditIntent.ACK);
    assertThat(ack.command().metadata().recordType()).isEqualTo(RecordType.COMMAND);
    assertThat(ack.command().value()).isEqualTo(credit);
  }

  @Test
  void shouldIgnoreDuplicateCreditAndAcknowledgeAgain() {
    // given
    CreditValue credit = new CreditValue(LedgerKeys.of(2, 17), alice, 25, 2, 1);
    ledger.writeCredit(CreditIntent.APPLY, credit, -1);
    ledger.runUntilIdle();

    // when
    long duplicate = ledger.writeCredit(CreditIntent.APPLY, credit, -1);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.followUps(duplicate))
        .extracting(r -> r.metadata().intent())
        .containsExactly(CreditIntent.IGNORED);
    assertThat(ledger.balance(alice)).isEqualTo(125);
    assertThat(ledger.sender().sent())
        .extracting(s -> s.command().metadata().intent())
        .containsExactly(CreditIntent.ACK, CreditIntent.ACK);
  }

  @Test
  void shouldRefuseCreditToUnknownAccountAndSendRefundWithOwnCheckpointId() {
    // given
    String ghost = ledger.localId("ghost");
    CreditValue credit = new CreditValue(LedgerKeys.of(3, 5), ghost, 25, 3, 1);
    ledger.checkpointId(6);
    long total = ledger.state().totalBalance();

    // when
    long position = ledger.writeCredit(CreditIntent.APPLY, credit, 4);
    ledger.runUntilIdle();

    // then nothing changes but the marker, and the source is told to refund
    assertThat(ledger.followUps(position))
        .extracting(
            r -> r.metadata().recordType(), r -> r.metadata().intent(), r -> r.metadata().key())
        .containsExactly(tuple(RecordType.EVENT, CreditIntent.REFUSED, credit.transferKey()));
    assertThat(ledger.state().isCreditRefused(credit.transferKey())).isTrue();
    assertThat(ledger.state().isCreditApplied(credit.transferKey())).isFalse();
    assertThat(ledger.state().refusedCredits()).containsExactly(entry(credit.transferKey(), 25L));
    assertThat(ledger.state().appliedCredits()).isEmpty();
    assertThat(ledger.state().balance(ghost)).isEmpty();
    assertThat(ledger.state().totalBalance()).isEqualTo(total);
    assertThat(ledger.sender().sent()).hasSize(1);
    RecordingInterPartitionSender.Sent refund = ledger.sender().sent().get(0);
    assertThat(refund.targetPartitionId()).isEqualTo(3);
    assertThat(refund.checkpointId()).isEqualTo(6);
    assertThat(refund.command().metadata().recordType()).isEqualTo(RecordType.COMMAND);
    assertThat(refund.command().metadata().intent()).isEqualTo(CreditIntent.REFUND);
    assertThat(refund.command().metadata().key()).isEqualTo(credit.transferKey());
    assertThat(refund.command().value()).isEqualTo(credit);
  }

  @Test
  void shouldKeepRefusingARefusedCreditEvenOnceTheAccountExists() {
    // given a credit refused because its account did not exist
    String dave = ledger.localId("dave");
    CreditValue credit = new CreditValue(LedgerKeys.of(3, 5), dave, 25, 3, 1);
    ledger.writeCredit(CreditIntent.APPLY, credit, -1);
    ledger.runUntilIdle();

    // when the account is opened and the source re-sends the credit
    ledger.open(0, dave);
    ledger.checkpointId(2);
    long duplicate = ledger.writeCredit(CreditIntent.APPLY, credit, -1);
    ledger.runUntilIdle();

    // then it is a duplicate of the refusal: never applied, refunded again
    assertThat(ledger.followUps(duplicate))
        .extracting(r -> r.metadata().intent())
        .containsExactly(CreditIntent.IGNORED);
    assertThat(ledger.balance(dave)).isZero();
    assertThat(ledger.state().isCreditApplied(credit.transferKey())).isFalse();
    assertThat(ledger.sender().sent())
        .extracting(
            s -> s.command().metadata().intent(), RecordingInterPartitionSender.Sent::checkpointId)
        .containsExactly(tuple(CreditIntent.REFUND, -1L), tuple(CreditIntent.REFUND, 2L));
  }

  @Test
  void shouldRejectDuplicateOfRefusedCreditWithAnotherAmount() {
    // given
    CreditValue credit = new CreditValue(LedgerKeys.of(3, 5), ledger.localId("ghost"), 25, 3, 1);
    ledger.writeCredit(CreditIntent.APPLY, credit, -1);
    ledger.runUntilIdle();

    // when
    long position =
        ledger.writeCredit(
            CreditIntent.APPLY,
            new CreditValue(credit.transferKey(), credit.toAccountId(), 26, 3, 1),
            -1);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(position).metadata().rejectionReason())
        .isEqualTo(
            "Expected a duplicate of the refused credit to carry its amount 25, but it carries 26"
                + " (CREDIT APPLY of transfer key "
                + credit.transferKey()
                + ")");
    assertThat(ledger.sender().sent()).hasSize(1);
  }

  @Test
  void shouldRejectCreditAddressedToAnotherPartition() {
    // given
    CreditValue credit = new CreditValue(LedgerKeys.of(2, 5), alice, 25, 2, 3);

    // when
    long position = ledger.writeCredit(CreditIntent.APPLY, credit, -1);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(position).metadata().rejectionType())
        .isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(ledger.rejectionOf(position).metadata().rejectionReason())
        .isEqualTo(
            "Expected targetPartitionId 1, but was 3 (CREDIT APPLY of transfer key "
                + credit.transferKey()
                + ")");
    assertThat(ledger.balance(alice)).isEqualTo(100);
  }

  @Test
  void shouldRejectCreditWhoseKeyWasNotMadeByItsSource() {
    // given
    CreditValue credit = new CreditValue(LedgerKeys.of(3, 5), alice, 25, 2, 1);

    // when
    long position = ledger.writeCredit(CreditIntent.APPLY, credit, -1);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(position).metadata().rejectionReason())
        .isEqualTo(
            "Expected transferKey made by sourcePartitionId 2 (partition in bits 48-62, position"
                + " below), but was "
                + credit.transferKey()
                + " (CREDIT APPLY)");
  }

  @Test
  void shouldRejectCreditFromItselfOrUnknownPartitionAndNonPositiveAmount() {
    // when
    long self =
        ledger.writeCredit(
            CreditIntent.APPLY, new CreditValue(LedgerKeys.of(1, 5), alice, 1, 1, 1), -1);
    long zero =
        ledger.writeCredit(
            CreditIntent.APPLY, new CreditValue(LedgerKeys.of(2, 5), alice, 0, 2, 1), -1);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(self).metadata().rejectionReason())
        .contains("Expected sourcePartitionId in [1, 3] other than 1, but was 1");
    assertThat(ledger.rejectionOf(zero).metadata().rejectionReason())
        .isEqualTo(
            "Expected amount > 0, but was 0 (CREDIT APPLY of transfer key "
                + LedgerKeys.of(2, 5)
                + ")");
    assertThat(ledger.balance(alice)).isEqualTo(100);
  }

  @Test
  void shouldRejectCreditThatOverflowsTheTarget() {
    // given
    ledger.deposit(alice, Long.MAX_VALUE - 100);
    ledger.runUntilIdle();
    CreditValue credit = new CreditValue(LedgerKeys.of(2, 5), alice, 1, 2, 1);

    // when
    long position = ledger.writeCredit(CreditIntent.APPLY, credit, -1);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(position).metadata().rejectionType())
        .isEqualTo(RejectionType.INVALID_STATE);
    assertThat(ledger.state().isCreditApplied(credit.transferKey())).isFalse();
    assertThat(ledger.sender().sent()).isEmpty();
  }

  @Test
  void shouldRejectDuplicateWithAnotherAmount() {
    // given
    CreditValue credit = new CreditValue(LedgerKeys.of(2, 5), alice, 10, 2, 1);
    ledger.writeCredit(CreditIntent.APPLY, credit, -1);
    ledger.runUntilIdle();

    // when
    long position =
        ledger.writeCredit(
            CreditIntent.APPLY, new CreditValue(credit.transferKey(), alice, 11, 2, 1), -1);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(position).metadata().rejectionReason())
        .isEqualTo(
            "Expected a duplicate of the applied credit to carry its amount 10, but it carries 11"
                + " (CREDIT APPLY of transfer key "
                + credit.transferKey()
                + ")");
    assertThat(ledger.balance(alice)).isEqualTo(110);
  }

  // ---- ACK (this partition is the source) -------------------------------------------------------

  @Test
  void shouldRemovePendingCreditWhenAcknowledged() {
    // given
    long transfer = ledger.transfer(alice, carol, 40);
    ledger.runUntilIdle();
    long key = LedgerKeys.of(1, transfer);
    CreditValue credit = new CreditValue(key, carol, 40, 1, 2);

    // when
    long position = ledger.writeCredit(CreditIntent.ACK, credit, -1);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.followUps(position))
        .extracting(r -> r.metadata().intent())
        .containsExactly(CreditIntent.ACKNOWLEDGED);
    assertThat(ledger.state().pendingCredits()).isEmpty();
    assertThat(ledger.balance(alice)).isEqualTo(60);
  }

  @Test
  void shouldRejectDuplicateAcknowledgement() {
    // given
    long transfer = ledger.transfer(alice, carol, 40);
    ledger.runUntilIdle();
    CreditValue credit = new CreditValue(LedgerKeys.of(1, transfer), carol, 40, 1, 2);
    ledger.writeCredit(CreditIntent.ACK, credit, -1);
    ledger.runUntilIdle();

    // when
    long duplicate = ledger.writeCredit(CreditIntent.ACK, credit, -1);
    ledger.runUntilIdle();

    // then
    Record rejection = ledger.rejectionOf(duplicate);
    assertThat(rejection.metadata().rejectionType()).isEqualTo(RejectionType.NOT_FOUND);
    assertThat(rejection.metadata().rejectionReason())
        .isEqualTo(
            "Expected a pending credit with transferKey "
                + credit.transferKey()
                + ", but partition 1 has none (CREDIT ACK of transfer key "
                + credit.transferKey()
                + "; acknowledged already)");
  }

  @Test
  void shouldRejectAcknowledgementThatDoesNotMatchThePendingCredit() {
    // given
    long transfer = ledger.transfer(alice, carol, 40);
    ledger.runUntilIdle();
    long key = LedgerKeys.of(1, transfer);

    // when
    long position = ledger.writeCredit(CreditIntent.ACK, new CreditValue(key, carol, 41, 1, 2), -1);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(position).metadata().rejectionType())
        .isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(ledger.rejectionOf(position).metadata().rejectionReason())
        .isEqualTo(
            "Expected the ACK to match the pending credit (toAccountId '"
                + carol
                + "', amount 40, targetPartitionId 2), but it has toAccountId '"
                + carol
                + "', amount 41, targetPartitionId 2 (CREDIT ACK of transfer key "
                + key
                + ")");
    assertThat(ledger.state().pendingCredits()).hasSize(1);
  }

  @Test
  void shouldRejectAcknowledgementForAnotherSource() {
    // when
    long position =
        ledger.writeCredit(
            CreditIntent.ACK, new CreditValue(LedgerKeys.of(2, 9), carol, 4, 2, 3), -1);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(position).metadata().rejectionReason())
        .isEqualTo(
            "Expected sourcePartitionId 1, but was 2 (CREDIT ACK of transfer key "
                + LedgerKeys.of(2, 9)
                + ")");
  }

  // ---- REFUND (this partition is the source) ----------------------------------------------------

  @Test
  void shouldCreditTheSourceBackAndEndThePendingCreditWhenRefunded() {
    // given
    long transfer = ledger.transfer(alice, carol, 40);
    ledger.runUntilIdle();
    long key = LedgerKeys.of(1, transfer);
    assertThat(ledger.balance(alice)).isEqualTo(60);

    // when
    long position =
        ledger.writeCredit(CreditIntent.REFUND, new CreditValue(key, carol, 40, 1, 2), 3);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.followUps(position))
        .extracting(
            r -> r.metadata().recordType(), r -> r.metadata().intent(), r -> r.metadata().key())
        .containsExactly(tuple(RecordType.EVENT, TransferIntent.REFUNDED, key));
    assertThat(ledger.followUps(position).get(0).value())
        .isEqualTo(new TransferValue(alice, carol, 40, 1, 2));
    assertThat(ledger.balance(alice)).isEqualTo(100);
    assertThat(ledger.state().pendingCredits()).isEmpty();

    // and the credit is no longer re-sent
    ledger.run(Duration.ofSeconds(10));
    assertThat(ledger.sender().sent())
        .extracting(s -> s.command().metadata().intent())
        .containsExactly(CreditIntent.APPLY);
  }

  @Test
  void shouldRefundOnceAndRejectDuplicateRefundOrRefundAfterAcknowledgement() {
    // given one credit refunded and one acknowledged
    long refunded = LedgerKeys.of(1, ledger.transfer(alice, carol, 40));
    long acknowledged = LedgerKeys.of(1, ledger.transfer(alice, carol, 7));
    ledger.runUntilIdle();
    CreditValue refund = new CreditValue(refunded, carol, 40, 1, 2);
    ledger.writeCredit(CreditIntent.REFUND, refund, -1);
    ledger.writeCredit(CreditIntent.ACK, new CreditValue(acknowledged, carol, 7, 1, 2), -1);
    ledger.runUntilIdle();

    // when
    long duplicate = ledger.writeCredit(CreditIntent.REFUND, refund, -1);
    long afterAck =
        ledger.writeCredit(CreditIntent.REFUND, new CreditValue(acknowledged, carol, 7, 1, 2), -1);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(duplicate).metadata().rejectionType())
        .isEqualTo(RejectionType.NOT_FOUND);
    assertThat(ledger.rejectionOf(duplicate).metadata().rejectionReason())
        .isEqualTo(
            "Expected a pending credit with transferKey "
                + refunded
                + ", but partition 1 has none (CREDIT REFUND of transfer key "
                + refunded
                + "; refunded already)");
    assertThat(ledger.rejectionOf(afterAck).metadata().rejectionType())
        .isEqualTo(RejectionType.NOT_FOUND);
    assertThat(ledger.balance(alice)).isEqualTo(93);
  }

  @Test
  void shouldRejectRefundThatDoesNotMatchThePendingCreditOrComesForAnotherSource() {
    // given
    long key = LedgerKeys.of(1, ledger.transfer(alice, carol, 40));
    ledger.runUntilIdle();

    // when
    long mismatch =
        ledger.writeCredit(CreditIntent.REFUND, new CreditValue(key, carol, 41, 1, 2), -1);
    long otherSource =
        ledger.writeCredit(
            CreditIntent.REFUND, new CreditValue(LedgerKeys.of(2, 9), carol, 4, 2, 3), -1);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(mismatch).metadata().rejectionReason())
        .isEqualTo(
            "Expected the REFUND to match the pending credit (toAccountId '"
                + carol
                + "', amount 40, targetPartitionId 2), but it has toAccountId '"
                + carol
                + "', amount 41, targetPartitionId 2 (CREDIT REFUND of transfer key "
                + key
                + ")");
    assertThat(ledger.rejectionOf(otherSource).metadata().rejectionReason())
        .isEqualTo(
            "Expected sourcePartitionId 1, but was 2 (CREDIT REFUND of transfer key "
                + LedgerKeys.of(2, 9)
                + ")");
    assertThat(ledger.state().pendingCredits()).hasSize(1);
    assertThat(ledger.balance(alice)).isEqualTo(60);
  }

  @Test
  void shouldKeepCreditPendingWhenTheRefundWouldOverflowTheSource() {
    // given alice at the maximum balance after debiting 40
    long key = LedgerKeys.of(1, ledger.transfer(alice, carol, 40));
    ledger.deposit(alice, Long.MAX_VALUE - 60);
    ledger.runUntilIdle();

    // when
    long position =
        ledger.writeCredit(CreditIntent.REFUND, new CreditValue(key, carol, 40, 1, 2), -1);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(position).metadata().rejectionType())
        .isEqualTo(RejectionType.INVALID_STATE);
    assertThat(ledger.rejectionOf(position).metadata().rejectionReason())
        .startsWith(
            "Expected balance of fromAccountId '" + alice + "' plus amount 40 to be at most");
    assertThat(ledger.state().pendingCredits()).hasSize(1);
    assertThat(ledger.balance(alice)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void shouldKeepPendingCreditOfFormatVersionOneWhenRefunded() {
    // given a pending credit stored by format version 1 (no from account id)
    long key = LedgerKeys.of(1, 3);
    byte[] v1 = versionOnePendingCredit(key, carol, 40, 1, 2);
    ledger
        .kit()
        .db()
        .columnFamily(LedgerColumnFamily.LEDGER_PENDING_CREDITS, DbCodecs.LONG, DbCodecs.BYTES)
        .put(key, v1);

    // when
    long position =
        ledger.writeCredit(CreditIntent.REFUND, new CreditValue(key, carol, 40, 1, 2), -1);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(position).metadata().rejectionType())
        .isEqualTo(RejectionType.INVALID_STATE);
    assertThat(ledger.rejectionOf(position).metadata().rejectionReason())
        .isEqualTo(
            "Expected the pending credit to name its fromAccountId, but it was stored before"
                + " refunds existed (pending credit format version 1) (CREDIT REFUND of transfer"
                + " key "
                + key
                + "; the credit stays pending)");
    assertThat(ledger.state().pendingCredits()).hasSize(1);
    assertThat(ledger.balance(alice)).isEqualTo(100);
  }

  private static byte[] versionOnePendingCredit(
      long key, String to, long amount, int source, int target) {
    byte[] id = to.getBytes(StandardCharsets.UTF_8);
    ByteBuffer buffer = ByteBuffer.allocate(33 + id.length);
    buffer.put((byte) 1).putLong(key).putLong(amount).putLong(-1).putInt(source).putInt(target);
    buffer.put(id);
    return buffer.array();
  }
}
