package io.cairn.client;

import io.cairn.gateway.v1.AdminServiceGrpc;
import io.cairn.gateway.v1.CreateAccountRequest;
import io.cairn.gateway.v1.DeleteBackupRequest;
import io.cairn.gateway.v1.DeleteBackupResponse;
import io.cairn.gateway.v1.DepositRequest;
import io.cairn.gateway.v1.GetAccountRequest;
import io.cairn.gateway.v1.GetBackupRequest;
import io.cairn.gateway.v1.GetBackupScheduleRequest;
import io.cairn.gateway.v1.GetRestoreStatusRequest;
import io.cairn.gateway.v1.GetTopologyRequest;
import io.cairn.gateway.v1.LedgerServiceGrpc;
import io.cairn.gateway.v1.ListBackupsRequest;
import io.cairn.gateway.v1.ListRestorePointsRequest;
import io.cairn.gateway.v1.PauseExportingRequest;
import io.cairn.gateway.v1.ResumeExportingRequest;
import io.cairn.gateway.v1.TakeBackupRequest;
import io.cairn.gateway.v1.TransferRequest;
import io.cairn.tls.ClientTls;
import io.cairn.tls.TlsConfigurationException;
import io.cairn.tls.TlsFile;
import io.cairn.tls.TlsFiles;
import io.grpc.CallCredentials;
import io.grpc.Deadline;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;

/**
 * The gRPC client of a Cairn gateway: the ledger API (accounts, deposits, transfers) and the admin
 * API (backups, exporting, topology).
 *
 * <pre>{@code
 * try (CairnClient client = CairnClient.builder().gateway("127.0.0.1:26500").build()) {
 *   client.createAccount("alice");
 *   client.deposit("alice", 100);
 *   BackupTaken taken = client.takeBackup(1);
 * }
 * }</pre>
 *
 * <p>Contract: thread-safe; one HTTP/2 connection, opened on the first call and re-opened after a
 * failure. Every call has a deadline of {@link Builder#requestTimeout}. Every blocking call either
 * returns or throws {@link CairnClientException}; every {@code *Async} call returns a future that
 * completes with the result or exceptionally with a {@link CairnClientException} (its callbacks run
 * on gRPC's threads or the client's retry thread: do not block in them). Arguments are checked
 * before anything is sent (INVALID_ARGUMENT, naming field, rule and value).
 *
 * <p>RESOURCE_EXHAUSTED (a partition under backpressure, the gateway's queue full) means the call
 * was not carried out; the client sends it again as its {@link RetryPolicy} says (by default up to
 * 10 attempts, 10 ms .. 500 ms apart with full jitter, within the call's deadline), on one daemon
 * thread of its own, and counts the retries ({@link #retriesOnResourceExhausted()}). That is the
 * only resend: after DEADLINE_EXCEEDED or UNAVAILABLE a command may have been applied, and it is up
 * to the caller to check and retry. ListBackups is not resent: its RESOURCE_EXHAUSTED (more backups
 * than the gateway lists) does not pass.
 *
 * <p>Credentials ({@link Builder#apiKey}, {@link Builder#bearerToken}, {@link Builder#credentials})
 * go with every call as its {@code authorization} metadata; a gateway that requires them answers
 * UNAUTHENTICATED without valid ones and PERMISSION_DENIED without the role ({@link
 * ErrorCode#UNAUTHENTICATED}, {@link ErrorCode#PERMISSION_DENIED}). They are never shown.
 */
public final class CairnClient implements AutoCloseable {
  /** Default gateway address. */
  public static final String DEFAULT_GATEWAY = "127.0.0.1:26500";

  /** Default per-call deadline. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(15);

  static final Duration REQUEST_TIMEOUT_MIN = Duration.ofMillis(1);
  static final Duration REQUEST_TIMEOUT_MAX = Duration.ofHours(1);
  private static final int LIST_PAGE_SIZE = Arguments.PAGE_SIZE_MAX;
  private static final int LIST_PAGES_MAX = 10_000;
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

  private static final AtomicInteger CLIENTS = new AtomicInteger();

  private final HostPort gateway;
  private final Duration requestTimeout;
  private final RetryPolicy retryPolicy;
  private final ManagedChannel channel;
  private final Optional<Authorization> authorization;
  private final CallCredentials callCredentials;

  /** Waits before retries; its one thread only starts calls, which does not block. */
  private final ScheduledThreadPoolExecutor retryScheduler;

