package io.cairn.client;

import static io.cairn.client.ClientAssertions.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.gateway.GatewayHarness;
import io.cairn.protocol.RejectionType;
import io.cairn.protocol.api.AccountPlacement;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.ResponseStatus;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The ledger calls over real gRPC to a real gateway, which routes them over the real transport to
 * the gateway module's fake brokers (three partitions; broker 0 leads 1 and 3, broker 1 leads 2).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class CairnClientLedgerTest {
  private final AccountPlacement placement = new AccountPlacement(3);
  private GatewayHarness harness;
  private CairnClient client;

  @BeforeAll
  void start() {
    harness = new GatewayHarness().awaitReady();
    client =
        CairnClient.builder()
            .gateway("127.0.0.1:" + harness.gateway.grpcAddress().getPort())
            .requestTimeout(Duration.ofSeconds(20))
            .build();
  }

  @AfterAll
  void stop() {
    client.close();
    harness.close();
  }

  @BeforeEach
  void reset() {
    harness.reset();
  }

  @Test
  void shouldCreateDepositTransferAndReadBalances() {
    String alice = accountOn(1, "alice");
    String bob = accountOn(2, "bob");
    String carol = accountOn(1, "carol");

    AccountCreated created = client.createAccount(alice);
    client.createAccount(bob);
    client.createAccount(carol);
    Deposited deposited = client.deposit(alice, 100);
    TransferAccepted crossPartition = client.transfer(alice, bob, 30);
    TransferAccepted samePartition = client.transfer(alice, carol, 20);

    assertThat(created.accountId()).isEqualTo(alice);
    assertThat(created.partitionId()).isEqualTo(1);
    assertThat(created.position()).isPositive();
    assertThat(deposited)
        .isEqualTo(new Deposited(alice, 100, 1, harness.cluster.nextPosition(1) - 3));
    assertThat(crossPartition.sourcePartitionId()).isEqualTo(1);
    assertThat(crossPartition.targetPartitionId()).isEqualTo(2);
    assertThat(crossPartition.completed()).isFalse();
    assertThat(crossPartition.transferKey()).isNotZero();
    assertThat(samePartition.completed()).isTrue();
    assertThat(client.getAccount(alice)).isEqualTo(new Account(alice, 50, 1));
    assertThat(client.getAccount(bob)).isEqualTo(new Account(bob, 30, 2));
    assertThat(client.getAccount(carol)).isEqualTo(new Account(carol, 20, 1));
    assertThat(harness.invalidRequests()).isZero();
  }

  @Test
  void shouldCompleteAsyncCallsWithTheSameResults() throws Exception {
    String dave = accountOn(3, "dave");

    AccountCreated created = client.createAccountAsync(dave).get(20, TimeUnit.SECONDS);
    client.depositAsync(dave, 7).get(20, TimeUnit.SECONDS);
    Account account = client.getAccountAsync(dave).get(20, TimeUnit.SECONDS);

    assertThat(created.partitionId()).isEqualTo(3);
    assertThat(account.balance()).isEqualTo(7);
    assertThat(harness.cluster.balance(3, dave)).isEqualTo(7);
  }

  @Test
  void shouldMapEngineRejectionsToErrorCodesWithTheEnginesReason() {
    String erin = accountOn(2, "erin");
    String frank = accountOn(3, "frank");
    client.createAccount(erin);
    client.createAccount(frank);

    assertFailure(
        () -> client.createAccount(erin), ErrorCode.ALREADY_EXISTS, "exists (ACCOUNT CREATE)");
    assertFailure(
        () -> client.deposit(accountOn(1, "nobody"), 5), ErrorCode.NOT_FOUND, "does not exist");
    assertFailure(
        () -> client.getAccount(accountOn(1, "nobody")), ErrorCode.NOT_FOUND, "does not exist");
    assertFailure(
        () -> client.transfer(erin, frank, 1),
        ErrorCode.FAILED_PRECONDITION,
        "but the balance is 0");
    harness.broker(0).rejectNext(RejectionType.INVALID_ARGUMENT, "engine says no");
    assertFailure(
        () -> client.createAccount(accountOn(1, "grace")),
        ErrorCode.INVALID_ARGUMENT,
        "engine says no");
  }

  @Test
  void shouldRefuseBadArgumentsWithoutSendingAnything() {
    int before = harness.commandsReceived();

    assertFailure(
        () -> client.createAccount(""),
        ErrorCode.INVALID_ARGUMENT,
        "Expected accountId of 1 to 128 UTF-8 bytes without control characters and without"
            + " leading or trailing whitespace, but was '' (0 bytes) (CreateAccount)");
    assertFailure(
        () -> client.deposit("alice", 0),
        ErrorCode.INVALID_ARGUMENT,
        "Expected amount > 0, but was 0 (Deposit)");
    assertFailure(
        () -> client.transfer(" a", "b\n", -1),
        ErrorCode.INVALID_ARGUMENT,
        "Expected fromAccountId of 1 to 128 UTF-8 bytes without control characters and without"
            + " leading or trailing whitespace, but was ' a' (2 bytes) (Transfer); Expected"
            + " toAccountId of 1 to 128 UTF-8 bytes without control characters and without"
            + " leading or trailing whitespace, but was 'b\\u000a' (2 bytes) (Transfer);"
            + " Expected amount > 0, but was -1 (Transfer)");
    assertFailure(
        () -> client.transfer("a", "a", 1),
        ErrorCode.INVALID_ARGUMENT,
        "Expected fromAccountId and toAccountId to differ, but both are 'a' (Transfer)");
    assertFailure(
        () -> client.getAccount("x".repeat(129)),
        ErrorCode.INVALID_ARGUMENT,
        "(129 bytes) (GetAccount)");
    CompletableFuture<Deposited> async = client.depositAsync(null, 1);
    assertThat(async).isCompletedExceptionally();
    assertThatThrownBy(async::get)
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(CairnClientException.class)
        .hasMessageContaining("but was missing (Deposit)");

    assertThat(harness.commandsReceived()).isEqualTo(before);
  }

  @Test
  void shouldReportBackpressureAfterTheRetriesAndOtherFailuresAtOnce() {
    String heidi = accountOn(1, "heidi");
    harness.broker(0).failCommands(1, ApiResponse.failure(ResponseStatus.BACKPRESSURE, "full"));
    int before = harness.commandsReceived();
    assertFailure(
        () -> client.createAccount(heidi),
        ErrorCode.RESOURCE_EXHAUSTED,
        "the gateway answered RESOURCE_EXHAUSTED to every attempt (10 made) and no attempt is"
            + " left (maxAttempts 10); last: BACKPRESSURE from broker 0 (CreateAccount on"
            + " partition 1): full");
    assertThat(harness.commandsReceived() - before).isEqualTo(10);

    harness
        .broker(0)
        .failCommands(1, ApiResponse.failure(ResponseStatus.INTERNAL_ERROR, "disk on fire"));
    int beforeInternal = harness.commandsReceived();
    assertFailure(() -> client.createAccount(heidi), ErrorCode.INTERNAL, "disk on fire");
    assertThat(harness.commandsReceived() - beforeInternal).isEqualTo(1);
  }

  @Test
  void shouldFailWithDeadlineExceededWhenNoAnswerComesInTime() {
    harness.broker(0).hang(ApiDescriptor.TYPE_COMMAND);
    try (CairnClient quick =
        CairnClient.builder()
            .gateway("127.0.0.1:" + harness.gateway.grpcAddress().getPort())
            .requestTimeout(Duration.ofMillis(300))
            .build()) {

      assertFailure(
          () -> quick.createAccount(accountOn(1, "ivan")),
          ErrorCode.DEADLINE_EXCEEDED,
          "within 300 ms, but none came");
    }
  }

  @Test
  void shouldFailWithUnavailableWhenNoGatewayListens() throws Exception {
    int freePort;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      freePort = socket.getLocalPort();
    }
    try (CairnClient nowhere =
        CairnClient.builder()
            .gateway("127.0.0.1:" + freePort)
            .requestTimeout(Duration.ofSeconds(5))
            .build()) {

      assertFailure(
          () -> nowhere.getAccount("alice"),
          ErrorCode.UNAVAILABLE,
          "Expected the gateway at 127.0.0.1:" + freePort + " to answer GetAccount, but");
    }
  }

  @Test
  void shouldRefuseCallsAfterClose() {
    CairnClient closed =
        CairnClient.builder()
            .gateway("127.0.0.1:" + harness.gateway.grpcAddress().getPort())
            .build();
    closed.close();

    assertThatThrownBy(() -> closed.getAccount("alice"))
        .isInstanceOf(CairnClientException.class)
        .satisfies(
            e -> assertThat(((CairnClientException) e).code()).isEqualTo(ErrorCode.UNAVAILABLE));
  }

  /** The first of name-0, name-1, ... that is placed on {@code partition}. */
  private String accountOn(int partition, String name) {
    for (int i = 0; ; i++) {
      String id = name + "-" + i;
      if (placement.partitionOf(id) == partition) {
        return id;
      }
    }
  }
}
