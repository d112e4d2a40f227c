package io.cairn.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.protocol.CreditIntent;
import io.cairn.protocol.CreditValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.RejectionType;
import java.nio.file.Path;
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
    final CreditValue credit = new CreditValue(LedgerKeys.of(2, 17), alice, 25, 2, 1);
    ledger.checkpointId(9);

    // when
    final long position = ledger.writeCredit(CreditIntent.APPLY, credit, 4);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.followUps(position))
        .extracting(r -> r.metadata().intent())
        .containsExactly(CreditIntent.APPLIED);
    assertThat(ledger.followUps(position).get(0).metadata().key()).isEqualTo(credit.transferKey());
    assertThat(ledger.balance(alice)).isEqualTo(125);
    assertThat(ledger.state().isCreditApplied(credit.transferKey())).isTrue();
    assertThat(ledger.sender().sent()).hasSize(1);
    final RecordingInterPartitionSender.Sent ack = ledger.sender().sent().get(0);
    assertThat(ack.targetPartitionId()).isEqualTo(2);
    assertThat(ack.checkpointId()).isEqualTo(9);
    assertThat(ack.command().metadata().intent()).isEqualTo(CreditIntent.ACK);
    assertThat(ack.command().metadata().recordType()).isEqualTo(RecordType.COMMAND);
    assertThat(ack.command().value()).isEqualTo(credit);
  }

  @Test
  void shouldIgnoreDuplicateCreditAndAcknowledgeAgain() {
    // given
    final CreditValue credit = new CreditValue(LedgerKeys.of(2, 17), alice, 25, 2, 1);
    ledger.writeCredit(CreditIntent.APPLY, credit, -1);
    ledger.runUntilIdle();

    // when
    final long duplicate = ledger.writeCredit(CreditIntent.APPLY, credit, -1);
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
  void shouldRejectCreditToUnknownAccountWithoutAcknowledging() {
    // given
    final String ghost = ledger.localId("ghost");
    final CreditValue credit = new CreditValue(LedgerKeys.of(3, 5), ghost, 25, 3, 1);

    // when
    final long position = ledger.writeCredit(CreditIntent.APPLY, credit, -1);
    ledger.runUntilIdle();

    // then
    final Record rejection = ledger.rejectionOf(position);
    assertThat(rejection.metadata().rejectionType()).isEqualTo(RejectionType.NOT_FOUND);
    assertThat(rejection.metadata().rejectionReason())
        .isEqualTo(
            "Expected toAccountId '"
                + ghost
                + "' to exist, but partition 1 has no such account (CREDIT APPLY of transfer key "
                + credit.transferKey()
                + "; the source keeps the credit pending and sends it again)");
    assertThat(ledger.state().isCreditApplied(credit.transferKey())).isFalse();
    assertThat(ledger.sender().sent()).isEmpty();
  }

  @Test
  void shouldApplyParkedCreditOnceTheAccountExists() {
    // given a credit rejected because its account did not exist yet
    final String dave = ledger.localId("dave");
    final CreditValue credit = new CreditValue(LedgerKeys.of(3, 5), dave, 25, 3, 1);
    ledger.writeCredit(CreditIntent.APPLY, credit, -1);
    ledger.runUntilIdle();

    // when the account is opened and the source re-sends
    ledger.open(0, dave);
    ledger.writeCredit(CreditIntent.APPLY, credit, -1);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.balance(dave)).isEqualTo(25);
    assertThat(ledger.sender().sent()).hasSize(1);
  }

  @Test
  void shouldRejectCreditAddressedToAnotherPartition() {
    // given
    final CreditValue credit = new CreditValue(LedgerKeys.of(2, 5), alice, 25, 2, 3);

    // when
    final long position = ledger.writeCredit(CreditIntent.APPLY, credit, -1);
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
    final CreditValue credit = new CreditValue(LedgerKeys.of(3, 5), alice, 25, 2, 1);

    // when
    final long position = ledger.writeCredit(CreditIntent.APPLY, credit, -1);
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
    final long self =
        ledger.writeCredit(CreditIntent.APPLY, new CreditValue(LedgerKeys.of(1, 5), alice, 1, 1, 1), -1);
    final long zero =
        ledger.writeCredit(CreditIntent.APPLY, new CreditValue(LedgerKeys.of(2, 5), alice, 0, 2, 1), -1);
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
    final CreditValue credit = new CreditValue(LedgerKeys.of(2, 5), alice, 1, 2, 1);

    // when
    final long position = ledger.writeCredit(CreditIntent.APPLY, credit, -1);
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
    final CreditValue credit = new CreditValue(LedgerKeys.of(2, 5), alice, 10, 2, 1);
    ledger.writeCredit(CreditIntent.APPLY, credit, -1);
    ledger.runUntilIdle();

    // when
    final long position =
        ledger.writeCredit(CreditIntent.APPLY, new CreditValue(credit.transferKey(), alice, 11, 2, 1), -1);
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
    final long transfer = ledger.transfer(alice, carol, 40);
    ledger.runUntilIdle();
    final long key = LedgerKeys.of(1, transfer);
    final CreditValue credit = new CreditValue(key, carol, 40, 1, 2);

    // when
    final long position = ledger.writeCredit(CreditIntent.ACK, credit, -1);
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
    final long transfer = ledger.transfer(alice, carol, 40);
    ledger.runUntilIdle();
    final CreditValue credit = new CreditValue(LedgerKeys.of(1, transfer), carol, 40, 1, 2);
    ledger.writeCredit(CreditIntent.ACK, credit, -1);
    ledger.runUntilIdle();

    // when
    final long duplicate = ledger.writeCredit(CreditIntent.ACK, credit, -1);
    ledger.runUntilIdle();

    // then
    final Record rejection = ledger.rejectionOf(duplicate);
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
    final long transfer = ledger.transfer(alice, carol, 40);
    ledger.runUntilIdle();
    final long key = LedgerKeys.of(1, transfer);

    // when
    final long position = ledger.writeCredit(CreditIntent.ACK, new CreditValue(key, carol, 41, 1, 2), -1);
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
    final long position =
        ledger.writeCredit(CreditIntent.ACK, new CreditValue(LedgerKeys.of(2, 9), carol, 4, 2, 3), -1);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(position).metadata().rejectionReason())
        .isEqualTo(
            "Expected sourcePartitionId 1, but was 2 (CREDIT ACK of transfer key "
                + LedgerKeys.of(2, 9)
                + ")");
  }
}
