package io.cairn.gateway.http;

import io.cairn.gateway.topology.BrokerStatus;
import io.cairn.gateway.topology.ClusterTopology;
import io.cairn.gateway.topology.PartitionLeader;
import io.cairn.protocol.api.BrokerTopology;
import io.cairn.protocol.api.PartitionReplica;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON of {@code GET /actuator/topology}, the gRPC {@code GetTopology} answer's fields:
 *
 * <pre>
 * {"clusterId": "cairn", "partitionCount": 3, "replicationFactor": 3, "refreshedAtMs": 1767...,
 *  "brokers": [{"nodeId": 0, "address": "127.0.0.1:26501", "reachable": true, "error": "",
 *               "version": "0.1.0", "replicas": [{"partitionId": 1, "role": "LEADER",
 *               "term": 2, "health": "HEALTHY", "healthReason": ""}]}],
 *  "partitions": [{"partitionId": 1, "leaderNodeId": 0, "term": 2, "health": "HEALTHY"}]}
 * </pre>
 *
 * A partition without a known leader has {@code leaderNodeId} -1 and health {@code UNREACHABLE}.
 */
final class TopologyJson {
  private TopologyJson() {}

  static Map<String, Object> of(ClusterTopology topology) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("clusterId", topology.clusterId());
    json.put("partitionCount", topology.partitionCount());
    json.put("replicationFactor", topology.replicationFactor());
    json.put("refreshedAtMs", topology.refreshedAtMs());
    List<Map<String, Object>> brokers = new ArrayList<>();
    for (BrokerStatus status : topology.brokers().values()) {
      brokers.add(broker(status));
    }
    json.put("brokers", brokers);
    List<Map<String, Object>> partitions = new ArrayList<>();
    for (int partitionId = 1; partitionId <= topology.partitionCount(); partitionId++) {
      PartitionLeader leader = topology.leaders().get(partitionId);
      Map<String, Object> partition = new LinkedHashMap<>();
      partition.put("partitionId", partitionId);
      partition.put("leaderNodeId", leader == null ? -1 : leader.nodeId());
      partition.put("term", leader == null ? 0 : leader.term());
      partition.put("health", leader == null ? "UNREACHABLE" : leader.health().name());
      partitions.add(partition);
    }
    json.put("partitions", partitions);
    return json;
  }

  private static Map<String, Object> broker(BrokerStatus status) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("nodeId", status.nodeId());
    json.put("address", status.address().toString());
    json.put("reachable", status.reachable());
    json.put("error", status.error());
    List<Map<String, Object>> replicas = new ArrayList<>();
    String version = "";
    if (status.topology().isPresent()) {
      BrokerTopology reported = status.topology().get();
      version = reported.brokerVersion();
      for (PartitionReplica replica : reported.replicas()) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("partitionId", replica.partitionId());
        entry.put("role", replica.role().name());
        entry.put("term", replica.term());
        entry.put("health", replica.health().name());
        entry.put("healthReason", replica.healthReason());
        replicas.add(entry);
      }
    }
    json.put("version", version);
    json.put("replicas", replicas);
    return json;
  }
}