  private final SplittableRandom jitter;
  private final RetryingCall.Counters retryCounters = new RetryingCall.Counters();
  private final Set<RetryingCall<?>> waitingForRetry = ConcurrentHashMap.newKeySet();

  private CairnClient(
      HostPort gateway,
      Duration requestTimeout,
      RetryPolicy retryPolicy,
      long jitterSeed,
      Optional<ClientTls> tls,
      Optional<Authorization> authorization) {
    this.gateway = gateway;
    this.authorization = authorization;
    this.callCredentials = authorization.map(Authorization::callCredentials).orElse(null);
    this.requestTimeout = requestTimeout;
    this.retryPolicy = retryPolicy;
    this.jitter = new SplittableRandom(jitterSeed);
    NettyChannelBuilder channelBuilder =
        NettyChannelBuilder.forAddress(gateway.host(), gateway.port());
    if (tls.isPresent()) {
      channelBuilder.sslContext(sslContext(tls.get()));
    } else {
      channelBuilder.usePlaintext();
    }
    this.channel = channelBuilder.build();
    String threadName = "cairn-client-retry-" + CLIENTS.incrementAndGet();
    this.retryScheduler =
        new ScheduledThreadPoolExecutor(
            1,
            runnable -> {
              Thread thread = new Thread(runnable, threadName);
              thread.setDaemon(true);
              return thread;
            });
    retryScheduler.setRemoveOnCancelPolicy(true);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The gateway this client talks to. */
  public HostPort gateway() {
    return gateway;
  }

  /** The deadline of every call. */
  public Duration requestTimeout() {
    return requestTimeout;
  }

  /** When calls answered with RESOURCE_EXHAUSTED are sent again. */
  public RetryPolicy retryPolicy() {
    return retryPolicy;
  }

  /** Calls this client has sent again after RESOURCE_EXHAUSTED so far (each resend counts). */
  public long retriesOnResourceExhausted() {
    return retryCounters.retries().sum();
  }

  /** Calls of this client so far that were sent more than once because of RESOURCE_EXHAUSTED. */
  public long callsRetriedOnResourceExhausted() {
    return retryCounters.retriedCalls().sum();
  }

  // ---- ledger ----------------------------------------------------------------------------------

  /** Opens an account with a zero balance; ALREADY_EXISTS when it exists. */
  public AccountCreated createAccount(String accountId) {
    return join(createAccountAsync(accountId));
  }

  public CompletableFuture<AccountCreated> createAccountAsync(String accountId) {
    String operation = "CreateAccount";
    return ledger(
        operation,
        Arguments.of(operation).accountId("accountId", accountId),
        (stub, observer) ->
            stub.createAccount(
                CreateAccountRequest.newBuilder().setAccountId(accountId).build(), observer),
        ProtoMapping::accountCreated);
  }

  /** Adds {@code amount} (&gt; 0) to an account; NOT_FOUND when it does not exist. */
  public Deposited deposit(String accountId, long amount) {
    return join(depositAsync(accountId, amount));
  }

  public CompletableFuture<Deposited> depositAsync(String accountId, long amount) {
    String operation = "Deposit";
    return ledger(
        operation,
        Arguments.of(operation).accountId("accountId", accountId).amount(amount),
        (stub, observer) ->
            stub.deposit(
                DepositRequest.newBuilder().setAccountId(accountId).setAmount(amount).build(),
                observer),
        ProtoMapping::deposited);
  }

  /**
   * Moves {@code amount} (&gt; 0) between two distinct accounts; NOT_FOUND for an unknown account,
   * FAILED_PRECONDITION for insufficient funds.
   */
  public TransferAccepted transfer(String from, String to, long amount) {
    return join(transferAsync(from, to, amount));
  }

  public CompletableFuture<TransferAccepted> transferAsync(String from, String to, long amount) {
    String operation = "Transfer";
    return ledger(
        operation,
        Arguments.of(operation)
            .accountId("fromAccountId", from)
            .accountId("toAccountId", to)
            .amount(amount)
            .distinct(from, to),
        (stub, observer) ->
            stub.transfer(
                TransferRequest.newBuilder()
                    .setFromAccountId(from)
                    .setToAccountId(to)
                    .setAmount(amount)
                    .build(),
                observer),
        ProtoMapping::transferAccepted);
  }

  /** Reads an account's balance from its partition leader; NOT_FOUND when it does not exist. */
  public Account getAccount(String accountId) {
    return join(getAccountAsync(accountId));
  }

  public CompletableFuture<Account> getAccountAsync(String accountId) {
    String operation = "GetAccount";
    return ledger(
        operation,
        Arguments.of(operation).accountId("accountId", accountId),
        (stub, observer) ->
            stub.getAccount(
                GetAccountRequest.newBuilder().setAccountId(accountId).build(), observer),
        ProtoMapping::account);
  }

  // ---- admin -----------------------------------------------------------------------------------

  /**
   * Takes backup {@code backupId} (&gt;= 1, higher than every id taken before): every partition
   * writes its checkpoint, then uploads in the background. ALREADY_EXISTS (naming the highest id)
   * when the id is not higher; UNAVAILABLE while a partition has no leader (retrying the same id is
   * safe).
   */
  public BackupTaken takeBackup(long backupId) {
    return join(takeBackupAsync(backupId));
  }

  public CompletableFuture<BackupTaken> takeBackupAsync(long backupId) {
    String operation = "TakeBackup";
    return admin(
        operation,
        Arguments.of(operation).backupId(backupId),
        (stub, observer) ->
            stub.takeBackup(TakeBackupRequest.newBuilder().setBackupId(backupId).build(), observer),
        ProtoMapping::backupTaken);
  }

  /** The cluster status of one backup; NOT_FOUND when no partition has it. */
  public BackupInfo getBackup(long backupId) {
    return join(getBackupAsync(backupId));
  }

  public CompletableFuture<BackupInfo> getBackupAsync(long backupId) {
    String operation = "GetBackup";
    return admin(
        operation,
        Arguments.of(operation).backupId(backupId),
        (stub, observer) ->
            stub.getBackup(GetBackupRequest.newBuilder().setBackupId(backupId).build(), observer),
        ProtoMapping::backup);
  }

  /**
   * One page of backups, newest first.
   *
   * @param pageSize 1..1000, or 0 for the gateway's default (100)
   * @param pageToken empty for the first page, else the previous page's {@link
   *     BackupPage#nextPageToken()}
   */
  public BackupPage listBackups(int pageSize, String pageToken) {
    return join(listBackupsAsync(pageSize, pageToken));
  }

  public CompletableFuture<BackupPage> listBackupsAsync(int pageSize, String pageToken) {
    String operation = "ListBackups";
    return admin(
        operation,
        false,
        Arguments.of(operation).pageSize(pageSize).notNull("pageToken", pageToken),
        (stub, observer) ->
            stub.listBackups(
                ListBackupsRequest.newBuilder()
                    .setPageSize(pageSize)
                    .setPageToken(pageToken)
                    .build(),
                observer),
        ProtoMapping::backupPage);
  }

  /** Every backup, newest first, following the pages. */
  public List<BackupInfo> listAllBackups() {
    List<BackupInfo> all = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    String token = "";
    for (int page = 0; page < LIST_PAGES_MAX; page++) {
      BackupPage result = listBackups(LIST_PAGE_SIZE, token);
      all.addAll(result.backups());
      if (result.isLast()) {
        return all;
      }
      if (!seen.add(result.nextPageToken())) {
        throw new CairnClientException(
            ErrorCode.INTERNAL,
            "Expected a new page token from the"
                + " gateway, but got '"
                + result.nextPageToken()
                + "' twice (ListBackups)");
      }
      token = result.nextPageToken();
    }
    throw new CairnClientException(
        ErrorCode.INTERNAL,
        "Expected at most "
            + LIST_PAGES_MAX
            + " pages of backups, but there are more (ListBackups)");
  }

  /** Deletes every partition's backup of an id; FAILED_PRECONDITION while one is in progress. */
  public void deleteBackup(long backupId) {
    join(deleteBackupAsync(backupId));
  }

  public CompletableFuture<Void> deleteBackupAsync(long backupId) {
    String operation = "DeleteBackup";
    return admin(
        operation,
        Arguments.of(operation).backupId(backupId),
        (stub, observer) ->
            stub.deleteBackup(
                DeleteBackupRequest.newBuilder().setBackupId(backupId).build(), observer),
        (DeleteBackupResponse response) -> (Void) null);
  }

  /** Pauses exporting on every broker (survives their restarts). */
  public ExportingState pauseExporting() {
    return join(pauseExportingAsync());
  }

  public CompletableFuture<ExportingState> pauseExportingAsync() {
    String operation = "PauseExporting";
    return admin(
        operation,
        Arguments.of(operation),
        (stub, observer) ->
            stub.pauseExporting(PauseExportingRequest.getDefaultInstance(), observer),
        ProtoMapping::exporting);
  }

  /** Resumes exporting on every broker. */
  public ExportingState resumeExporting() {
    return join(resumeExportingAsync());
  }

  public CompletableFuture<ExportingState> resumeExportingAsync() {
    String operation = "ResumeExporting";
    return admin(
        operation,
        Arguments.of(operation),
        (stub, observer) ->
            stub.resumeExporting(ResumeExportingRequest.getDefaultInstance(), observer),
        ProtoMapping::exporting);
  }

  /**
   * The backup schedule, from the broker running it; FAILED_PRECONDITION when none is configured.
   */
  public BackupSchedule backupSchedule() {
    return join(backupScheduleAsync());
  }

  public CompletableFuture<BackupSchedule> backupScheduleAsync() {
    String operation = "GetBackupSchedule";
    return admin(
        operation,
        Arguments.of(operation),
        (stub, observer) ->
            stub.getBackupSchedule(GetBackupScheduleRequest.getDefaultInstance(), observer),
        ProtoMapping::backupSchedule);
  }

  /**
   * Restores a cluster started with empty data directories and {@code data.restoreMode}: every
   * broker restores its partitions from the store, then starts them. Answers once every broker
   * started; follow it with {@link #restoreStatus()}. FAILED_PRECONDITION when a broker holds data
   * or restores already, or the selection cannot be restored (the message says why).
   */
  public RestoreStatus restore(RestoreFrom from) {
    String operation = "Restore";
    return join(
        admin(
            operation,
            Arguments.of(operation),
            (stub, observer) -> stub.restore(from.toProto(), observer),
            ProtoMapping::restoreStatus));
  }

  /** How a restore through the API stands on every broker and partition. */
  public RestoreStatus restoreStatus() {
    String operation = "GetRestoreStatus";
    return join(
        admin(
            operation,
            Arguments.of(operation),
            (stub, observer) ->
                stub.getRestoreStatus(GetRestoreStatusRequest.getDefaultInstance(), observer),
            ProtoMapping::restoreStatus));
  }

  /**
   * The newest restore points of the log archive, newest first, each checked on every partition.
   *
   * @param limit 1..1000, or 0 for the gateway's default (100)
   */
  public List<RestorePoint> restorePoints(int limit) {
    String operation = "ListRestorePoints";
    return join(
        admin(
            operation,
            Arguments.of(operation).limit(limit),
            (stub, observer) ->
                stub.listRestorePoints(
                    ListRestorePointsRequest.newBuilder().setLimit(limit).build(), observer),
            ProtoMapping::restorePoints));
  }

  /** Brokers, partitions, roles and health; the gateway asks every broker first. */
  public Topology topology() {
    return join(topologyAsync());
  }

  public CompletableFuture<Topology> topologyAsync() {
    String operation = "GetTopology";
    return admin(
        operation,
        Arguments.of(operation),
        (stub, observer) -> stub.getTopology(GetTopologyRequest.getDefaultInstance(), observer),
        ProtoMapping::topology);
  }

  // ---- plumbing --------------------------------------------------------------------------------

  private <R, T> CompletableFuture<T> ledger(
      String operation,
      Arguments arguments,
      BiConsumer<LedgerServiceGrpc.LedgerServiceStub, StreamObserver<R>> method,
      Function<R, T> mapper) {
    return call(
        operation,
        true,
        arguments,
        (deadline, observer) ->
            method.accept(
                LedgerServiceGrpc.newStub(channel)
                    .withDeadline(deadline)
                    .withCallCredentials(callCredentials),
                observer),
        mapper);
  }

  private <R, T> CompletableFuture<T> admin(
      String operation,
      Arguments arguments,
      BiConsumer<AdminServiceGrpc.AdminServiceStub, StreamObserver<R>> method,
      Function<R, T> mapper) {
    return admin(operation, true, arguments, method, mapper);
  }

  private <R, T> CompletableFuture<T> admin(
      String operation,
      boolean retryOnResourceExhausted,
      Arguments arguments,
      BiConsumer<AdminServiceGrpc.AdminServiceStub, StreamObserver<R>> method,
      Function<R, T> mapper) {
    return call(
        operation,
        retryOnResourceExhausted,
        arguments,
        (deadline, observer) ->
            method.accept(
                AdminServiceGrpc.newStub(channel)
                    .withDeadline(deadline)
                    .withCallCredentials(callCredentials),
                observer),
        mapper);
  }

  private <Q, R, T> CompletableFuture<T> call(
      String operation,
      boolean retryOnResourceExhausted,
      Arguments arguments,
      BiConsumer<Deadline, StreamObserver<R>> start,
      Function<R, T> mapper) {
    try {
      arguments.check();
    } catch (CairnClientException e) {
      return CompletableFuture.failedFuture(e);
    }
    // One deadline for every attempt: retries never extend the call.
    Deadline deadline = Deadline.after(requestTimeout.toNanos(), TimeUnit.NANOSECONDS);
    Supplier<CompletableFuture<T>> send =
        () -> {
          GrpcCall<Q, R, T> call =
              new GrpcCall<>(operation, gateway, requestTimeout, deadline, mapper);
          try {
            start.accept(deadline, call);
          } catch (RuntimeException e) {
            // e.g. the channel was shut down
            call.onError(e);
          }
          return call.future();
        };
    if (!retryOnResourceExhausted || !retryPolicy.retries()) {
      return send.get();
    }
    return new RetryingCall<>(
            operation,
            retryPolicy,
            deadline,
            requestTimeout.toMillis(),
            retryScheduler,
            this::nextJitter,
            retryCounters,
            waitingForRetry,
            send)
        .start();
  }

  private synchronized double nextJitter() {
    return jitter.nextDouble();
  }

  /**
   * Waits for a call; rethrows its {@link CairnClientException} with this thread's stack (the
   * original as the cause).
   */
  static <T> T join(CompletableFuture<T> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new CairnClientException(
          ErrorCode.CANCELLED,
          "Expected to wait for the answer, but the thread was interrupted; the call was"
              + " cancelled and its outcome is unknown",
          e);
    } catch (CancellationException e) {
      throw new CairnClientException(ErrorCode.CANCELLED, "The call was cancelled", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof CairnClientException failure) {
        throw new CairnClientException(failure.code(), failure.getMessage(), failure);
      }
      throw new CairnClientException(ErrorCode.UNKNOWN, String.valueOf(e.getCause()), e.getCause());
    }
  }

