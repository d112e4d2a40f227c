package io.cairn.broker.api;

import io.cairn.broker.BrokerInfo;
import io.cairn.broker.HostedPartition;
import io.cairn.broker.HostedPartitions;
import io.cairn.broker.partition.PartitionLogging;
import io.cairn.broker.topology.LeaderDirectory;
import io.cairn.engine.LedgerEngine;
import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.api.AccountBalance;
import io.cairn.protocol.api.AccountPlacement;
import io.cairn.protocol.api.AccountQuery;
import io.cairn.protocol.api.AccountQueryCodec;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.ResponseStatus;
import io.cairn.transport.MessagingService;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * {@code cairn-query-account}: an account's balance, read from the state of the partition this
 * broker leads, on its stream processor's thread between two turns. The leader's state may hold
 * effects of a batch not committed yet (see the partition's README): a balance is what the leader
 * has processed, not necessarily what is committed.
 *
 * <p>NOT_LEADER when this broker does not lead the partition; INVALID for an account placed on
 * another partition; PARTITION_UNAVAILABLE while no stream processor runs or a new leader still
 * replays the log (its state would miss committed effects, e.g. say an existing account is
 * unknown).
 */
public final class AccountQueryHandler implements MessagingService.RequestHandler {

  static final String OPERATION = "query";

  private final BrokerInfo broker;
  private final HostedPartitions partitions;
  private final LeaderDirectory leaders;
  private final AccountPlacement placement;
  private final BrokerApiMetrics metrics;

  public AccountQueryHandler(
      BrokerInfo broker,
      HostedPartitions partitions,
      LeaderDirectory leaders,
      BrokerApiMetrics metrics) {
    this.broker = Objects.requireNonNull(broker, "broker");
    this.partitions = Objects.requireNonNull(partitions, "partitions");
    this.leaders = Objects.requireNonNull(leaders, "leaders");
    this.placement = new AccountPlacement(broker.partitionCount());
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  @Override
  public CompletableFuture<byte[]> handle(int senderNodeId, byte[] payload) {
    return metrics.counted(OPERATION, answer(payload), AccountQueryCodec::encodeResponse);
  }

  private CompletableFuture<ApiResponse<AccountBalance>> answer(byte[] payload) {
    AccountQuery query;
    try {
      query = AccountQueryCodec.decodeRequest(payload);
    } catch (ProtocolException e) {
      return failed(ResponseStatus.INVALID, e.getMessage());
    }
    try (PartitionLogging.Scope ignored = PartitionLogging.enterPartition(query.partitionId())) {
      return answer(query);
    }
  }

  private CompletableFuture<ApiResponse<AccountBalance>> answer(AccountQuery query) {
    int partitionId = query.partitionId();
    if (partitionId > broker.partitionCount()) {
      return failed(
          ResponseStatus.INVALID,
          "Expected a partition id in [1, "
              + broker.partitionCount()
              + "], but was "
              + partitionId);
    }
    int owner = placement.partitionOf(query.accountId());
    if (owner != partitionId) {
      return failed(
          ResponseStatus.INVALID,
          "Expected account '"
              + query.accountId()
              + "' on partition "
              + partitionId
              + ", but it belongs to partition "
              + owner
              + " of "
              + broker.partitionCount());
    }
    Optional<HostedPartition> hosted = partitions.get(partitionId);
    if (hosted.isEmpty() || !hosted.get().isLeader()) {
      int leader = leaders.leaderOf(partitionId);
      return CompletableFuture.completedFuture(
          ApiResponse.notLeader(
              leader == broker.nodeId() ? ApiDescriptor.NO_NODE_ID : leader,
              "Expected the leader of partition "
                  + partitionId
                  + ", but node "
                  + broker.nodeId()
                  + (hosted.isEmpty() ? " does not host it" : " is " + hosted.get().role())));
    }
    HostedPartition partition = hosted.get();
    return partition
        .partition()
        .readProcessedState(
            db -> {
              LedgerEngine engine =
                  partition
                      .ledger()
                      .engine()
                      .orElseThrow(
                          () -> new IllegalStateException("no ledger engine runs right now"));
              return engine.state().balance(query.accountId());
            })
        .handle(
            (balance, error) -> {
              if (error != null) {
                return ApiResponse.<AccountBalance>failure(
                    ResponseStatus.PARTITION_UNAVAILABLE,
                    "Expected to read the state of partition "
                        + partitionId
                        + " on node "
                        + broker.nodeId()
                        + ", but "
                        + rootMessage(error)
                        + "; retry shortly");
              }
              return ApiResponse.ok(toBalance(balance));
            });
  }

  private static AccountBalance toBalance(OptionalLong balance) {
    return balance.isPresent()
        ? new AccountBalance(true, balance.getAsLong())
        : AccountBalance.notFound();
  }

  static String rootMessage(Throwable error) {
    Throwable cause = error;
    while (cause.getCause() != null
        && (cause instanceof CompletionException || cause instanceof ExecutionException)) {
      cause = cause.getCause();
    }
    return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
  }

  private static <T> CompletableFuture<ApiResponse<T>> failed(
      ResponseStatus status, String reason) {
    return CompletableFuture.completedFuture(ApiResponse.failure(status, reason));
  }
}
