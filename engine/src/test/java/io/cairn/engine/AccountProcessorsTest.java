package io.cairn.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordType;
import io.cairn.protocol.RejectionType;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccountProcessorsTest {

  @TempDir Path directory;
  private LedgerKit ledger;
  private String alice;

  @BeforeEach
  void setUp() {
    ledger = new LedgerKit(directory, 3);
    ledger.startLeader();
    alice = ledger.localId("alice");
  }

  @AfterEach
  void tearDown() {
    ledger.close();
  }

  @Test
  void shouldCreateAccountWithZeroBalanceAndKeyOfItsPosition() {
    // when
    long position = ledger.createAccount(alice);
    ledger.runUntilIdle();

    // then
    Record created = ledger.followUps(position).get(0);
    assertThat(created.metadata().intent()).isEqualTo(AccountIntent.CREATED);
    assertThat(created.value()).isEqualTo(new AccountValue(alice, 0));
    assertThat(LedgerKeys.partitionId(created.metadata().key())).isEqualTo(1);
    assertThat(LedgerKeys.position(created.metadata().key())).isEqualTo(position);
    assertThat(ledger.balance(alice)).isZero();
    assertThat(ledger.kit().responseTo(ledger.kit().lastRequestId()))
        .hasValueSatisfying(
            r -> assertThat(r.record().metadata().intent()).isEqualTo(AccountIntent.CREATED));
  }

  @Test
  void shouldRejectAccountThatExistsAlready() {
    // given
    ledger.open(50, alice);

    // when
    long position = ledger.createAccount(alice);
    ledger.runUntilIdle();

    // then
    Record rejection = ledger.rejectionOf(position);
    assertThat(rejection.metadata().rejectionType()).isEqualTo(RejectionType.ALREADY_EXISTS);
    assertThat(rejection.metadata().rejectionReason())
        .isEqualTo(
            "Expected accountId '"
                + alice
                + "' to be new, but the account exists already (ACCOUNT CREATE, partition 1)");
    assertThat(ledger.balance(alice)).isEqualTo(50);
    assertThat(ledger.kit().responseTo(ledger.kit().lastRequestId()))
        .hasValueSatisfying(
            r ->
                assertThat(r.record().metadata().rejectionType())
                    .isEqualTo(RejectionType.ALREADY_EXISTS));
  }

  @Test
  void shouldRejectAccountIdWithSurroundingWhitespaceOrControlCharacters() {
    // when
    long padded = ledger.createAccount(" bob");
    long control = ledger.createAccount("bo\u0001b");
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(padded).metadata().rejectionType())
        .isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(ledger.rejectionOf(padded).metadata().rejectionReason())
        .isEqualTo(
            "Expected accountId of 1 to 128 UTF-8 bytes without control characters and without"
                + " leading or trailing whitespace, but was ' bob' (ACCOUNT CREATE)");
    assertThat(ledger.rejectionOf(control).metadata().rejectionReason())
        .contains("but was 'bo\\u0001b'");
    assertThat(ledger.state().balances()).isEmpty();
  }

  @Test
  void shouldRejectAccountWithNonZeroOpeningBalance() {
    // when
    long position = ledger.kit().writeCommand(AccountIntent.CREATE, new AccountValue(alice, 7));
    ledger.runUntilIdle();

    // then
    Record rejection = ledger.rejectionOf(position);
    assertThat(rejection.metadata().rejectionType()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(rejection.metadata().rejectionReason())
        .isEqualTo(
            "Expected balance 0, but was 7 (ACCOUNT CREATE of account '"
                + alice
                + "'; accounts open empty, add money with DEPOSIT)");
    assertThat(ledger.state().balance(alice)).isEmpty();
  }

  @Test
  void shouldRejectAccountPlacedOnAnotherPartition() {
    // given
    String remote = ledger.idOn(3, "carol");

    // when
    long position = ledger.createAccount(remote);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(position).metadata().rejectionReason())
        .isEqualTo(
            "Expected accountId '"
                + remote
                + "' to belong to partition 1, but it belongs to partition 3 of 3 (ACCOUNT CREATE;"
                + " send the command to partition 3)");
  }

  @Test
  void shouldDepositOntoBalance() {
    // given
    ledger.open(0, alice);

    // when
    long first = ledger.deposit(alice, 30);
    ledger.deposit(alice, 12);
    ledger.runUntilIdle();

    // then
    Record deposited = ledger.followUps(first).get(0);
    assertThat(deposited.metadata().recordType()).isEqualTo(RecordType.EVENT);
    assertThat(deposited.metadata().intent()).isEqualTo(DepositIntent.DEPOSITED);
    assertThat(deposited.value()).isEqualTo(new DepositValue(alice, 30));
    assertThat(deposited.metadata().key()).isEqualTo(LedgerKeys.of(1, first));
    assertThat(ledger.balance(alice)).isEqualTo(42);
  }

  @Test
  void shouldRejectNonPositiveDepositAmounts() {
    // given
    ledger.open(5, alice);

    // when
    long zero = ledger.deposit(alice, 0);
    long negative = ledger.deposit(alice, -3);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(zero).metadata().rejectionType())
        .isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(ledger.rejectionOf(zero).metadata().rejectionReason())
        .isEqualTo("Expected amount > 0, but was 0 (DEPOSIT to account '" + alice + "')");
    assertThat(ledger.rejectionOf(negative).metadata().rejectionReason())
        .isEqualTo("Expected amount > 0, but was -3 (DEPOSIT to account '" + alice + "')");
    assertThat(ledger.balance(alice)).isEqualTo(5);
  }

  @Test
  void shouldListEveryViolationOfADeposit() {
    // when
    long position = ledger.deposit("x\n", -1);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(position).metadata().rejectionReason())
        .contains("Expected accountId of 1 to 128 UTF-8 bytes")
        .contains("but was 'x\\u000a'")
        .contains("; Expected amount > 0, but was -1");
  }

  @Test
  void shouldRejectDepositToUnknownAccount() {
    // when
    long position = ledger.deposit(alice, 10);
    ledger.runUntilIdle();

    // then
    Record rejection = ledger.rejectionOf(position);
    assertThat(rejection.metadata().rejectionType()).isEqualTo(RejectionType.NOT_FOUND);
    assertThat(rejection.metadata().rejectionReason())
        .isEqualTo(
            "Expected accountId '"
                + alice
                + "' to exist, but partition 1 has no such account (DEPOSIT)");
  }

  @Test
  void shouldRejectDepositThatOverflowsTheBalance() {
    // given
    ledger.open(Long.MAX_VALUE - 5, alice);

    // when
    long fits = ledger.deposit(alice, 5);
    long overflows = ledger.deposit(alice, 1);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.followUps(fits).get(0).metadata().intent())
        .isEqualTo(DepositIntent.DEPOSITED);
    Record rejection = ledger.rejectionOf(overflows);
    assertThat(rejection.metadata().rejectionType()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(rejection.metadata().rejectionReason())
        .isEqualTo(
            "Expected balance of accountId '"
                + alice
                + "' plus amount 1 to be at most 9223372036854775807, but the balance is"
                + " 9223372036854775807 (DEPOSIT)");
    assertThat(ledger.balance(alice)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void shouldRejectDepositToAccountOfAnotherPartition() {
    // given
    String remote = ledger.idOn(2, "bob");

    // when
    long position = ledger.deposit(remote, 10);
    ledger.runUntilIdle();

    // then
    assertThat(ledger.rejectionOf(position).metadata().rejectionType())
        .isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(ledger.rejectionOf(position).metadata().rejectionReason())
        .contains("to belong to partition 1, but it belongs to partition 2 of 3 (DEPOSIT;");
  }
}
