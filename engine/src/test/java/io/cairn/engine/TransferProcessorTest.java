package io.cairn.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.cairn.protocol.CreditIntent;
import io.cairn.protocol.CreditValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RejectionType;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransferProcessorTest {

  @TempDir Path directory;
  private LedgerKit ledger;
  private String alice;
  private String bob;
  private String carol;

  @BeforeEach
  void setUp() {
    ledger = new LedgerKit(directory, 3);
    ledger.startLeader();
    alice = ledger.localId("alice");
    bob = ledger.localId("bob");
    carol = ledger.idOn(2, "carol");
    ledger.open(100, alice, bob);
  }

  @AfterEach
  void tearDown() {
    ledger.close();
  }

  @Test
  void shouldCompleteSamePartitionTransferInOneCommand() {
    // when
    long position = ledger.transfer(alice, bob, 30);
    ledger.runUntilIdle();

    // then
    long key = LedgerKeys.of(1, position);
    TransferValue expected = new TransferValue(alice, bob, 30, 1, 1);
    assertThat(ledger.followUps(position))
        .extracting(r -> r.metadata().intent(), r -> r.metadata().key(), Record::value)
        .containsExactly(
            tuple(TransferIntent.DEBITED, key, expected),
            tuple(TransferIntent.COMPLETED, key, expected));
    assertThat(ledger.balance(alice)).isEqualTo(70);
    assertThat(ledger.balance(bob)).isEqualTo(130);
    assertThat(ledger.state().pendingCredits()).isEmpty();
    assertThat(ledger.sender().sent()).isEmpty();
    assertThat(ledger.kit().responseTo(ledger.kit().lastRequestId()))
        .hasValueSatisfying(
            r -> assertThat(r.record().metadata().intent()).isEqualTo(TransferIntent.COMPLETED));
  }

  @Test
  void shouldDebitAndKeepPendingCreditForCrossPartitionTransfer() {
    // given
    ledger.checkpointId(7);

    // when
    long position = ledger.transfer(alice, carol, 40);
    ledger.runUntilIdle();

    // then
    long key = LedgerKeys.of(1, position);
    assertThat(ledger.followUps(position))
        .extracting(r -> r.metadata().intent())
        .containsExactly(TransferIntent.DEBITED);
    assertThat(ledger.followUps(position).get(0).value())
        .isEqualTo(new TransferValue(alice, carol, 40, 1, 2));
    assertThat(ledger.balance(alice)).isEqualTo(60);
    assertThat(ledger.state().pendingCredits())
        .containsExactly(new PendingCredit(key, carol, 40, 1, 2, 7, alice));
    assertThat(ledger.kit().responseTo(ledger.kit().lastRequestId()))
        .hasValueSatisfying(
            r -> assertThat(r.record().metadata().intent()).isEqualTo(TransferIntent.DEBITED));
  }

  @Test
  void shouldSendCreditApplyWithCheckpointIdOnlyAfterTheDebitIsCommitted() {
    // given
    ledger.checkpointId(3);
    ledger.kit().logStream().holdCommits();
    long position = ledger.transfer(alice, carol, 40);
    ledger.kit().logStream().commitUpTo(position); // the command, not its follow-ups

    // when
    ledger.runUntilIdle();

    // then nothing leaves the partition while DEBITED may still be lost
    assertThat(ledger.state().pendingCredits()).hasSize(1);
    assertThat(ledger.sender().sent()).isEmpty();

    // when
    ledger.kit().logStream().commitAll();
    ledger.runUntilIdle();

    // then
    long key = LedgerKeys.of(1, position);
    assertThat(ledger.sender().sent()).hasSize(1);
    RecordingInterPartitionSender.Sent sent = ledger.sender().sent().get(0);
    assertThat(sent.targetPartitionId()).isEqualTo(2);
    assertThat(sent.checkpointId()).isEqualTo(3);
    assertThat(sent.command().metadata().intent()).isEqualTo(CreditIntent.APPLY);
    assertThat(sent.command().metadata().key()).isEqualTo(key);
    assertThat(sent.command().metadata().checkpointId()).isEqualTo(3);
    assertThat(sent.command().value()).isEqualTo(new CreditValue(key, carol, 40, 1, 2));
  }

  @Test
  void shouldRejectTransferBeyondTheBalance() {
    // when
    long position = ledger.transfer(alice, bob, 101);
    ledger.runUntilIdle();

    // then
    Record rejection = ledger.rejectionOf(position);
    assertThat(rejection.metadata().rejectionType()).isEqualTo(RejectionType.INSUFFICIENT_FUNDS);
    assertThat(rejection.metadata().rejectionReason())
        .isEqualTo(
            "Expected balance of fromAccountId '"
                + alice
                + "' >= amount 101, but the balance is 100 (TRANSFER CREATE)");
    assertThat(ledger.balance(alice)).isEqualTo(100);
    assertThat(ledger.balance(bob)).isEqualTo(100);
  }

  @Test
  void shouldRejectTransferFromUnknownAccount() {
    // given
    String ghost = ledger.localId("ghost");

    // when
    long position = ledger.transfer(ghost, bob, 1);
    ledger.runUntilIdle();

    // then
    Record rejection = ledger.rejectionOf(position);
    assertThat(rejection.metadata().rejectionType()).isEqualTo(RejectionType.NOT_FOUND);
    assertThat(rejection.metadata().rejectionReason())
        .isEqualTo(
            "Expected fromAccountId '"
                + ghost
                + "' to exist, but partition 1 has no such account (TRANSFER CREATE)");
  }

  @Test
  void shouldRejectSamePartitionTransferToUnknownAccount() {
    // given
    String ghost = ledger.localId("ghost");

    // when
    long position = ledger.transfer(alice, ghost, 1);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(position).metadata().rejectionType())
        .isEqualTo(RejectionType.NOT_FOUND);
    assertThat(ledger.rejectionOf(position).metadata().rejectionReason())
        .isEqualTo(
            "Expected toAccountId '"
                + ghost
                + "' to exist, but partition 1 has no such account (TRANSFER CREATE)");
    assertThat(ledger.balance(alice)).isEqualTo(100);
  }

  @Test
  void shouldRejectSelfTransfer() {
    // when
    long position = ledger.transfer(alice, alice, 5);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(position).metadata().rejectionType())
        .isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(ledger.rejectionOf(position).metadata().rejectionReason())
        .isEqualTo(
            "Expected fromAccountId and toAccountId to differ, but both are '"
                + alice
                + "' (TRANSFER CREATE)");
  }

  @Test
  void shouldRejectNonPositiveAmountAndInvalidIdsTogether() {
    // when
    long position = ledger.transfer(alice, "bob ", 0);
    ledger.runUntilIdle();

    // then
    String reason = ledger.rejectionOf(position).metadata().rejectionReason();
    assertThat(reason)
        .startsWith("Expected toAccountId of 1 to 128 UTF-8 bytes")
        .contains("but was 'bob ' (TRANSFER CREATE)")
        .contains(
            "; Expected amount > 0, but was 0 (TRANSFER CREATE from '" + alice + "' to 'bob ')");
  }

  @Test
  void shouldRejectTransferFromAccountOfAnotherPartition() {
    // when
    long position = ledger.transfer(carol, alice, 5);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(position).metadata().rejectionType())
        .isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(ledger.rejectionOf(position).metadata().rejectionReason())
        .isEqualTo(
            "Expected fromAccountId '"
                + carol
                + "' to belong to partition 1, but it belongs to partition 2 of 3 (TRANSFER CREATE;"
                + " send the command to partition 2)");
  }

  @Test
  void shouldRejectPartitionIdsThatContradictPlacement() {
    // when
    long position =
        ledger.kit().writeCommand(TransferIntent.CREATE, new TransferValue(alice, carol, 5, 1, 3));
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(position).metadata().rejectionReason())
        .isEqualTo(
            "Expected targetPartitionId -1 (set by the engine) or 2, but was 3 (TRANSFER CREATE)");
    assertThat(ledger.balance(alice)).isEqualTo(100);
  }

  @Test
  void shouldRejectSamePartitionTransferThatOverflowsTheTarget() {
    // given
    ledger.deposit(bob, Long.MAX_VALUE - 100);
    ledger.runUntilIdle();

    // when
    long position = ledger.transfer(alice, bob, 1);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(position).metadata().rejectionType())
        .isEqualTo(RejectionType.INVALID_STATE);
    assertThat(ledger.rejectionOf(position).metadata().rejectionReason())
        .isEqualTo(
            "Expected balance of toAccountId '"
                + bob
                + "' plus amount 1 to be at most 9223372036854775807, but the balance is "
                + Long.MAX_VALUE
                + " (TRANSFER CREATE)");
    assertThat(ledger.balance(alice)).isEqualTo(100);
  }
}
