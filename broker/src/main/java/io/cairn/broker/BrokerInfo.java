package io.cairn.broker;

import java.util.Objects;

/**
 * Who a broker is, as it reports itself.
 *
 * @param nodeId its node id
 * @param clusterId its cluster's id
 * @param version the broker version ({@link BrokerVersion#current()})
 * @param partitionCount the cluster's partition count
 * @param replicationFactor the cluster's replication factor
 */
public record BrokerInfo(
    int nodeId, String clusterId, String version, int partitionCount, int replicationFactor) {

  public BrokerInfo {
    Objects.requireNonNull(clusterId, "clusterId");
    Objects.requireNonNull(version, "version");
  }
}
