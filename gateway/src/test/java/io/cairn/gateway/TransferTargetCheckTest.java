package io.cairn.gateway;

import static io.cairn.gateway.LedgerApiTest.assertStatus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.gateway.v1.CreateAccountRequest;
import io.cairn.gateway.v1.DepositRequest;
import io.cairn.gateway.v1.LedgerServiceGrpc;
import io.cairn.gateway.v1.TransferRequest;
import io.cairn.gateway.v1.TransferResponse;
import io.cairn.protocol.api.AccountPlacement;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.ResponseStatus;
import io.grpc.Status;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A cross-partition transfer is sent only once the target partition's leader said the target
 * account exists. The fake brokers behave like the engine: the source partition accepts a
 * cross-partition transfer to an unknown account and refunds it ({@link FakeCluster#refunds()}), so
 * only the gateway's check can answer NOT_FOUND without sending anything.
 *
 * <p>Layout (default harness): broker 0 leads partitions 1 and 3, broker 1 leads partition 2.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class TransferTargetCheckTest {
  private static final int MAX_RETRIES = 3;
  private static final String CHECKS = GatewayMetrics.TRANSFER_TARGET_CHECKS;

  private final AccountPlacement placement = new AccountPlacement(3);
  private GatewayHarness harness;
  private String source;
  private String sameSide;

  @BeforeAll
  void start() {
    harness = new GatewayHarness(3, 2, config -> config.maxRetries(MAX_RETRIES)).awaitReady();
  }

  @AfterAll
  void stop() {
    harness.close();
  }

  @BeforeEach
  void reset() {
    harness.reset();
    source = accountOn(1, "source");
    sameSide = accountOn(1, "neighbour");
    harness.ledger.createAccount(CreateAccountRequest.newBuilder().setAccountId(source).build());
    harness.ledger.createAccount(CreateAccountRequest.newBuilder().setAccountId(sameSide).build());
    harness.ledger.deposit(DepositRequest.newBuilder().setAccountId(source).setAmount(100).build());
    harness.brokers.forEach(FakeBroker::heal);
  }

  @Test
  void shouldAnswerNotFoundNamingTheTargetAndItsPartitionWithoutSendingTheTransfer() {
    // given an account on partition 2 that nobody created
    String unknown = accountOn(2, "ghost");
    double before = harness.counter(CHECKS, "result", "not_found");

    // when / then
    assertStatus(
        () -> harness.ledger.transfer(transfer(source, unknown, 5)),
        Status.Code.NOT_FOUND,
        "Expected an existing toAccountId, but '"
            + unknown
            + "' does not exist on partition 2"
            + " (Transfer from '"
            + source
            + "'). Nothing was sent");
    assertThat(harness.broker(1).requests(ApiDescriptor.TYPE_QUERY_ACCOUNT)).isEqualTo(1);
    assertThat(harness.commandsReceived()).isZero();
    assertThat(harness.cluster.refunds()).isZero();
    assertThat(harness.cluster.balance(1, source)).isEqualTo(100);
    assertThat(harness.counter(CHECKS, "result", "not_found")).isEqualTo(before + 1);
  }

  @Test
  void shouldAnswerUnavailableWithoutSendingTheTransferWhenTheTargetCannotBeAsked() {
    // given partition 2's leader answers every query with PARTITION_UNAVAILABLE (retried)
    String target = createdOn(2, "target");
    harness
        .broker(1)
        .failQueries(2, ApiResponse.failure(ResponseStatus.PARTITION_UNAVAILABLE, "replaying"));

    // when / then the check gave up after its retries and nothing was sent
    assertStatus(
        () -> harness.ledger.transfer(transfer(source, target, 5)),
        Status.Code.UNAVAILABLE,
        "Expected to learn whether toAccountId '"
            + target
            + "' exists before sending the"
            + " transfer, but the check failed: Expected an answer from the leader of partition 2 (Transfer), but "
            + (MAX_RETRIES + 1)
            + " attempts failed; last: broker 1: replaying");
    assertStatus(
        () -> harness.ledger.transfer(transfer(source, target, 5)),
        Status.Code.UNAVAILABLE,
        "Nothing was sent; sending the transfer again is safe");
    assertThat(harness.broker(1).requests(ApiDescriptor.TYPE_QUERY_ACCOUNT))
        .isEqualTo(2 * (MAX_RETRIES + 1));
    assertThat(harness.commandsReceived()).isZero();
    assertThat(harness.cluster.balance(1, source)).isEqualTo(100);
    assertThat(harness.cluster.balance(2, target)).isZero();
    assertThat(harness.counter(CHECKS, "result", "unavailable")).isGreaterThanOrEqualTo(2);

    // and once the target partition answers again, the same transfer goes through
    harness.broker(1).heal();
    harness.ledger.transfer(transfer(source, target, 5));
    assertThat(harness.cluster.balance(2, target)).isEqualTo(5);
  }

  @Test
  void shouldAnswerDeadlineExceededWithoutSendingTheTransferWhenTheTargetDoesNotAnswer() {
    String target = createdOn(3, "silent");
    harness.broker(0).hang(ApiDescriptor.TYPE_QUERY_ACCOUNT);
    LedgerServiceGrpc.LedgerServiceBlockingStub impatient =
        LedgerServiceGrpc.newBlockingStub(harness.channel)
            .withDeadlineAfter(300, TimeUnit.MILLISECONDS);

    assertStatus(
        () -> impatient.transfer(transfer(accountOn(2, "payer"), target, 1)),
        Status.Code.DEADLINE_EXCEEDED,
        "");
    // the gateway's own answer (after the client gave up) says nothing was sent
    await()
        .atMost(GatewayHarness.WAIT)
        .until(() -> harness.counter(CHECKS, "result", "deadline_exceeded") == 1);
    assertThat(harness.commandsReceived()).isZero();
  }

  @Test
  void shouldSendTheTransferOnceTheTargetExists() {
    // given
    String target = createdOn(2, "payee");
    double before = harness.counter(CHECKS, "result", "found");

    // when
    TransferResponse accepted = harness.ledger.transfer(transfer(source, target, 30));

    // then one query to the target's leader, one command to the source's leader
    assertThat(accepted.getCompleted()).isFalse();
    assertThat(accepted.getSourcePartitionId()).isEqualTo(1);
    assertThat(accepted.getTargetPartitionId()).isEqualTo(2);
    assertThat(harness.broker(1).requests(ApiDescriptor.TYPE_QUERY_ACCOUNT)).isEqualTo(1);
    assertThat(harness.broker(0).requests(ApiDescriptor.TYPE_COMMAND)).isEqualTo(1);
    assertThat(harness.commandsReceived()).isEqualTo(1);
    assertThat(harness.cluster.balance(1, source)).isEqualTo(70);
    assertThat(harness.cluster.balance(2, target)).isEqualTo(30);
    assertThat(harness.cluster.refunds()).isZero();
    assertThat(harness.counter(CHECKS, "result", "found")).isEqualTo(before + 1);
    assertThat(harness.invalidRequests()).isZero();
  }

  @Test
  void shouldLeaveSamePartitionTransfersToTheEngineWithoutAQuery() {
    String unknown = accountOn(1, "nobody");

    harness.ledger.transfer(transfer(source, sameSide, 10));
    assertStatus(
        () -> harness.ledger.transfer(transfer(source, unknown, 10)),
        Status.Code.NOT_FOUND,
        "NOT_FOUND: Expected existing accounts, but '" + unknown + "'");

    assertThat(
            harness.brokers.stream()
                .mapToInt(b -> b.requests(ApiDescriptor.TYPE_QUERY_ACCOUNT))
                .sum())
        .isZero();
    assertThat(harness.commandsReceived()).isEqualTo(2);
    assertThat(harness.cluster.balance(1, sameSide)).isEqualTo(10);
  }

  private String createdOn(int partition, String prefix) {
    String account = accountOn(partition, prefix);
    harness.ledger.createAccount(CreateAccountRequest.newBuilder().setAccountId(account).build());
    harness.brokers.forEach(FakeBroker::heal);
    return account;
  }

  private String accountOn(int partition, String prefix) {
    for (int i = 0; ; i++) {
      if (placement.partitionOf(prefix + i) == partition) {
        return prefix + i;
      }
    }
  }

  private static TransferRequest transfer(String from, String to, long amount) {
    return TransferRequest.newBuilder()
        .setFromAccountId(from)
        .setToAccountId(to)
        .setAmount(amount)
        .build();
  }
}
