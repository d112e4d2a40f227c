package io.cairn.gateway;

import io.cairn.backupapi.CheckpointPattern;
import io.cairn.protocol.AccountIntent;
import io.cairn.protocol.AccountValue;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.CheckpointValue;
import io.cairn.protocol.DepositIntent;
import io.cairn.protocol.DepositValue;
import io.cairn.protocol.Intent;
import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.RecordValue;
import io.cairn.protocol.RejectionType;
import io.cairn.protocol.TransferIntent;
import io.cairn.protocol.TransferValue;
import io.cairn.protocol.ValueDescriptor;
import io.cairn.protocol.api.AccountBalance;
import io.cairn.protocol.api.AccountIdRule;
import io.cairn.protocol.api.AccountPlacement;
import io.cairn.protocol.api.AccountQuery;
import io.cairn.protocol.api.AccountQueryCodec;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.BackupCodec;
import io.cairn.protocol.api.BackupEntries;
import io.cairn.protocol.api.BackupRequest;
import io.cairn.protocol.api.BackupStatusEntry;
import io.cairn.protocol.api.BrokerTopology;
import io.cairn.protocol.api.CommandCodec;
import io.cairn.protocol.api.CommandRequest;
import io.cairn.protocol.api.ExportingCodec;
import io.cairn.protocol.api.ExportingOperation;
import io.cairn.protocol.api.NodeRestoreState;
import io.cairn.protocol.api.PartitionReplica;
import io.cairn.protocol.api.ReplicaHealth;
import io.cairn.protocol.api.ReplicaRole;
import io.cairn.protocol.api.ResponseStatus;
import io.cairn.protocol.api.RestoreCodec;
import io.cairn.protocol.api.RestorePointEntry;
import io.cairn.protocol.api.RestorePointsCodec;
import io.cairn.protocol.api.RestoreRequest;
import io.cairn.protocol.api.TopologyCodec;
import io.cairn.scheduler.Clock;
import io.cairn.transport.MemberAddress;
import io.cairn.transport.TransportConfig;
import io.cairn.transport.TransportTls;
import io.cairn.transport.netty.NettyMessagingService;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A broker that answers the agreed gateway messages (io.cairn.protocol.api) over a real {@link
 * NettyMessagingService} on 127.0.0.1, and enforces their contract: every request is decoded with
 * the codecs (a malformed one is answered INVALID and counted), commands must come with request ids
 * of -1, for a partition this broker leads, for an account placed on it. It keeps the ledger and
 * checkpoints in the shared {@link FakeCluster}.
 *
 * <p>Faults on demand: answer a partition's commands or account queries with NOT_LEADER or any
 * failure status, reject the next command, never answer a message type, answer garbage, or be down
 * ({@link #stop()}).
 */
public final class FakeBroker implements AutoCloseable {
  private final int nodeId;
  private final FakeCluster cluster;
  private volatile NettyMessagingService messaging;
  private final Optional<TransportTls> tls;
  private final Map<String, Boolean> crashing = new ConcurrentHashMap<>();
  private final ExecutorService executor;
  private final Map<Integer, PartitionReplica> replicas = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
  private final Map<Integer, ApiResponse<Record>> commandFailures = new ConcurrentHashMap<>();
  private final Map<Integer, ApiResponse<AccountBalance>> queryFailures = new ConcurrentHashMap<>();
  private final Map<String, Boolean> hanging = new ConcurrentHashMap<>();
  private final Map<String, Boolean> garbage = new ConcurrentHashMap<>();
  private final AtomicInteger invalidRequests = new AtomicInteger();
  private volatile Record nextRejection;
  private volatile ApiResponse<BackupEntries> backupFailure;
  private volatile boolean exportingPaused;
  private volatile NodeRestoreState.Phase restorePhase = NodeRestoreState.Phase.PROCESSING;
  private volatile long[] resolvesTo = {1, 0};
  private final List<RestoreRequest> restoreStarts = new CopyOnWriteArrayList<>();
  private final List<Integer> restorePointLimits = new CopyOnWriteArrayList<>();
  private volatile List<RestorePointEntry> restorePoints = List.of();
  private volatile boolean stopped;

  public FakeBroker(int nodeId, FakeCluster cluster) {
    this(nodeId, cluster, Optional.empty());
  }

  /** A broker whose transport is mutual TLS with {@code tls}. */
  public FakeBroker(int nodeId, FakeCluster cluster, Optional<TransportTls> tls) {
    this.nodeId = nodeId;
    this.cluster = cluster;
    this.tls = tls;
    this.executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread thread = new Thread(r, "fake-broker-" + nodeId);
              thread.setDaemon(true);
              return thread;
            });
    this.messaging = startMessaging(0);
  }

  private NettyMessagingService startMessaging(int port) {
    NettyMessagingService service =
        new NettyMessagingService(
            TransportConfig.builder(nodeId)
                .bindHost("127.0.0.1")
                .bindPort(port)
                .ioThreadCount(1)
                .build(),
            Clock.system(),
            new SimpleMeterRegistry(),
            tls);
    service.start();
    this.messaging = service;
    register(ApiDescriptor.TYPE_COMMAND, this::command);
    register(ApiDescriptor.TYPE_QUERY_ACCOUNT, this::queryAccount);
    register(ApiDescriptor.TYPE_TOPOLOGY, this::topology);
    register(ApiDescriptor.TYPE_BACKUP, this::backup);
    register(ApiDescriptor.TYPE_EXPORTING, this::exporting);
    register(ApiDescriptor.TYPE_RESTORE, this::restore);
    register(ApiDescriptor.TYPE_RESTORE_POINTS, this::restorePoints);
    return service;
  }

  public int nodeId() {
    return nodeId;
  }

  public MemberAddress address() {
    return messaging.localAddress();
  }

  /** This broker leads {@code partitionId} in {@code term}. */
  public FakeBroker lead(int partitionId, long term) {
    replicas.put(
        partitionId,
        new PartitionReplica(partitionId, ReplicaRole.LEADER, term, ReplicaHealth.HEALTHY, ""));
    return this;
  }

  /** This broker follows {@code partitionId} in {@code term}. */
  public FakeBroker follow(int partitionId, long term) {
    replicas.put(
        partitionId,
        new PartitionReplica(partitionId, ReplicaRole.FOLLOWER, term, ReplicaHealth.HEALTHY, ""));
    return this;
  }

  /** Commands for {@code partitionId} get {@code failure} instead of being processed. */
  public void failCommands(int partitionId, ApiResponse<Record> failure) {
    commandFailures.put(partitionId, failure);
  }

  /** Account queries for {@code partitionId} get {@code failure} instead of an answer. */
  public void failQueries(int partitionId, ApiResponse<AccountBalance> failure) {
    queryFailures.put(partitionId, failure);
  }

  /** The next command is answered with this rejection. */
  public void rejectNext(RejectionType type, String reason) {
    nextRejection =
        new Record(
            RecordMetadata.builder().rejection(AccountIntent.CREATE, type, reason).build(),
            new AccountValue("x", 0));
  }

  public void failBackupQueries(ResponseStatus status, String reason) {
    backupFailure = ApiResponse.failure(status, reason);
  }

  /** Requests of {@code type} are never answered. */
  public void hang(String type) {
    hanging.put(type, true);
  }

  /**
   * The next request of {@code type} is handled (its effect applied), but then the broker restarts
   * its transport on the same port before answering, so the connection breaks.
   */
  public void crashAfterNext(String type) {
    crashing.put(type, true);
  }

  /** Requests of {@code type} are answered with bytes no codec accepts. */
  public void answerGarbage(String type) {
    garbage.put(type, true);
  }

  /** Clears every fault and the counters (roles stay). */
  public void heal() {
    commandFailures.clear();
    queryFailures.clear();
    crashing.clear();
    hanging.clear();
    garbage.clear();
    nextRejection = null;
    backupFailure = null;
    requests.clear();
    invalidRequests.set(0);
    exportingPaused = false;
  }

  public int requests(String type) {
    AtomicInteger count = requests.get(type);
    return count == null ? 0 : count.get();
  }

  /** Requests that broke the message contract. */
  public int invalidRequests() {
    return invalidRequests.get();
  }

  public boolean exportingPaused() {
    return exportingPaused;
  }

  /** Goes down: closes the transport, so connections are refused. */
  public void stop() {
    stopped = true;
    messaging.close();
  }

  @Override
  public void close() {
    if (!stopped) {
      stop();
    }
    executor.shutdownNow();
  }

  private void restart() {
    NettyMessagingService old = messaging;
    int port = old.localAddress().port();
    old.close();
    startMessaging(port);
  }

  private void register(String type, Function<byte[], byte[]> handler) {
    messaging.registerRequestHandler(
        type,
        (sender, payload) -> {
          requests.computeIfAbsent(type, t -> new AtomicInteger()).incrementAndGet();
          if (hanging.containsKey(type)) {
            return new CompletableFuture<>();
          }
          if (crashing.remove(type) != null) {
            handler.apply(payload);
            Thread restarter = new Thread(this::restart, "fake-broker-restart-" + nodeId);
            restarter.setDaemon(true);
            restarter.start();
            return new CompletableFuture<>();
          }
          if (garbage.containsKey(type)) {
            return CompletableFuture.completedFuture(new byte[] {1, 0, 42});
          }
          return CompletableFuture.completedFuture(handler.apply(payload));
        },
        executor);
  }

  private byte[] command(byte[] payload) {
    CommandRequest request;
    try {
      request = CommandCodec.decodeRequest(payload);
    } catch (ProtocolException e) {
      return CommandCodec.encodeResponse(invalid(e.getMessage()));
    }
    int partition = request.partitionId();
    RecordMetadata meta = request.command().metadata();
    if (meta.requestId() != -1 || meta.requestStreamId() != -1) {
      return CommandCodec.encodeResponse(invalid("Expected request ids -1 from the gateway"));
    }
    ApiResponse<Record> failure = commandFailures.get(partition);
    if (failure != null) {
      return CommandCodec.encodeResponse(failure);
    }
    PartitionReplica replica = replicas.get(partition);
    if (replica == null || replica.role() != ReplicaRole.LEADER) {
      return CommandCodec.encodeResponse(
          ApiResponse.notLeader(-1, "broker " + nodeId + " does not lead partition " + partition));
    }
    String placement = placementViolation(request);
    if (placement != null) {
      return CommandCodec.encodeResponse(invalid(placement));
    }
    Record rejection = nextRejection;
    if (rejection != null) {
      nextRejection = null;
      return CommandCodec.encodeResponse(ApiResponse.ok(rejection));
    }
    return CommandCodec.encodeResponse(ApiResponse.ok(process(partition, request.command())));
  }

  private <T> ApiResponse<T> invalid(String reason) {
    invalidRequests.incrementAndGet();
    return ApiResponse.failure(ResponseStatus.INVALID, reason);
  }

  private String placementViolation(CommandRequest request) {
    AccountPlacement placement = new AccountPlacement(cluster.partitionCount);
    RecordValue value = request.command().value();
    String accountId;
    if (value instanceof AccountValue account) {
      accountId = account.accountId();
    } else if (value instanceof DepositValue deposit) {
      accountId = deposit.accountId();
    } else if (value instanceof TransferValue transfer) {
      if (transfer.sourcePartitionId() != ValueDescriptor.NO_PARTITION_ID
          || transfer.targetPartitionId() != ValueDescriptor.NO_PARTITION_ID) {
        return "Expected partition ids -1 in a TRANSFER CREATE from the gateway";
      }
      accountId = transfer.fromAccountId();
    } else {
      return null;
    }
    if (!AccountIdRule.isValid(accountId)) {
      return "Expected a valid account id from the gateway, but was " + accountId;
    }
    int owner = placement.partitionOf(accountId);
    return owner == request.partitionId()
        ? null
        : "Expected account "
            + accountId
            + " on partition "
            + request.partitionId()
            + ", but it belongs to partition "
            + owner;
  }

  private Record process(int partition, Record command) {
    Intent intent = command.metadata().intent();
    long position = cluster.nextPosition(partition);
    if (intent == AccountIntent.CREATE) {
      AccountValue account = (AccountValue) command.value();
      if (cluster.balance(partition, account.accountId()) != null) {
        return reject(
            command,
            RejectionType.ALREADY_EXISTS,
            "Expected a new account id, but '" + account.accountId() + "' exists (ACCOUNT CREATE)");
      }
      cluster.setBalance(partition, account.accountId(), 0);
      return event(AccountIntent.CREATED, position, position, account);
    }
    if (intent == DepositIntent.DEPOSIT) {
      DepositValue deposit = (DepositValue) command.value();
      Long balance = cluster.balance(partition, deposit.accountId());
      if (balance == null) {
        return reject(
            command,
            RejectionType.NOT_FOUND,
            "Expected an existing account, but '" + deposit.accountId() + "' does not exist");
      }
      cluster.setBalance(partition, deposit.accountId(), balance + deposit.amount());
      return event(DepositIntent.DEPOSITED, position, position, deposit);
    }
    if (intent == TransferIntent.CREATE) {
      return transfer(partition, position, command);
    }
    if (intent == CheckpointIntent.CREATE) {
      long id = ((CheckpointValue) command.value()).checkpointId();
      long current = cluster.checkpoint(partition);
      if (id <= current) {
        return event(CheckpointIntent.IGNORED, position, -1, new CheckpointValue(current, -1, -1));
      }
      cluster.setCheckpoint(partition, id);
      cluster.addBackup(FakeCluster.completed(nodeId, partition, id, position));
      return event(
          CheckpointIntent.CREATED,
          position,
          -1,
          new CheckpointValue(id, position, 1_700_000_000_000L, new byte[32]));
    }
    return reject(command, RejectionType.INVALID_ARGUMENT, "unsupported " + intent);
  }

  /**
   * Like the engine: the source partition checks the source account and, for a same-partition
   * transfer, the target; a cross-partition transfer to an unknown target is accepted (DEBITED) and
   * refunded at once (the engine's CREDIT REFUSED, TRANSFER REFUNDED), counted by {@link
   * FakeCluster#refunds()}.
   */
  private Record transfer(int partition, long position, Record command) {
    TransferValue transfer = (TransferValue) command.value();
    AccountPlacement placement = new AccountPlacement(cluster.partitionCount);
    int target = placement.partitionOf(transfer.toAccountId());
    Long from = cluster.balance(partition, transfer.fromAccountId());
    Long to = cluster.balance(target, transfer.toAccountId());
    if (from == null || (to == null && target == partition)) {
      return reject(
          command,
          RejectionType.NOT_FOUND,
          "Expected existing accounts, but '"
              + (from == null ? transfer.fromAccountId() : transfer.toAccountId())
              + "' does not exist (TRANSFER CREATE)");
    }
    if (from < transfer.amount()) {
      return reject(
          command,
          RejectionType.INSUFFICIENT_FUNDS,
          "Expected balance of "
              + "fromAccountId '"
              + transfer.fromAccountId()
              + "' >= amount "
              + transfer.amount()
              + ", but the balance is "
              + from
              + " (TRANSFER CREATE)");
    }
    if (to == null) {
      cluster.refund();
    } else {
      cluster.setBalance(partition, transfer.fromAccountId(), from - transfer.amount());
      cluster.setBalance(target, transfer.toAccountId(), to + transfer.amount());
    }
    TransferValue done =
        new TransferValue(
            transfer.fromAccountId(), transfer.toAccountId(), transfer.amount(), partition, target);
    return event(
        target == partition ? TransferIntent.COMPLETED : TransferIntent.DEBITED,
        position,
        (long) partition << 48 | position,
        done);
  }

  private static Record event(Intent intent, long position, long key, RecordValue value) {
    return new Record(
        RecordMetadata.builder().event(intent).position(position).key(key).build(), value);
  }

  private static Record reject(Record command, RejectionType type, String why) {
    return new Record(
        RecordMetadata.builder().rejection(command.metadata().intent(), type, why).build(),
        command.value());
  }

  private byte[] queryAccount(byte[] payload) {
    AccountQuery query;
    try {
      query = AccountQueryCodec.decodeRequest(payload);
    } catch (ProtocolException e) {
      return AccountQueryCodec.encodeResponse(invalid(e.getMessage()));
    }
    ApiResponse<AccountBalance> failure = queryFailures.get(query.partitionId());
    if (failure != null) {
      return AccountQueryCodec.encodeResponse(failure);
    }
    PartitionReplica replica = replicas.get(query.partitionId());
    if (replica == null || replica.role() != ReplicaRole.LEADER) {
      return AccountQueryCodec.encodeResponse(ApiResponse.notLeader(-1, "not the leader"));
    }
    if (new AccountPlacement(cluster.partitionCount).partitionOf(query.accountId())
        != query.partitionId()) {
      return AccountQueryCodec.encodeResponse(invalid("account on another partition"));
    }
    Long balance = cluster.balance(query.partitionId(), query.accountId());
    return AccountQueryCodec.encodeResponse(
        ApiResponse.ok(
            balance == null ? AccountBalance.notFound() : new AccountBalance(true, balance)));
  }

  private byte[] topology(byte[] payload) {
    try {
      TopologyCodec.decodeRequest(payload);
    } catch (ProtocolException e) {
      return TopologyCodec.encodeResponse(invalid(e.getMessage()));
    }
    List<PartitionReplica> hosted = new ArrayList<>(new TreeMap<>(replicas).values());
    return TopologyCodec.encodeResponse(
        ApiResponse.ok(
            new BrokerTopology(
                nodeId,
                FakeCluster.CLUSTER_ID,
                FakeCluster.VERSION,
                cluster.partitionCount,
                2,
                hosted)));
  }

  private byte[] backup(byte[] payload) {
    BackupRequest request;
    try {
      request = BackupCodec.decodeRequest(payload);
    } catch (ProtocolException e) {
      return BackupCodec.encodeResponse(invalid(e.getMessage()));
    }
    if (backupFailure != null) {
      return BackupCodec.encodeResponse(backupFailure);
    }
    List<BackupStatusEntry> all = cluster.backups();
    return switch (request.operation()) {
      case STATUS ->
          BackupCodec.encodeResponse(
              ApiResponse.ok(
                  new BackupEntries(
                      all.stream().filter(e -> e.checkpointId() == request.checkpointId()).toList(),
                      "")));
      case DELETE ->
          cluster.removeBackups(request.checkpointId())
              ? BackupCodec.encodeResponse(ApiResponse.ok(BackupEntries.none()))
              : BackupCodec.encodeResponse(
                  ApiResponse.failure(
                      ResponseStatus.CONFLICT,
                      "Expected no backup " + request.checkpointId() + " in progress, but one is"));
      case LIST -> list(request, all);
    };
  }

  private byte[] list(BackupRequest request, List<BackupStatusEntry> all) {
    CheckpointPattern pattern;
    try {
      pattern = CheckpointPattern.parse(request.pattern());
    } catch (IllegalArgumentException e) {
      return BackupCodec.encodeResponse(invalid(e.getMessage()));
    }
    List<BackupStatusEntry> matching =
        all.stream().filter(e -> pattern.matches(e.checkpointId())).toList();
    int from = request.pageToken().isEmpty() ? 0 : Integer.parseInt(request.pageToken());
    int to = Math.min(matching.size(), from + request.pageSize());
    return BackupCodec.encodeResponse(
        ApiResponse.ok(
            new BackupEntries(
                matching.subList(from, to), to < matching.size() ? Integer.toString(to) : "")));
  }

  private byte[] exporting(byte[] payload) {
    ExportingOperation operation;
    try {
      operation = ExportingCodec.decodeRequest(payload);
    } catch (ProtocolException e) {
      return ExportingCodec.encodeResponse(invalid(e.getMessage()));
    }
    if (operation == ExportingOperation.PAUSE) {
      exportingPaused = true;
    } else if (operation == ExportingOperation.RESUME) {
      exportingPaused = false;
    }
    return ExportingCodec.encodeResponse(ApiResponse.ok(exportingPaused));
  }

  /** Waits in restore mode; a start of {@code latest} or a time resolves to backup and point. */
  public void awaitRestore(long backupId, long restorePointId) {
    resolvesTo = new long[] {backupId, restorePointId};
    restorePhase = NodeRestoreState.Phase.WAITING;
  }

  /** The restores this broker was asked to start, in order. */
  public List<RestoreRequest> restoreStarts() {
    return List.copyOf(restoreStarts);
  }

  private byte[] restore(byte[] payload) {
    RestoreRequest request;
    try {
      request = RestoreCodec.decodeRequest(payload);
    } catch (ProtocolException e) {
      return RestoreCodec.encodeResponse(invalid(e.getMessage()));
    }
    if (request.isStart()) {
      if (restorePhase != NodeRestoreState.Phase.WAITING) {
        return RestoreCodec.encodeResponse(
            ApiResponse.failure(ResponseStatus.CONFLICT, "node " + nodeId + " " + restorePhase));
      }
      restoreStarts.add(request);
      restorePhase = NodeRestoreState.Phase.RESTORING;
      long backupId = request.kind() == RestoreRequest.Kind.BACKUP_ID ? request.value() : 0;
      long pointId = request.kind() == RestoreRequest.Kind.CHECKPOINT_ID ? request.value() : 0;
      if (backupId == 0 && pointId == 0) {
        backupId = resolvesTo[0];
        pointId = resolvesTo[1];
      }
      resolvesTo = new long[] {backupId == 0 ? resolvesTo[0] : backupId, pointId};
    }
    boolean started = !restoreStarts.isEmpty();
    return RestoreCodec.encodeResponse(
        ApiResponse.ok(
            new NodeRestoreState(
                nodeId,
                restorePhase,
                started ? restoreStarts.get(0).describe() : "",
                started ? resolvesTo[0] : 0,
                started ? resolvesTo[1] : 0,
                restorePhase == NodeRestoreState.Phase.PROCESSING ? "it holds data" : "",
                0,
                0,
                List.of())));
  }

  /** What this broker lists as the archive's restore points, newest first. */
  public void restorePoints(List<RestorePointEntry> points) {
    restorePoints = List.copyOf(points);
  }

  /** The limits this broker was asked to list restore points up to, in order. */
  public List<Integer> restorePointLimits() {
    return List.copyOf(restorePointLimits);
  }

  private byte[] restorePoints(byte[] payload) {
    int limit;
    try {
      limit = RestorePointsCodec.decodeRequest(payload);
    } catch (ProtocolException e) {
      return RestorePointsCodec.encodeResponse(invalid(e.getMessage()));
    }
    restorePointLimits.add(limit);
    return RestorePointsCodec.encodeResponse(
        ApiResponse.ok(restorePoints.stream().limit(limit).toList()));
  }
}
