package io.cairn.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.gateway.v1.CreateAccountRequest;
import io.cairn.gateway.v1.CreateAccountResponse;
import io.cairn.gateway.v1.DepositRequest;
import io.cairn.gateway.v1.GetAccountRequest;
import io.cairn.gateway.v1.TransferRequest;
import io.cairn.gateway.v1.TransferResponse;
import io.cairn.protocol.RejectionType;
import io.cairn.protocol.api.AccountPlacement;
import io.cairn.protocol.api.ApiDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The ledger API over real gRPC, routed to fake brokers over the real transport. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class LedgerApiTest {
  private GatewayHarness harness;
  private final AccountPlacement placement = new AccountPlacement(3);

  @BeforeAll
  void start() {
    harness = new GatewayHarness().awaitReady();
  }

  @AfterAll
  void stop() {
    harness.close();
  }

  @BeforeEach
  void reset() {
    harness.reset();
  }

  @Test
  void shouldRouteEveryAccountToTheLeaderOfItsPartition() {
    for (int i = 0; i < 12; i++) {
      String account = "account-" + i;
      int partition = placement.partitionOf(account);
      int leader = (partition - 1) % 2;
      int before = harness.broker(leader).requests(ApiDescriptor.TYPE_COMMAND);

      CreateAccountResponse created =
          harness.ledger.createAccount(
              CreateAccountRequest.newBuilder().setAccountId(account).build());

      assertThat(created.getPartitionId()).isEqualTo(partition);
      assertThat(created.getPosition()).isPositive();
      assertThat(harness.broker(leader).requests(ApiDescriptor.TYPE_COMMAND)).isEqualTo(before + 1);
      assertThat(harness.cluster.balance(partition, account)).isZero();
    }
    assertThat(harness.invalidRequests()).isZero();
  }

  @Test
  void shouldDepositTransferAndReadBalances() {
    String alice = accountOn(1, "alice");
    String bob = accountOn(2, "bob");
    String carol = accountOn(1, "carol");
    for (String account : new String[] {alice, bob, carol}) {
      harness.ledger.createAccount(CreateAccountRequest.newBuilder().setAccountId(account).build());
    }

    var deposit =
        harness.ledger.deposit(
            DepositRequest.newBuilder().setAccountId(alice).setAmount(100).build());
    TransferResponse crossPartition =
        harness.ledger.transfer(
            TransferRequest.newBuilder()
                .setFromAccountId(alice)
                .setToAccountId(bob)
                .setAmount(30)
                .build());
    TransferResponse samePartition =
        harness.ledger.transfer(
            TransferRequest.newBuilder()
                .setFromAccountId(alice)
                .setToAccountId(carol)
                .setAmount(20)
                .build());

    assertThat(deposit.getAmount()).isEqualTo(100);
    assertThat(deposit.getPartitionId()).isEqualTo(1);
    assertThat(crossPartition.getCompleted()).isFalse();
    assertThat(crossPartition.getSourcePartitionId()).isEqualTo(1);
    assertThat(crossPartition.getTargetPartitionId()).isEqualTo(2);
    assertThat(crossPartition.getTransferKey()).isPositive();
    assertThat(samePartition.getCompleted()).isTrue();
    assertThat(balance(alice)).isEqualTo(50);
    assertThat(balance(bob)).isEqualTo(30);
    assertThat(balance(carol)).isEqualTo(20);
    assertThat(
            harness
                .ledger
                .getAccount(GetAccountRequest.newBuilder().setAccountId(bob).build())
                .getPartitionId())
        .isEqualTo(2);
  }

  @Test
  void shouldMapAnExistingAccountToAlreadyExistsWithTheEnginesReason() {
    CreateAccountRequest create = CreateAccountRequest.newBuilder().setAccountId("dup").build();
    harness.ledger.createAccount(create);

    assertThatThrownBy(() -> harness.ledger.createAccount(create))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.ALREADY_EXISTS);
              assertThat(e.getStatus().getDescription())
                  .isEqualTo(
                      "ALREADY_EXISTS: Expected a new account id, but 'dup' exists"
                          + " (ACCOUNT CREATE)");
            });
  }

  @Test
  void shouldMapUnknownAccountsToNotFound() {
    assertStatus(
        () ->
            harness.ledger.deposit(
                DepositRequest.newBuilder().setAccountId("ghost").setAmount(5).build()),
        Status.Code.NOT_FOUND,
        "NOT_FOUND: Expected an existing account, but 'ghost'");
    assertStatus(
        () ->
            harness.ledger.getAccount(GetAccountRequest.newBuilder().setAccountId("ghost").build()),
        Status.Code.NOT_FOUND,
        "Expected an existing account, but 'ghost' does not exist on partition "
            + placement.partitionOf("ghost"));
  }

  @Test
  void shouldMapInsufficientFundsToFailedPreconditionAndChangeNothing() {
    String alice = accountOn(1, "poor");
    String bob = accountOn(2, "rich");
    harness.ledger.createAccount(CreateAccountRequest.newBuilder().setAccountId(alice).build());
    harness.ledger.createAccount(CreateAccountRequest.newBuilder().setAccountId(bob).build());
    harness.ledger.deposit(DepositRequest.newBuilder().setAccountId(alice).setAmount(10).build());

    assertStatus(
        () ->
            harness.ledger.transfer(
                TransferRequest.newBuilder()
                    .setFromAccountId(alice)
                    .setToAccountId(bob)
                    .setAmount(11)
                    .build()),
        Status.Code.FAILED_PRECONDITION,
        "INSUFFICIENT_FUNDS: Expected balance of fromAccountId '"
            + alice
            + "' >= amount 11, but the balance is 10");
    assertThat(balance(alice)).isEqualTo(10);
    assertThat(balance(bob)).isZero();
  }

  @ParameterizedTest
  @CsvSource({
    "INVALID_ARGUMENT, INVALID_ARGUMENT",
    "NOT_FOUND, NOT_FOUND",
    "ALREADY_EXISTS, ALREADY_EXISTS",
    "INSUFFICIENT_FUNDS, FAILED_PRECONDITION",
    "INVALID_STATE, FAILED_PRECONDITION",
    "PROCESSING_ERROR, INTERNAL"
  })
  void shouldMapEveryRejectionTypeToItsStatusCode(RejectionType rejection, Status.Code expected) {
    harness
        .broker((placement.partitionOf("someone") - 1) % 2)
        .rejectNext(rejection, "the engine says no");

    assertStatus(
        () ->
            harness.ledger.createAccount(
                CreateAccountRequest.newBuilder().setAccountId("someone").build()),
        expected,
        rejection + ": the engine says no");
  }

  private String accountOn(int partition, String prefix) {
    for (int i = 0; ; i++) {
      if (placement.partitionOf(prefix + i) == partition) {
        return prefix + i;
      }
    }
  }

  private long balance(String account) {
    return harness
        .ledger
        .getAccount(GetAccountRequest.newBuilder().setAccountId(account).build())
        .getBalance();
  }

  static void assertStatus(Runnable call, Status.Code code, String descriptionPart) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).as(e.getStatus().toString()).isEqualTo(code);
              assertThat(e.getStatus().getDescription()).contains(descriptionPart);
            });
  }
}
