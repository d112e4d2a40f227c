package io.cairn.client;

import static io.cairn.client.ClientAssertions.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cairn.gateway.v1.AdminServiceGrpc;
import io.cairn.gateway.v1.DepositRequest;
import io.cairn.gateway.v1.DepositResponse;
import io.cairn.gateway.v1.LedgerServiceGrpc;
import io.cairn.gateway.v1.ListBackupsRequest;
import io.cairn.gateway.v1.ListBackupsResponse;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The client's retries after RESOURCE_EXHAUSTED, against a real gRPC server on loopback that
 * refuses the first calls as a gateway under backpressure does and then accepts.
 */
final class CairnClientRetryTest {
  private static final String BACKPRESSURE =
      "BACKPRESSURE from broker 0 (Deposit on partition"
          + " 1): Expected room in the log of partition 1, but 8 of 8 appends are not committed yet;"
          + " retry later";

  /** Short waits: these tests count attempts, not time. */
  private static final RetryPolicy QUICK =
      RetryPolicy.of(10, Duration.ofMillis(1), Duration.ofMillis(5));

  private final ScriptedGateway gateway = new ScriptedGateway();
  private Server server;

  @BeforeEach
  void start() throws IOException {
    server =
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .addService(gateway.ledger)
            .addService(gateway.admin)
            .build()
            .start();
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  @Test
  void shouldSucceedAfterRetryingResourceExhaustedAndCountTheRetries() {
    gateway.refuse(3, Status.RESOURCE_EXHAUSTED.withDescription(BACKPRESSURE));
    try (CairnClient client = client(QUICK, Duration.ofSeconds(20))) {

      Deposited deposited = client.deposit("alice", 5);

      assertThat(deposited).isEqualTo(new Deposited("alice", 5, 1, 42));
      assertThat(gateway.deposits.get()).isEqualTo(4);
      assertThat(client.retriesOnResourceExhausted()).isEqualTo(3);
      assertThat(client.callsRetriedOnResourceExhausted()).isEqualTo(1);
    }
  }

  @Test
  void shouldReturnResourceExhaustedAtOnceWhenRetryingIsOff() {
    gateway.refuse(1, Status.RESOURCE_EXHAUSTED.withDescription(BACKPRESSURE));
    try (CairnClient client = client(RetryPolicy.none(), Duration.ofSeconds(20))) {

      assertFailure(() -> client.deposit("alice", 5), ErrorCode.RESOURCE_EXHAUSTED, BACKPRESSURE);
      assertThat(gateway.deposits.get()).isEqualTo(1);
      assertThat(client.retriesOnResourceExhausted()).isZero();
    }
  }

  @Test
  void shouldReturnTheLastResourceExhaustedNamingTheAttemptsWhenTheyAreUsedUp() {
    gateway.refuse(Integer.MAX_VALUE, Status.RESOURCE_EXHAUSTED.withDescription(BACKPRESSURE));
    try (CairnClient client = client(QUICK.withMaxAttempts(4), Duration.ofSeconds(20))) {

      assertFailure(
          () -> client.deposit("alice", 5),
          ErrorCode.RESOURCE_EXHAUSTED,
          "Expected Deposit to be accepted within 4 attempts and 20000 ms, but the gateway"
              + " answered RESOURCE_EXHAUSTED to every attempt (4 made) and no attempt is left"
              + " (maxAttempts 4); last: "
              + BACKPRESSURE
              + ". It was not carried out; send it"
              + " again later");
      assertThat(gateway.deposits.get()).isEqualTo(4);
      assertThat(client.retriesOnResourceExhausted()).isEqualTo(3);
      assertThat(client.callsRetriedOnResourceExhausted()).isEqualTo(1);
    }
  }

  @Test
  void shouldNotWaitForARetryPastTheDeadline() {
    // given waits of up to a minute and a draw that makes the first one longer than the 10 s
    // deadline
    long seed = 7;
    double draw = new SplittableRandom(seed).nextDouble();
    assertThat(draw).as("the first draw of seed %d", seed).isGreaterThan(0.2);
    gateway.refuse(Integer.MAX_VALUE, Status.RESOURCE_EXHAUSTED.withDescription(BACKPRESSURE));
    RetryPolicy slow = RetryPolicy.of(10, Duration.ofMinutes(1), Duration.ofMinutes(1));
    try (CairnClient client =
        CairnClient.builder()
            .gateway("127.0.0.1:" + server.getPort())
            .requestTimeout(Duration.ofSeconds(10))
            .retryPolicy(slow)
            .retryJitterSeed(seed)
            .build()) {

      // when, then: the last answer comes back at once instead of a DEADLINE_EXCEEDED later
      assertFailure(
          () -> client.deposit("alice", 5),
          ErrorCode.RESOURCE_EXHAUSTED,
          "to every attempt (1 made) and the wait of "
              + (long) (draw * Duration.ofMinutes(1).toNanos()) / 1_000_000
              + " ms before"
              + " attempt 2 would reach the deadline; last: "
              + BACKPRESSURE);
      assertThat(gateway.deposits.get()).isEqualTo(1);
      assertThat(client.retriesOnResourceExhausted()).isZero();
    }
  }

  @Test
  void shouldKeepEveryRetryWithinTheDeadline() throws InterruptedException {
    gateway.refuse(Integer.MAX_VALUE, Status.RESOURCE_EXHAUSTED.withDescription(BACKPRESSURE));
    RetryPolicy many = RetryPolicy.of(1000, Duration.ofMillis(5), Duration.ofMillis(20));
    Duration timeout = Duration.ofMillis(500);
    try (CairnClient client = client(many, timeout)) {
      long started = System.nanoTime();

      CompletableFuture<Deposited> call = client.depositAsync("alice", 5);

      Throwable failure = failure(call);
      long elapsedMs = (System.nanoTime() - started) / 1_000_000;
      // a last attempt sent just before the deadline may end in DEADLINE_EXCEEDED
      assertThat(((CairnClientException) failure).code())
          .isIn(ErrorCode.RESOURCE_EXHAUSTED, ErrorCode.DEADLINE_EXCEEDED);
      assertThat(gateway.deposits.get()).isBetween(2, 999);
      assertThat(elapsedMs)
          .as("the call ended by its deadline")
          .isLessThan(timeout.toMillis() + 1_000);
      // every attempt but the first is a retry; the gateway saw each one, except perhaps the last,
      // which the deadline may cut off on its way
      long retries = client.retriesOnResourceExhausted();
      assertThat((long) gateway.deposits.get()).isBetween(retries, retries + 1);
    }
  }

  @ParameterizedTest
  @EnumSource(
      names = {
        "UNAVAILABLE",
        "DEADLINE_EXCEEDED",
        "FAILED_PRECONDITION",
        "NOT_FOUND",
        "INTERNAL",
        "ABORTED"
      })
  void shouldReturnEveryOtherCodeWithoutRetrying(Status.Code code) {
    gateway.refuse(1, Status.fromCode(code).withDescription("refused once"));
    try (CairnClient client = client(QUICK, Duration.ofSeconds(20))) {

      assertFailure(() -> client.deposit("alice", 5), GrpcCall.code(code), "refused once");
      assertThat(gateway.deposits.get()).isEqualTo(1);
      assertThat(client.retriesOnResourceExhausted()).isZero();
    }
  }

  @Test
  void shouldNotRetryAMessageOverTheSizeLimit() {
    gateway.refuse(
        1,
        Status.RESOURCE_EXHAUSTED.withDescription(
            "gRPC message exceeds maximum size 65536: 70000"));
    try (CairnClient client = client(QUICK, Duration.ofSeconds(20))) {

      assertFailure(
          () -> client.deposit("alice", 5), ErrorCode.RESOURCE_EXHAUSTED, "exceeds maximum size");
      assertThat(gateway.deposits.get()).isEqualTo(1);
      assertThat(client.retriesOnResourceExhausted()).isZero();
    }
  }

  @Test
  void shouldNotRetryListBackupsWhoseResourceExhaustedDoesNotPass() {
    try (CairnClient client = client(QUICK, Duration.ofSeconds(20))) {

      assertFailure(
          () -> client.listBackups(10, ""), ErrorCode.RESOURCE_EXHAUSTED, "Delete old backups");
      assertThat(gateway.listings.get()).isEqualTo(1);
      assertThat(client.retriesOnResourceExhausted()).isZero();
    }
  }

  @Test
  void shouldEndACallWaitingForARetryWhenTheClientCloses() throws Exception {
    gateway.refuse(Integer.MAX_VALUE, Status.RESOURCE_EXHAUSTED.withDescription(BACKPRESSURE));
    RetryPolicy slow = RetryPolicy.of(10, Duration.ofMinutes(1), Duration.ofMinutes(1));
    CairnClient client =
        CairnClient.builder()
            .gateway("127.0.0.1:" + server.getPort())
            .requestTimeout(Duration.ofMinutes(10))
            .retryPolicy(slow)
            .retryJitterSeed(7)
            .build();
    CompletableFuture<Deposited> call = client.depositAsync("alice", 5);
    await().atMost(Duration.ofSeconds(30)).until(() -> gateway.deposits.get() == 1);

    client.close();

    Throwable failure = failure(call);
    assertThat(failure)
        .isInstanceOf(CairnClientException.class)
        .hasMessageContaining(
            "to every attempt (1 made) and the client was closed before attempt 2");
    assertThat(((CairnClientException) failure).code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
    assertThat(gateway.deposits.get()).isEqualTo(1);
  }

  @Test
  void shouldCancelAWaitingRetryWithTheCall() {
    // given the second call's wait is at least as long as the first's
    SplittableRandom draws = new SplittableRandom(1);
    assertThat(draws.nextDouble()).isLessThanOrEqualTo(draws.nextDouble());
    gateway.refuse(Integer.MAX_VALUE, Status.RESOURCE_EXHAUSTED.withDescription(BACKPRESSURE));
    RetryPolicy slow = RetryPolicy.of(10, Duration.ofSeconds(2), Duration.ofSeconds(2));
    try (CairnClient client = client(slow, Duration.ofMinutes(10))) {
      CompletableFuture<Deposited> first = client.depositAsync("alice", 5);
      await().atMost(Duration.ofSeconds(30)).until(() -> gateway.deposits.get() == 1);

      first.cancel(true);
      // a second call waits for its own retry after the first one's would have been sent
      gateway.refuse(1, Status.RESOURCE_EXHAUSTED.withDescription(BACKPRESSURE));
      Deposited second = client.deposit("bob", 1);

      assertThat(second.accountId()).isEqualTo("bob");
      assertThat(gateway.depositsOf("alice")).isEqualTo(1);
      assertThat(client.retriesOnResourceExhausted()).isEqualTo(1);
    }
  }

  @Test
  void shouldRefuseABadRetryPolicyNamingEveryValue() {
    assertFailure(
        () -> RetryPolicy.of(0, Duration.ZERO, Duration.ofMinutes(2)),
        ErrorCode.INVALID_ARGUMENT,
        "Expected maxAttempts in [1, 1000], but was 0 (RetryPolicy); Expected backoffMin in"
            + " [PT0.001S, PT1M], but was PT0S (RetryPolicy); Expected backoffMax in [PT0.001S,"
            + " PT1M], but was PT2M (RetryPolicy)");
    assertFailure(
        () -> RetryPolicy.of(3, Duration.ofSeconds(2), Duration.ofSeconds(1)),
        ErrorCode.INVALID_ARGUMENT,
        "Expected backoffMin <= backoffMax, but PT2S > PT1S");
    assertFailure(
        () -> CairnClient.builder().retryPolicy(null).build(),
        ErrorCode.INVALID_ARGUMENT,
        "Expected retryPolicy to be given, but it is null");
  }

  @Test
  void shouldDrawEachWaitBelowADoublingCeiling() {
    RetryPolicy policy = RetryPolicy.defaults();

    assertThat(policy.backoffNanos(1, 0.999_999)).isEqualTo(9_999_990);
    assertThat(policy.backoffNanos(2, 0.5)).isEqualTo(10_000_000);
    assertThat(policy.backoffNanos(3, 0.5)).isEqualTo(20_000_000);
    assertThat(policy.backoffNanos(6, 0.5)).isEqualTo(160_000_000);
    assertThat(policy.backoffNanos(7, 0.5)).isEqualTo(250_000_000);
    assertThat(policy.backoffNanos(1000, 0.5)).isEqualTo(250_000_000);
    assertThat(policy.backoffNanos(5, 0.0)).isZero();
    assertThat(
            RetryPolicy.of(1000, Duration.ofMinutes(1), Duration.ofMinutes(1))
                .backoffNanos(1000, 0.5))
        .isEqualTo(30_000_000_000L);
  }

  private CairnClient client(RetryPolicy policy, Duration timeout) {
    return CairnClient.builder()
        .gateway("127.0.0.1:" + server.getPort())
        .requestTimeout(timeout)
        .retryPolicy(policy)
        .retryJitterSeed(1)
        .build();
  }

  private static Throwable failure(CompletableFuture<?> call) throws InterruptedException {
    try {
      call.get(30, TimeUnit.SECONDS);
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (TimeoutException e) {
      throw new AssertionError("Expected the call to end within 30 s, but it did not", e);
    }
  }

  /**
   * Answers deposits with a status a given number of times, then with success; answers ListBackups
   * with the gateway's RESOURCE_EXHAUSTED for more backups than it lists.
   */
  private static final class ScriptedGateway {
    final AtomicInteger deposits = new AtomicInteger();
    final AtomicInteger listings = new AtomicInteger();
    private final AtomicInteger refusalsLeft = new AtomicInteger();
    private final AtomicReference<Status> refusal = new AtomicReference<>(Status.OK);
    private final Map<String, AtomicInteger> byAccount = new ConcurrentHashMap<>();

    final LedgerServiceGrpc.LedgerServiceImplBase ledger =
        new LedgerServiceGrpc.LedgerServiceImplBase() {
          @Override
          public void deposit(DepositRequest request, StreamObserver<DepositResponse> observer) {
            deposits.incrementAndGet();
            byAccount
                .computeIfAbsent(request.getAccountId(), id -> new AtomicInteger())
                .incrementAndGet();
            if (refusalsLeft.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
              observer.onError(refusal.get().asRuntimeException());
              return;
            }
            observer.onNext(
                DepositResponse.newBuilder()
                    .setAccountId(request.getAccountId())
                    .setAmount(request.getAmount())
                    .setPartitionId(1)
                    .setPosition(42)
                    .build());
            observer.onCompleted();
          }
        };

    final AdminServiceGrpc.AdminServiceImplBase admin =
        new AdminServiceGrpc.AdminServiceImplBase() {
          @Override
          public void listBackups(
              ListBackupsRequest request, StreamObserver<ListBackupsResponse> observer) {
            listings.incrementAndGet();
            observer.onError(
                Status.RESOURCE_EXHAUSTED
                    .withDescription(
                        "Expected at most 100000"
                            + " partition backups in the store, but there are more (ListBackups). Delete old"
                            + " backups")
                    .asRuntimeException());
          }
        };

    void refuse(int times, Status status) {
      refusal.set(status);
      refusalsLeft.set(times);
    }

    int depositsOf(String accountId) {
      AtomicInteger count = byAccount.get(accountId);
      return count == null ? 0 : count.get();
    }
  }
}
