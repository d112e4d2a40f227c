package io.cairn.cli.cluster;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The shape and addresses of a local cluster, stored as {@code cluster.json} in its directory so
 * that {@code up}, {@code status} and {@code down} agree. Everything listens on {@code host}.
 *
 * @param clusterId the brokers' cluster id
 * @param brokers broker count N (node ids 0..N-1)
 * @param partitions partition count
 * @param replicationFactor brokers per partition (1, 3 or 5; at most N)
 * @param host the address every process binds and the others connect to
 * @param brokerPorts transport port of broker i at index i
 * @param managementPorts management HTTP port of broker i at index i
 * @param gatewayPort the gateway's gRPC port
 * @param gatewayHttpPort the gateway's management HTTP port
 */
public record ClusterLayout(
    String clusterId,
    int brokers,
    int partitions,
    int replicationFactor,
    String host,
    List<Integer> brokerPorts,
    List<Integer> managementPorts,
    int gatewayPort,
    int gatewayHttpPort) {

  public static final int BROKERS_MAX = 9;
  public static final int PARTITIONS_MAX = 64;
  static final int MANAGEMENT_PORT_OFFSET = 100;

  public ClusterLayout {
    Objects.requireNonNull(clusterId, "clusterId");
    Objects.requireNonNull(host, "host");
    brokerPorts = List.copyOf(brokerPorts);
    managementPorts = List.copyOf(managementPorts);
  }

  /**
   * Broker i gets transport port {@code basePort + i} and management port {@code basePort + 100 +
   * i}.
   */
  public static ClusterLayout of(
      int brokers,
      int partitions,
      int replicationFactor,
      String host,
      int basePort,
      int gatewayPort,
      int gatewayHttpPort) {
    List<Integer> transport = new ArrayList<>();
    List<Integer> management = new ArrayList<>();
    for (int i = 0; i < brokers; i++) {
      transport.add(basePort + i);
      management.add(basePort + MANAGEMENT_PORT_OFFSET + i);
    }
    return new ClusterLayout(
        "cairn-local",
        brokers,
        partitions,
        replicationFactor,
        host,
        transport,
        management,
        gatewayPort,
        gatewayHttpPort);
  }

  /** Every violated rule, "Expected ..., but ..."; empty when valid. */
  public List<String> violations() {
    List<String> violations = new ArrayList<>();
    if (brokers < 1 || brokers > BROKERS_MAX) {
      violations.add("Expected --brokers in [1, " + BROKERS_MAX + "], but was " + brokers);
    }
    if (partitions < 1 || partitions > PARTITIONS_MAX) {
      violations.add("Expected --partitions in [1, " + PARTITIONS_MAX + "], but was " + partitions);
    }
    if (replicationFactor != 1 && replicationFactor != 3 && replicationFactor != 5) {
      violations.add(
          "Expected --replication-factor to be one of 1, 3, 5, but was " + replicationFactor);
    } else if (replicationFactor > brokers) {
      violations.add(
          "Expected --replication-factor <= --brokers ("
              + brokers
              + "), but was "
              + replicationFactor);
    }
    List<Integer> ports = allPorts();
    for (int port : ports) {
      if (port < 1 || port > 65_535) {
        violations.add("Expected every port in [1, 65535], but one is " + port);
        break;
      }
    }
    Set<Integer> distinct = new HashSet<>(ports);
    if (distinct.size() != ports.size()) {
      violations.add(
          "Expected distinct ports for brokers, management and gateway, but they are " + ports);
    }
    if (brokerPorts.size() != brokers || managementPorts.size() != brokers) {
      violations.add(
          "Expected one transport and one management port per broker, but got "
              + brokerPorts
              + " and "
              + managementPorts);
    }
    return violations;
  }

  /** Every port the cluster binds. */
  public List<Integer> allPorts() {
    List<Integer> ports = new ArrayList<>(brokerPorts);
    ports.addAll(managementPorts);
    ports.add(gatewayPort);
    ports.add(gatewayHttpPort);
    return ports;
  }

  /** host:port of the gateway's gRPC API. */
  public String gatewayAddress() {
    return host + ":" + gatewayPort;
  }

  /** Whether another layout has the same shape (broker count, partitions, replication). */
  public boolean sameShape(ClusterLayout other) {
    return brokers == other.brokers
        && partitions == other.partitions
        && replicationFactor == other.replicationFactor;
  }
}
