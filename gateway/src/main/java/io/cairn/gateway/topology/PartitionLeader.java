package io.cairn.gateway.topology;

import io.cairn.protocol.api.ReplicaHealth;

/**
 * The leader the gateway routes a partition's requests to: the broker reporting the role LEADER
 * with the highest term.
 */
public record PartitionLeader(int partitionId, int nodeId, long term, ReplicaHealth health) {}
