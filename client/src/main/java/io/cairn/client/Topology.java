package io.cairn.client;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The cluster as the gateway last saw it: brokers, the partitions they host, leaders, health.
 *
 * @param clusterId the cluster's id; empty until a broker answered
 * @param partitionCount the number of partitions
 * @param replicationFactor brokers per partition
 * @param brokers every configured broker, by node id
 * @param partitions every partition 1..partitionCount, by id
 * @param refreshedAt when the gateway last asked the brokers
 */
public record Topology(
    String clusterId,
    int partitionCount,
    int replicationFactor,
    List<Broker> brokers,
    List<Partition> partitions,
    Instant refreshedAt) {

  public Topology {
    brokers = List.copyOf(brokers);
    partitions = List.copyOf(partitions);
  }

  /** The partition with this id, if the topology has it. */
  public Optional<Partition> partition(int partitionId) {
    return partitions.stream().filter(p -> p.partitionId() == partitionId).findFirst();
  }

  /** Whether a leader is known for every partition (and there is at least one). */
  public boolean hasAllLeaders() {
    return partitionCount > 0
        && partitions.size() == partitionCount
        && partitions.stream().allMatch(p -> p.leaderNodeId() >= 0);
  }

  /**
   * One broker.
   *
   * @param nodeId its node id
   * @param address host:port of its transport
   * @param reachable whether it answered the last topology request
   * @param error why it is unreachable; empty when reachable
   * @param version its version; empty when unknown
   * @param replicas the partitions it hosts, by partition id
   */
  public record Broker(
      int nodeId,
      String address,
      boolean reachable,
      String error,
      String version,
      List<Replica> replicas) {
    public Broker {
      replicas = List.copyOf(replicas);
    }
  }

  /**
   * One partition replica on a broker.
   *
   * @param partitionId the partition
   * @param role its raft role
   * @param term its raft term
   * @param health its health
   * @param healthReason why it is not healthy; empty when it is
   */
  public record Replica(
      int partitionId, ReplicaRole role, long term, Health health, String healthReason) {}

  /**
   * One partition and its leader.
   *
   * @param partitionId the partition
   * @param leaderNodeId the leader's node id; -1 when no leader is known
   * @param term the leader's term (0 without a leader)
   * @param health the leader's health; UNREACHABLE without a leader
   */
  public record Partition(int partitionId, int leaderNodeId, long term, Health health) {}

  /** A replica's raft role. */
  public enum ReplicaRole {
    INACTIVE,
    FOLLOWER,
    LEADER,
    FAILED,
    CLOSED,
    /** A role this client does not know (a newer gateway). */
    UNKNOWN
  }

  /** A replica's (or a partition leader's) health. */
  public enum Health {
    HEALTHY,
    UNHEALTHY,
    FAILED,
    /** The broker did not answer (or no leader is known). */
    UNREACHABLE,
    /** A value this client does not know (a newer gateway). */
    UNKNOWN
  }
}
