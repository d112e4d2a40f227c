package io.cairn.cli.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.client.CairnClient;
import io.cairn.gateway.v1.CreateAccountRequest;
import io.cairn.gateway.v1.CreateAccountResponse;
import io.cairn.gateway.v1.DepositRequest;
import io.cairn.gateway.v1.DepositResponse;
import io.cairn.gateway.v1.GetAccountRequest;
import io.cairn.gateway.v1.GetAccountResponse;
import io.cairn.gateway.v1.LedgerServiceGrpc;
import io.cairn.gateway.v1.TransferRequest;
import io.cairn.gateway.v1.TransferResponse;
import io.cairn.scheduler.Clock;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The load generator against a scripted ledger on loopback gRPC that refuses every third transfer
 * request with RESOURCE_EXHAUSTED, as a gateway under backpressure does: the client's retries are
 * counted apart from failures, and the money still adds up.
 */
final class LoadGeneratorRetryTest {
  private final RefusingLedger ledger = new RefusingLedger();
  private Server server;

  @BeforeEach
  void start() throws IOException {
    server =
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .addService(ledger)
            .build()
            .start();
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  @Test
  void shouldCountRetriedTransfersApartFromFailures() {
    // one transfer in flight: a refused request's retry is the next request, never refused
    LoadResults.Report report = run(settings(RetryPolicyAttempts.DEFAULT), cpu(0, 0));

    LoadResults.Transfers transfers = report.transfers();
    assertThat(ledger.refusals.get()).isPositive();
    assertThat(transfers.retried()).isEqualTo(ledger.refusals.get());
    assertThat(transfers.retries()).isEqualTo(ledger.refusals.get());
    assertThat(transfers.failed()).isZero();
    assertThat(transfers.errors()).doesNotContainKey("RESOURCE_EXHAUSTED");
    assertThat(transfers.acknowledged() + transfers.rejected()).isEqualTo(transfers.sent());
    assertThat(ledger.transferRequests.get()).isEqualTo(transfers.sent() + transfers.retries());
    assertThat(report.conservation().conserved()).isTrue();
  }

  @Test
  void shouldCountRefusedTransfersAsFailedWhenRetryingIsOff() {
    LoadResults.Report report = run(settings(RetryPolicyAttempts.NONE), cpu(0, 0));

    LoadResults.Transfers transfers = report.transfers();
    assertThat(ledger.refusals.get()).isPositive();
    assertThat(transfers.retried()).isZero();
    assertThat(transfers.retries()).isZero();
    assertThat(transfers.failed()).isEqualTo(ledger.refusals.get());
    assertThat(transfers.errors())
        .containsEntry("RESOURCE_EXHAUSTED", (long) ledger.refusals.get());
    assertThat(report.conservation().conserved()).isTrue();
  }

  @Test
  void shouldReportTheProcessCpuOfTheTransferPhasePerAcknowledgedTransfer() {
    LoadResults.Report report =
        run(settings(RetryPolicyAttempts.DEFAULT), cpu(7_000_000, 7_000_000 + 50_000_000));

    LoadResults.Transfers transfers = report.transfers();
    assertThat(transfers.generatorCpuMs()).isEqualTo(50.0);
    assertThat(transfers.generatorCpuMsPerAcknowledged())
        .isEqualTo(50.0 / transfers.acknowledged());
  }

  @Test
  void shouldReportUnknownCpuAsMinusOne() {
    LoadResults.Report report = run(settings(RetryPolicyAttempts.DEFAULT), cpu(-1, -1));

    assertThat(report.transfers().generatorCpuMs()).isEqualTo(-1);
    assertThat(report.transfers().generatorCpuMsPerAcknowledged()).isEqualTo(-1);
  }

  private enum RetryPolicyAttempts {
    DEFAULT(10),
    NONE(1);

    final int attempts;

    RetryPolicyAttempts(int attempts) {
      this.attempts = attempts;
    }
  }

  private static LoadSettings settings(RetryPolicyAttempts retry) {
    return new LoadSettings(
        200,
        6,
        Duration.ofSeconds(1),
        1,
        1_000,
        10,
        42,
        "r-",
        Duration.ofSeconds(5),
        retry.attempts);
  }

  /** Process CPU at the start and at the end of the transfer phase, in that order. */
  private static LongSupplier cpu(long atStart, long atEnd) {
    List<Long> readings = new ArrayList<>(List.of(atStart, atEnd));
    return () -> readings.remove(0);
  }

  private LoadResults.Report run(LoadSettings settings, LongSupplier cpu) {
    try (CairnClient client =
        CairnClient.builder()
            .gateway("127.0.0.1:" + server.getPort())
            .requestTimeout(Duration.ofSeconds(20))
            .retryPolicy(settings.retryPolicy())
            .retryJitterSeed(3)
            .build()) {
      return new LoadGenerator(client, settings, Clock.system(), line -> {}, cpu).run();
    }
  }

  /** Accounts and balances in a map; every third transfer request is refused, nothing moved. */
  private static final class RefusingLedger extends LedgerServiceGrpc.LedgerServiceImplBase {
    final AtomicInteger transferRequests = new AtomicInteger();
    final AtomicInteger refusals = new AtomicInteger();
    private final Map<String, AtomicLong> balances = new ConcurrentHashMap<>();

    @Override
    public void createAccount(
        CreateAccountRequest request, StreamObserver<CreateAccountResponse> observer) {
      if (balances.putIfAbsent(request.getAccountId(), new AtomicLong()) != null) {
        observer.onError(Status.ALREADY_EXISTS.withDescription("exists").asRuntimeException());
        return;
      }
      observer.onNext(
          CreateAccountResponse.newBuilder()
              .setAccountId(request.getAccountId())
              .setPartitionId(1)
              .setPosition(1)
              .build());
      observer.onCompleted();
    }

    @Override
    public void deposit(DepositRequest request, StreamObserver<DepositResponse> observer) {
      balances.get(request.getAccountId()).addAndGet(request.getAmount());
      observer.onNext(
          DepositResponse.newBuilder()
              .setAccountId(request.getAccountId())
              .setAmount(request.getAmount())
              .setPartitionId(1)
              .setPosition(1)
              .build());
      observer.onCompleted();
    }

    @Override
    public synchronized void transfer(
        TransferRequest request, StreamObserver<TransferResponse> observer) {
      if (transferRequests.incrementAndGet() % 3 == 0) {
        refusals.incrementAndGet();
        observer.onError(
            Status.RESOURCE_EXHAUSTED
                .withDescription(
                    "BACKPRESSURE from broker 0"
                        + " (Transfer on partition 1): Expected room in the log of partition 1, but 8 of 8"
                        + " appends are not committed yet; retry later")
                .asRuntimeException());
        return;
      }
      AtomicLong from = balances.get(request.getFromAccountId());
      if (from.get() < request.getAmount()) {
        observer.onError(
            Status.FAILED_PRECONDITION.withDescription("INSUFFICIENT_FUNDS").asRuntimeException());
        return;
      }
      from.addAndGet(-request.getAmount());
      balances.get(request.getToAccountId()).addAndGet(request.getAmount());
      observer.onNext(
          TransferResponse.newBuilder()
              .setTransferKey(transferRequests.get())
              .setSourcePartitionId(1)
              .setTargetPartitionId(1)
              .setCompleted(true)
              .setPosition(1)
              .build());
      observer.onCompleted();
    }

    @Override
    public void getAccount(GetAccountRequest request, StreamObserver<GetAccountResponse> observer) {
      AtomicLong balance = balances.get(request.getAccountId());
      if (balance == null) {
        observer.onError(Status.NOT_FOUND.withDescription("no account").asRuntimeException());
        return;
      }
      observer.onNext(
          GetAccountResponse.newBuilder()
              .setAccountId(request.getAccountId())
              .setBalance(balance.get())
              .setPartitionId(1)
              .build());
      observer.onCompleted();
    }
  }
}
