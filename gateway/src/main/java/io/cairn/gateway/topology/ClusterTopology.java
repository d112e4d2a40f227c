package io.cairn.gateway.topology;

import io.cairn.protocol.api.BrokerTopology;
import io.cairn.protocol.api.PartitionReplica;
import io.cairn.protocol.api.ReplicaRole;
import io.cairn.transport.MemberAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * An immutable snapshot of the cluster as the gateway sees it: every configured broker (reachable
 * or not), the partition count and, per partition, the leader — the broker that reports LEADER with
 * the highest term (the lowest node id on a tie, which raft never produces).
 *
 * @param refreshedAtMs wall-clock time of the refresh, epoch milliseconds; -1 before the first
 * @param brokers every configured broker by node id
 * @param clusterId the cluster id the brokers report; empty when none answered
 * @param partitionCount the partition count the brokers report (the highest, should they disagree);
 *     0 when none answered
 * @param replicationFactor as reported; 0 when none answered
 * @param leaders the known leader of each partition that has one
 */
public record ClusterTopology(
    long refreshedAtMs,
    Map<Integer, BrokerStatus> brokers,
    String clusterId,
    int partitionCount,
    int replicationFactor,
    Map<Integer, PartitionLeader> leaders) {

  public ClusterTopology {
    brokers = Collections.unmodifiableMap(new TreeMap<>(brokers));
    leaders = Collections.unmodifiableMap(new TreeMap<>(leaders));
  }

  /** The topology before any broker answered: every broker unreachable, nothing known. */
  public static ClusterTopology unknown(Map<Integer, MemberAddress> addresses) {
    Map<Integer, BrokerStatus> brokers = new TreeMap<>();
    addresses.forEach(
        (id, address) ->
            brokers.put(id, new BrokerStatus(id, address, Optional.empty(), "not asked yet")));
    return new ClusterTopology(-1, brokers, "", 0, 0, Map.of());
  }

  /** Builds the snapshot from each broker's answer (or error). */
  public static ClusterTopology of(long refreshedAtMs, List<BrokerStatus> statuses) {
    Map<Integer, BrokerStatus> brokers = new TreeMap<>();
    Map<Integer, PartitionLeader> leaders = new TreeMap<>();
    String clusterId = "";
    int partitionCount = 0;
    int replicationFactor = 0;
    for (BrokerStatus status : statuses) {
      brokers.put(status.nodeId(), status);
      if (status.topology().isEmpty()) {
        continue;
      }
      BrokerTopology topology = status.topology().get();
      if (clusterId.isEmpty()) {
        clusterId = topology.clusterId();
      }
      partitionCount = Math.max(partitionCount, topology.partitionCount());
      replicationFactor = Math.max(replicationFactor, topology.replicationFactor());
      for (PartitionReplica replica : topology.replicas()) {
        if (replica.role() != ReplicaRole.LEADER) {
          continue;
        }
        PartitionLeader candidate =
            new PartitionLeader(
                replica.partitionId(), status.nodeId(), replica.term(), replica.health());
        leaders.merge(replica.partitionId(), candidate, ClusterTopology::newer);
      }
    }
    return new ClusterTopology(
        refreshedAtMs, brokers, clusterId, partitionCount, replicationFactor, leaders);
  }

  private static PartitionLeader newer(PartitionLeader a, PartitionLeader b) {
    if (a.term() != b.term()) {
      return a.term() > b.term() ? a : b;
    }
    return a.nodeId() <= b.nodeId() ? a : b;
  }

  /** The leader's node id of {@code partitionId}, if one is known. */
  public OptionalInt leaderOf(int partitionId) {
    PartitionLeader leader = leaders.get(partitionId);
    return leader == null ? OptionalInt.empty() : OptionalInt.of(leader.nodeId());
  }

  /** The partitions {@code 1..partitionCount} without a known leader (all, if the count is 0). */
  public List<Integer> partitionsWithoutLeader() {
    List<Integer> missing = new ArrayList<>();
    for (int partition = 1; partition <= partitionCount; partition++) {
      if (!leaders.containsKey(partition)) {
        missing.add(partition);
      }
    }
    return missing;
  }

  /** Whether the partition count is known and every partition has a known leader. */
  public boolean hasAllLeaders() {
    return partitionCount > 0 && partitionsWithoutLeader().isEmpty();
  }

  /** The brokers that answered the last topology request. */
  public List<Integer> reachableBrokers() {
    return brokers.values().stream()
        .filter(BrokerStatus::reachable)
        .map(BrokerStatus::nodeId)
        .toList();
  }
}
