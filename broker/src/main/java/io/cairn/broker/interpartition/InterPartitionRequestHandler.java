package io.cairn.broker.interpartition;

import io.cairn.broker.HostedPartition;
import io.cairn.broker.HostedPartitions;
import io.cairn.broker.interpartition.InterPartitionCodec.Status;
import io.cairn.broker.partition.PartitionLogging;
import io.cairn.broker.topology.LeaderDirectory;
import io.cairn.logstreams.WriteResult;
import io.cairn.protocol.ProtocolException;
import io.cairn.transport.MessagingService;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receiving end of {@link TransportInterPartitionSender}: writes an inter-partition command to
 * the log of the target partition when this broker leads it ({@code InterPartitionReceiver}), and
 * answers what happened.
 */
public final class InterPartitionRequestHandler implements MessagingService.RequestHandler {

  private static final Logger LOG = LoggerFactory.getLogger(InterPartitionRequestHandler.class);

  private final HostedPartitions partitions;
  private final LeaderDirectory leaders;
  private final InterPartitionMetrics metrics;

  public InterPartitionRequestHandler(
      HostedPartitions partitions, LeaderDirectory leaders, InterPartitionMetrics metrics) {
    this.partitions = Objects.requireNonNull(partitions, "partitions");
    this.leaders = Objects.requireNonNull(leaders, "leaders");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  @Override
  public CompletableFuture<byte[]> handle(int senderNodeId, byte[] payload) {
    return CompletableFuture.completedFuture(answer(senderNodeId, payload));
  }

  private byte[] answer(int senderNodeId, byte[] payload) {
    InterPartitionCodec.Request request;
    try {
      request = InterPartitionCodec.decodeRequest(payload);
    } catch (ProtocolException e) {
      metrics.received("invalid");
      LOG.debug(
          "Node {} sent an undecodable inter-partition command: {}", senderNodeId, e.getMessage());
      return InterPartitionCodec.encodeResponse(Status.INVALID, -1);
    }
    try (PartitionLogging.Scope ignored =
        PartitionLogging.enterPartition(request.targetPartitionId())) {
      return answer(senderNodeId, request);
    }
  }

  private byte[] answer(int senderNodeId, InterPartitionCodec.Request request) {
    int partitionId = request.targetPartitionId();
    Optional<HostedPartition> target = partitions.get(partitionId);
    if (target.isEmpty() || !target.get().isLeader()) {
      metrics.received("not_leader");
      return InterPartitionCodec.encodeResponse(Status.NOT_LEADER, leaders.leaderOf(partitionId));
    }
    WriteResult result;
    try {
      result = target.get().receiver().receive(request.command());
    } catch (IllegalArgumentException e) {
      metrics.received("invalid");
      LOG.debug(
          "Refused an inter-partition command from node {}: {}", senderNodeId, e.getMessage());
      return InterPartitionCodec.encodeResponse(Status.INVALID, -1);
    }
    if (result.isWritten()) {
      metrics.received("written");
      return InterPartitionCodec.encodeResponse(Status.WRITTEN, -1);
    }
    if (result instanceof WriteResult.NotLeader) {
      metrics.received("not_leader");
      return InterPartitionCodec.encodeResponse(Status.NOT_LEADER, leaders.leaderOf(partitionId));
    }
    if (result instanceof WriteResult.Backpressure) {
      metrics.received("backpressure");
      return InterPartitionCodec.encodeResponse(Status.BACKPRESSURE, -1);
    }
    metrics.received("invalid");
    return InterPartitionCodec.encodeResponse(Status.INVALID, -1);
  }
}
