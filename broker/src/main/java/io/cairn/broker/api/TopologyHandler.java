package io.cairn.broker.api;

import io.cairn.broker.BrokerInfo;
import io.cairn.broker.HostedPartition;
import io.cairn.broker.HostedPartitions;
import io.cairn.broker.partition.PartitionHealthReport;
import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.api.ApiResponse;
import io.cairn.protocol.api.BrokerTopology;
import io.cairn.protocol.api.PartitionReplica;
import io.cairn.protocol.api.ReplicaHealth;
import io.cairn.protocol.api.ReplicaRole;
import io.cairn.protocol.api.ResponseStatus;
import io.cairn.protocol.api.TopologyCodec;
import io.cairn.transport.MessagingService;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * {@code cairn-topology}: this broker's node id, cluster id, version, partition count, replication
 * factor and, for every partition it hosts, its role, the term in which it took it, and its health.
 * Gateways route with it; brokers learn the leaders of partitions they do not host from it.
 */
public final class TopologyHandler implements MessagingService.RequestHandler {

  static final String OPERATION = "topology";

  private final BrokerInfo broker;
  private final HostedPartitions partitions;
  private final BrokerApiMetrics metrics;

  public TopologyHandler(BrokerInfo broker, HostedPartitions partitions, BrokerApiMetrics metrics) {
    this.broker = Objects.requireNonNull(broker, "broker");
    this.partitions = Objects.requireNonNull(partitions, "partitions");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  @Override
  public CompletableFuture<byte[]> handle(int senderNodeId, byte[] payload) {
    ApiResponse<BrokerTopology> response;
    try {
      TopologyCodec.decodeRequest(payload);
      response = ApiResponse.ok(topology(broker, partitions));
    } catch (ProtocolException e) {
      response = ApiResponse.failure(ResponseStatus.INVALID, e.getMessage());
    }
    metrics.request(OPERATION, response.status());
    return CompletableFuture.completedFuture(TopologyCodec.encodeResponse(response));
  }

  /** What {@code broker} reports about itself now. */
  public static BrokerTopology topology(BrokerInfo broker, HostedPartitions partitions) {
    List<PartitionReplica> replicas = new ArrayList<>();
    for (HostedPartition partition : partitions.all()) {
      PartitionHealthReport health = partition.health();
      replicas.add(
          new PartitionReplica(
              partition.partitionId(),
              ReplicaRole.fromCode(partition.role().code()),
              Math.max(0, partition.term()),
              ReplicaHealth.fromCode(health.status().code()),
              health.reason()));
    }
    return new BrokerTopology(
        broker.nodeId(),
        broker.clusterId(),
        broker.version(),
        broker.partitionCount(),
        broker.replicationFactor(),
        replicas);
  }
}
