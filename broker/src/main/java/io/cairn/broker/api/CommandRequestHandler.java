package io.cairn.broker.api;

import io.cairn.broker.BrokerInfo;
import io.cairn.broker.HostedPartition;
import io.cairn.broker.HostedPartitions;
import io.cairn.broker.api.CommandResponseRouter.PendingCommand;
import io.cairn.broker.api.limit.CommandLimiter;
import io.cairn.broker.api.limit.CommandLimiters;
import io.cairn.broker.partition.PartitionHealthReport;
import io.cairn.broker.partition.PartitionHealthStatus;
import io.cairn.broker.partition.PartitionLogging;
import io.cairn.broker.topology.LeaderDirectory;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.CheckpointIntent;
import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.Record;
import io.cairn.protocol.RecordMetadata;
import io.cairn.protocol.ValueType;
import io.cairn.protocol.api.ApiDescriptor;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.CommandCodec;
import io.cairn.protocol.api.CommandRequest;
import io.cairn.protocol.api.ResponseStatus;
import io.cairn.transport.MessagingService;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * {@code cairn-command}: writes a client's command to the log of the partition this broker leads,
 * and answers with the response the leader's stream processor produces for it (through the {@link
 * CommandResponseRouter}).
 *
 * <table>
 *   <caption>Answers</caption>
 *   <tr><th>status</th><th>when</th></tr>
 *   <tr><td>OK</td><td>the EVENT or REJECTION the processor answered with</td></tr>
 *   <tr><td>NOT_LEADER</td><td>this broker does not host or lead the partition (with the leader it
 *       knows of, or -1)</td></tr>
 *   <tr><td>BACKPRESSURE</td><td>the partition's limit of client commands in flight is reached
 *       ({@link CommandLimiter}, {@code processing.commandLimit.*}; answered at once, nothing
 *       written), {@code processing.maxInFlightCommands} wait on the broker already, or the log
 *       refused the write for now</td></tr>
 *   <tr><td>PARTITION_UNAVAILABLE</td><td>the partition is FAILED, or the broker is shutting
 *       down</td></tr>
 *   <tr><td>TIMEOUT</td><td>no response in {@code processing.commandTimeout}, or the leadership
 *       ended first: the outcome is unknown</td></tr>
 *   <tr><td>INVALID</td><td>undecodable, a partition that does not exist, a command clients may
 *       not send ({@code CREDIT}: inter-partition only; {@code CHECKPOINT
 *       CONFIRM_BACKUP} and {@code CONFIRM_DELETION}: the partition leader's), or too large for
 *       the log</td></tr>
 * </table>
 *
 * <p><b>Admission.</b> A client command is admitted by its partition's {@link CommandLimiter}
 * before it is written; the permit goes with the command to the {@link CommandResponseRouter},
 * which releases it with the answer. {@code CHECKPOINT} commands (the gateway's backups) are not
 * counted: a backup must not fail because clients filled the partition's budget; the log's own
 * bound still applies to them.
 *
 * <p>The command is written with this broker's request ids; its position, source position, key,
 * timestamp and checkpoint id are cleared (a client cannot stamp a checkpoint id and so cannot move
 * the partition's checkpoint; {@code CHECKPOINT CREATE} is the way to take one).
 */
public final class CommandRequestHandler implements MessagingService.RequestHandler {

  static final String OPERATION = "command";

  private final BrokerInfo broker;
  private final HostedPartitions partitions;
  private final LeaderDirectory leaders;
  private final CommandResponseRouter router;
  private final CommandLimiters limiters;
  private final Supplier<Optional<String>> refusal;
  private final BrokerApiMetrics metrics;

  /**
   * @param refusal why the broker takes no command now (it is shutting down, or a restored cluster
   *     waits for its digest checks); empty while it takes them
   */
  public CommandRequestHandler(
      BrokerInfo broker,
      HostedPartitions partitions,
      LeaderDirectory leaders,
      CommandResponseRouter router,
      CommandLimiters limiters,
      Supplier<Optional<String>> refusal,
      BrokerApiMetrics metrics) {
    this.broker = Objects.requireNonNull(broker, "broker");
    this.partitions = Objects.requireNonNull(partitions, "partitions");
    this.leaders = Objects.requireNonNull(leaders, "leaders");
    this.router = Objects.requireNonNull(router, "router");
    this.limiters = Objects.requireNonNull(limiters, "limiters");
    this.refusal = Objects.requireNonNull(refusal, "refusal");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  @Override
  public CompletableFuture<byte[]> handle(int senderNodeId, byte[] payload) {
    return metrics.counted(OPERATION, answer(payload), CommandCodec::encodeResponse);
  }

  private CompletableFuture<ApiResponse<Record>> answer(byte[] payload) {
    CommandRequest request;
    try {
      request = CommandCodec.decodeRequest(payload);
    } catch (ProtocolException e) {
      return done(ResponseStatus.INVALID, e.getMessage());
    }
    try (PartitionLogging.Scope ignored = PartitionLogging.enterPartition(request.partitionId())) {
      return answer(request);
    }
  }

  private CompletableFuture<ApiResponse<Record>> answer(CommandRequest request) {
    int partitionId = request.partitionId();
    Optional<String> refused = refusal.get();
    if (refused.isPresent()) {
      return done(ResponseStatus.PARTITION_UNAVAILABLE, refused.get());
    }
    if (partitionId > broker.partitionCount()) {
      return done(
          ResponseStatus.INVALID,
          "Expected a partition id in [1, "
              + broker.partitionCount()
              + "], but was "
              + partitionId
              + " (cluster '"
              + broker.clusterId()
              + "')");
    }
    Optional<HostedPartition> hosted = partitions.get(partitionId);
    if (hosted.isEmpty()) {
      return CompletableFuture.completedFuture(
          ApiResponse.notLeader(
              leaders.leaderOf(partitionId),
              "Expected a broker hosting partition "
                  + partitionId
                  + ", but node "
                  + broker.nodeId()
                  + " does not host it"));
    }
    HostedPartition partition = hosted.get();
    PartitionHealthReport health = partition.health();
    if (health.status() == PartitionHealthStatus.FAILED) {
      return done(
          ResponseStatus.PARTITION_UNAVAILABLE,
          "Expected partition "
              + partitionId
              + " to process commands, but it FAILED on node "
              + broker.nodeId()
              + ": "
              + health.reason());
    }
    if (!partition.isLeader()) {
      int leader = partition.partition().leaderId();
      return CompletableFuture.completedFuture(
          ApiResponse.notLeader(
              leader == broker.nodeId() ? ApiDescriptor.NO_NODE_ID : Math.max(leader, -1),
              "Expected the leader of partition "
                  + partitionId
                  + ", but node "
                  + broker.nodeId()
                  + " is "
                  + partition.role()));
    }
    String refusal = refusal(request.command());
    if (refusal != null) {
      return done(ResponseStatus.INVALID, refusal + " (partition " + partitionId + ")");
    }
    return write(partition, request.command());
  }

  private CompletableFuture<ApiResponse<Record>> write(HostedPartition partition, Record command) {
    int partitionId = partition.partitionId();
    Optional<CommandLimiter> limiter =
        command.metadata().valueType() == ValueType.CHECKPOINT
            ? Optional.empty()
            : limiters.of(partitionId);
    CommandLimiter.Permit permit;
    if (limiter.isPresent()) {
      Optional<CommandLimiter.Permit> admitted = limiter.get().tryAcquire();
      if (admitted.isEmpty()) {
        return done(ResponseStatus.BACKPRESSURE, overLimit(limiter.get()));
      }
      permit = admitted.get();
    } else {
      permit = CommandLimiter.Permit.UNLIMITED;
    }
    Optional<PendingCommand> slot = router.register(partitionId, partition.term(), permit);
    if (slot.isEmpty() && router.isRefusingNewCommands()) {
      return done(
          ResponseStatus.PARTITION_UNAVAILABLE,
          "Expected node " + broker.nodeId() + " to take commands, but it is shutting down");
    }
    if (slot.isEmpty()) {
      return done(
          ResponseStatus.BACKPRESSURE,
          "Expected fewer commands in flight on node "
              + broker.nodeId()
              + ", but "
              + router.inFlight()
              + " wait for responses (processing.maxInFlightCommands); retry later");
    }
    PendingCommand pending = slot.get();
    Record record =
        new Record(
            RecordMetadata.builder()
                .command(command.metadata().intent())
                .requestId(pending.requestId())
                .requestStreamId(router.requestStreamId())
                .build(),
            command.value());
    WriteResult result;
    try {
      result = partition.partition().logStream().writer().tryWrite(record);
    } catch (ProtocolException | IllegalArgumentException e) {
      router.complete(
          pending,
          ApiResponse.failure(
              ResponseStatus.INVALID,
              "Expected an encodable command, but "
                  + e.getMessage()
                  + " (partition "
                  + partitionId
                  + ")"));
      return pending.future();
    }
    if (!result.isWritten()) {
      router.complete(pending, refused(partition, result));
    }
    return pending.future();
  }

  private String overLimit(CommandLimiter limiter) {
    return "Expected fewer than "
        + limiter.limit()
        + " commands in flight on partition "
        + limiter.partitionId()
        + ", but "
        + limiter.inFlight()
        + " are (node "
        + broker.nodeId()
        + "; the limit follows the partition's latency); retry later";
  }

  private ApiResponse<Record> refused(HostedPartition partition, WriteResult result) {
    int partitionId = partition.partitionId();
    if (result instanceof WriteResult.NotLeader) {
      return ApiResponse.notLeader(
          ApiDescriptor.NO_NODE_ID,
          "Expected the leader of partition "
              + partitionId
              + ", but node "
              + broker.nodeId()
              + " stopped leading it");
    }
    if (result instanceof WriteResult.Backpressure backpressure) {
      return ApiResponse.failure(
          ResponseStatus.BACKPRESSURE,
          "Expected room in the log of partition "
              + partitionId
              + ", but "
              + backpressure.inFlightAppends()
              + " of "
              + backpressure.maxInFlightAppends()
              + " appends are not committed yet; retry later");
    }
    WriteResult.TooLarge tooLarge = (WriteResult.TooLarge) result;
    return ApiResponse.failure(
        ResponseStatus.INVALID,
        "Expected a command of at most "
            + tooLarge.maxBatchSizeBytes()
            + " bytes, but it has "
            + tooLarge.batchSizeBytes()
            + " (partition "
            + partitionId
            + ")");
  }

  /** Why clients may not send {@code command}, or null. */
  static String refusal(Record command) {
    if (command.metadata().valueType() == ValueType.CREDIT) {
      return "Expected a client command, but CREDIT "
          + command.metadata().intent().name()
          + " is sent only between partitions";
    }
    if (command.metadata().intent() == CheckpointIntent.CONFIRM_BACKUP
        || command.metadata().intent() == CheckpointIntent.CONFIRM_DELETION) {
      return "Expected a client command, but CHECKPOINT "
          + command.metadata().intent().name()
          + " is written only by the partition's leader; take a backup with CHECKPOINT CREATE,"
          + " delete one with CHECKPOINT DELETE_BACKUP";
    }
    return null;
  }

  private static CompletableFuture<ApiResponse<Record>> done(ResponseStatus status, String reason) {
    return CompletableFuture.completedFuture(ApiResponse.failure(status, reason));
  }
}
