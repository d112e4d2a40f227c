package io.cairn.gateway;

import static io.cairn.gateway.LedgerApiTest.assertStatus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.gateway.v1.CreateAccountRequest;
import io.cairn.gateway.v1.DepositRequest;
import io.cairn.gateway.v1.GetAccountRequest;
import io.cairn.gateway.v1.LedgerServiceGrpc;
import io.cairn.protocol.api.AccountPlacement;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.ResponseStatus;
import io.grpc.Status;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Leader changes, bounded retries, deadlines and broker failure answers. The topology is refreshed
 * only on demand here (interval one minute), so a stale leader is really asked first.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class LedgerRoutingFaultTest {
  private static final int MAX_RETRIES = 3;

  /** Far longer than any wait here: a call that ends did not end by this timeout. */
  private static final Duration OWN_REQUEST_TIMEOUT = Duration.ofMinutes(5);

  private GatewayHarness harness;
  private String onPartition1;

  @BeforeAll
  void start() {
    harness =
        new GatewayHarness(
                3,
                2,
                config ->
                    config
                        .topologyRefreshInterval(Duration.ofMinutes(1))
                        .requestTimeout(OWN_REQUEST_TIMEOUT)
                        .maxRetries(MAX_RETRIES))
            .awaitReady();
    AccountPlacement placement = new AccountPlacement(3);
    for (int i = 0; ; i++) {
      if (placement.partitionOf("p1-" + i) == 1) {
        onPartition1 = "p1-" + i;
        break;
      }
    }
  }

  @AfterAll
  void stop() {
    harness.close();
  }

  @BeforeEach
  void reset() {
    harness.reset();
    harness.ledger.createAccount(
        CreateAccountRequest.newBuilder().setAccountId(onPartition1).build());
    harness.brokers.forEach(FakeBroker::heal);
  }

  @Test
  void shouldRefreshTheTopologyAndRetryAtTheNewLeaderAfterNotLeader() {
    // given the leadership of partition 1 moved from broker 0 to broker 1 unnoticed
    harness.broker(0).follow(1, 2);
    harness.broker(1).lead(1, 2);
    double retriesBefore = harness.counter(GatewayMetrics.RETRIES, "operation", "Deposit");

    // when
    harness.ledger.deposit(
        DepositRequest.newBuilder().setAccountId(onPartition1).setAmount(7).build());

    // then the stale leader said NOT_LEADER once and the new one applied the deposit
    assertThat(harness.broker(0).requests(ApiDescriptor.TYPE_COMMAND)).isEqualTo(1);
    assertThat(harness.broker(1).requests(ApiDescriptor.TYPE_COMMAND)).isEqualTo(1);
    assertThat(harness.cluster.balance(1, onPartition1)).isEqualTo(7);
    assertThat(harness.counter(GatewayMetrics.RETRIES, "operation", "Deposit"))
        .isGreaterThan(retriesBefore);
    assertThat(harness.gateway.topology().leaderOf(1)).hasValue(1);
  }

  @Test
  void shouldFollowTheLeaderNamedInNotLeader() {
    // given broker 0 still claims partition 1 (and wins the tie) but redirects to broker 1
    harness.broker(1).lead(1, 1);
    harness.refresh();
    harness.broker(0).failCommands(1, ApiResponse.notLeader(1, "leader is 1"));

    harness.ledger.deposit(
        DepositRequest.newBuilder().setAccountId(onPartition1).setAmount(3).build());

    assertThat(harness.broker(0).requests(ApiDescriptor.TYPE_COMMAND)).isEqualTo(1);
    assertThat(harness.broker(1).requests(ApiDescriptor.TYPE_COMMAND)).isEqualTo(1);
    assertThat(harness.cluster.balance(1, onPartition1)).isEqualTo(3);
  }

  @Test
  void shouldGiveUpAfterMaxRetriesWithUnavailable() {
    harness.broker(0).failCommands(1, ApiResponse.notLeader(-1, "stepping down"));

    assertStatus(
        () ->
            harness.ledger.deposit(
                DepositRequest.newBuilder().setAccountId(onPartition1).setAmount(3).build()),
        Status.Code.UNAVAILABLE,
        "Expected an answer from the leader of partition 1 (Deposit), but "
            + (MAX_RETRIES + 1)
            + " attempts failed; last: broker 0 is not the leader: stepping down");
    assertThat(harness.broker(0).requests(ApiDescriptor.TYPE_COMMAND)).isEqualTo(MAX_RETRIES + 1);
    assertThat(harness.cluster.balance(1, onPartition1)).isZero();
  }

  @Test
  void shouldAnswerUnavailableWhileNoLeaderIsKnown() {
    harness.broker(0).follow(1, 2);
    harness.refresh();

    assertStatus(
        () ->
            harness.ledger.getAccount(
                GetAccountRequest.newBuilder().setAccountId(onPartition1).build()),
        Status.Code.UNAVAILABLE,
        "last: no leader is known for partition 1");
    assertThat(harness.commandsReceived()).isZero();
  }

  @ParameterizedTest
  @CsvSource({
    "BACKPRESSURE, RESOURCE_EXHAUSTED, 1",
    "TIMEOUT, DEADLINE_EXCEEDED, 1",
    "INVALID, INVALID_ARGUMENT, 1",
    "CONFLICT, FAILED_PRECONDITION, 1",
    "UNAVAILABLE, UNAVAILABLE, 1",
    "INTERNAL_ERROR, INTERNAL, 1",
    "PARTITION_UNAVAILABLE, UNAVAILABLE, 4"
  })
  void shouldMapEveryBrokerFailureToAStatusAndRetryOnlyTransientOnes(
      ResponseStatus failure, Status.Code expected, int attempts) {
    harness.broker(0).failCommands(1, ApiResponse.failure(failure, "broker trouble"));

    assertStatus(
        () ->
            harness.ledger.deposit(
                DepositRequest.newBuilder().setAccountId(onPartition1).setAmount(3).build()),
        expected,
        "broker trouble");
    assertThat(harness.broker(0).requests(ApiDescriptor.TYPE_COMMAND)).isEqualTo(attempts);
  }

  @Test
  void shouldReportAnUnknownOutcomeWhenTheConnectionBreaksAfterSendingACommand() {
    harness.broker(0).crashAfterNext(ApiDescriptor.TYPE_COMMAND);

    assertStatus(
        () ->
            harness.ledger.deposit(
                DepositRequest.newBuilder().setAccountId(onPartition1).setAmount(5).build()),
        Status.Code.UNAVAILABLE,
        "the command may or may not have been applied. Check its"
            + " effect before sending it again");
    // It was applied, and not sent a second time.
    assertThat(harness.cluster.balance(1, onPartition1)).isEqualTo(5);
    assertThat(harness.broker(0).requests(ApiDescriptor.TYPE_COMMAND)).isEqualTo(1);
    await()
        .atMost(GatewayHarness.WAIT)
        .ignoreExceptions()
        .until(
            () ->
                harness
                        .ledger
                        .getAccount(
                            GetAccountRequest.newBuilder().setAccountId(onPartition1).build())
                        .getBalance()
                    == 5);
  }

  @Test
  void shouldResendAQueryWhenTheConnectionBreaksAfterSending() {
    // a retry budget (100 retries, up to 100 ms apart) that outlasts the broker's transport
    // restart also on a slow machine
    try (GatewayHarness single =
        new GatewayHarness(
                1, 1, config -> config.maxRetries(100).retryBackoffMax(Duration.ofMillis(100)))
            .awaitReady()) {
      single.ledger.createAccount(CreateAccountRequest.newBuilder().setAccountId("a").build());
      single.broker(0).crashAfterNext(ApiDescriptor.TYPE_QUERY_ACCOUNT);

      assertThat(
              single
                  .ledger
                  .getAccount(GetAccountRequest.newBuilder().setAccountId("a").build())
                  .getBalance())
          .isZero();
      assertThat(single.broker(0).requests(ApiDescriptor.TYPE_QUERY_ACCOUNT)).isGreaterThan(1);
    }
  }

  @Test
  void shouldAnswerInternalWhenABrokerAnswersGarbage() {
    harness.broker(0).answerGarbage(ApiDescriptor.TYPE_COMMAND);

    assertStatus(
        () ->
            harness.ledger.deposit(
                DepositRequest.newBuilder().setAccountId(onPartition1).setAmount(3).build()),
        Status.Code.INTERNAL,
        "Expected a valid answer from broker 0 (Deposit on partition 1)");
  }

  @Test
  void shouldStopWorkingOnARequestAtTheClientsDeadline() {
    harness.broker(0).hang(ApiDescriptor.TYPE_COMMAND);
    LedgerServiceGrpc.LedgerServiceBlockingStub impatient =
        LedgerServiceGrpc.newBlockingStub(harness.channel)
            .withDeadlineAfter(300, TimeUnit.MILLISECONDS);

    assertStatus(
        () ->
            impatient.deposit(
                DepositRequest.newBuilder().setAccountId(onPartition1).setAmount(3).build()),
        Status.Code.DEADLINE_EXCEEDED,
        "");
    // The gateway gave up too, at the client's deadline: long before its own request timeout.
    await()
        .atMost(GatewayHarness.WAIT)
        .until(
            () ->
                harness.counter(
                        GatewayMetrics.REQUESTS,
                        "operation",
                        "Deposit",
                        "result",
                        "deadline_exceeded")
                    == 1);
  }

  @Test
  void shouldAnswerDeadlineExceededAfterTheRequestTimeout() {
    try (GatewayHarness quick =
        new GatewayHarness(1, 1, config -> config.requestTimeout(Duration.ofMillis(300)))
            .awaitReady()) {
      quick.broker(0).hang(ApiDescriptor.TYPE_COMMAND);
      quick.broker(0).hang(ApiDescriptor.TYPE_QUERY_ACCOUNT);
      LedgerServiceGrpc.LedgerServiceBlockingStub patient =
          LedgerServiceGrpc.newBlockingStub(quick.channel);

      assertStatus(
          () -> patient.deposit(DepositRequest.newBuilder().setAccountId("a").setAmount(3).build()),
          Status.Code.DEADLINE_EXCEEDED,
          "Expected an answer from broker 0 (Deposit on partition 1) within 300 ms, but none"
              + " came; the command may or may not have been applied");
      assertStatus(
          () -> patient.getAccount(GetAccountRequest.newBuilder().setAccountId("a").build()),
          Status.Code.DEADLINE_EXCEEDED,
          "Expected an answer within 300 ms (GetAccount on partition 1), but none came");
    }
  }

  @Test
  void shouldAnswerUnavailableWhenTheLeaderIsDown() {
    try (GatewayHarness twoBrokers =
        new GatewayHarness(2, 2, config -> config.maxRetries(MAX_RETRIES)).awaitReady()) {
      String onPartition2 = accountOn(2);
      twoBrokers.broker(1).stop();
      await()
          .atMost(GatewayHarness.WAIT)
          .until(() -> !twoBrokers.gateway.topology().reachableBrokers().contains(1));

      assertStatus(
          () ->
              twoBrokers.ledger.createAccount(
                  CreateAccountRequest.newBuilder().setAccountId(onPartition2).build()),
          Status.Code.UNAVAILABLE,
          "(CreateAccount), but "
              + (MAX_RETRIES + 1)
              + " attempts failed; last: no leader is known for partition 2");
      assertThat(twoBrokers.gateway.topology().brokers().get(1).error()).isNotEmpty();
    }
  }

  private static String accountOn(int partition) {
    AccountPlacement placement = new AccountPlacement(2);
    for (int i = 0; ; i++) {
      if (placement.partitionOf("acct-" + i) == partition) {
        return "acct-" + i;
      }
    }
  }
}