  /**
   * Shuts the connection down, waiting up to 5 s for calls in flight, then cancels them. A call
   * waiting for a retry ends with its last RESOURCE_EXHAUSTED.
   */
  @Override
  public void close() {
    retryScheduler.shutdownNow();
    // after the shutdown: a call that starts to wait now sees it and ends itself
    waitingForRetry.forEach(RetryingCall::abandon);
    channel.shutdown();
    try {
      if (!channel.awaitTermination(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        channel.shutdownNow();
      }
    } catch (InterruptedException e) {
      channel.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "CairnClient{gateway="
        + gateway
        + ", requestTimeout="
        + requestTimeout
        + ", retryPolicy="
        + retryPolicy
        + ", credentials="
        + authorization.map(Authorization::toString).orElse("none")
        + "}";
  }

  /**
   * gRPC's TLS (HTTP/2 over ALPN), checking the gateway's certificate and host name on every
   * connection: reconnections make a full handshake rather than resume a session.
   */
  static SslContext sslContext(ClientTls tls) {
    try {
      return new FullHandshakeSslContext(
          GrpcSslContexts.forClient()
              .trustManager(tls.trustManager())
              .protocols(tls.protocols())
              .build());
    } catch (SSLException e) {
      throw new CairnClientException(
          ErrorCode.INVALID_ARGUMENT,
          "Expected to set up TLS to the gateway, but " + e.getMessage());
    }
  }

  /** Builds a {@link CairnClient}. */
  public static final class Builder {
    private String gateway = DEFAULT_GATEWAY;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
    private RetryPolicy retryPolicy = RetryPolicy.defaults();
    private Long jitterSeed;
    private Path trustedCaFile;
    private String apiKey;
    private String bearerToken;
    private String credentials;

    private Builder() {}

    /** The gateway's gRPC address, {@code host:port}; default {@code 127.0.0.1:26500}. */
    public Builder gateway(String hostPort) {
      this.gateway = hostPort;
      return this;
    }

    /** The deadline of every call, 1 ms .. 1 h; default 15 s. */
    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = timeout;
      return this;
    }

    /**
     * When calls answered with RESOURCE_EXHAUSTED are sent again; default {@link
     * RetryPolicy#defaults()}, {@link RetryPolicy#none()} to turn it off.
     */
    public Builder retryPolicy(RetryPolicy policy) {
      this.retryPolicy = policy;
      return this;
    }

    /**
     * Speaks TLS to the gateway, trusting the CA certificates in this PEM file (re-read when it
     * changes); default plaintext.
     */
    public Builder trustedCaFile(Path caFile) {
      this.trustedCaFile = caFile;
      return this;
    }

    /**
     * Presents this API key on every call ({@code authorization: ApiKey <keyId>.<secret>}), for a
     * gateway with {@code gateway.security.auth.enabled}. At most one of this, {@link #bearerToken}
     * and {@link #credentials}. Beyond this machine, send credentials only over TLS ({@link
     * #trustedCaFile}).
     *
     * @param key {@code <keyId>.<secret>}, as {@code cairn security create-api-key} printed it
     */
    public Builder apiKey(String key) {
      this.apiKey = key;
      return this;
    }

    /**
     * Presents this JWT on every call ({@code authorization: Bearer <token>}); see {@link #apiKey}.
     */
    public Builder bearerToken(String token) {
      this.bearerToken = token;
      return this;
    }

    /**
     * Presents this {@code authorization} value as it is on every call ({@code ApiKey ...} or
     * {@code Bearer ...}); see {@link #apiKey}.
     */
    public Builder credentials(String authorizationValue) {
      this.credentials = authorizationValue;
      return this;
    }

    /** Seeds the random waits between retries (default: from the clock), for repeatable runs. */
    public Builder retryJitterSeed(long seed) {
      this.jitterSeed = seed;
      return this;
    }

    /**
     * @throws CairnClientException INVALID_ARGUMENT listing every bad setting
     */
    public CairnClient build() {
      Arguments arguments = Arguments.of("CairnClient");
      HostPort address = null;
      try {
        address = HostPort.parse("gateway", gateway);
      } catch (CairnClientException e) {
        arguments.add(e.getMessage());
      }
      arguments.duration(
          "requestTimeout", requestTimeout, REQUEST_TIMEOUT_MIN, REQUEST_TIMEOUT_MAX);
      arguments.notNull("retryPolicy", retryPolicy);
      Optional<ClientTls> tls = Optional.empty();
      if (trustedCaFile != null) {
        try {
          tls =
              Optional.of(
                  ClientTls.load(TlsFiles.trustOnly(new TlsFile("trustedCaFile", trustedCaFile))));
        } catch (TlsConfigurationException e) {
          arguments.add(e.getMessage());
        }
      }
      Optional<Authorization> authorization = Optional.empty();
      try {
        authorization = Authorization.ofOne(apiKey, bearerToken, credentials);
      } catch (CairnClientException e) {
        arguments.add(e.getMessage());
      }
      arguments.check();
      return new CairnClient(
          address,
          requestTimeout,
          retryPolicy,
          jitterSeed != null ? jitterSeed : JitterSeeds.fresh(),
          tls,
          authorization);
    }
  }
}
