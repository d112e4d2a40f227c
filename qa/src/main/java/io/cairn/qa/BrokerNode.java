package io.cairn.qa;

import io.cairn.broker.Broker;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One broker slot of an {@link EmbeddedCluster}: its node id, directory, the ports it keeps across
 * restarts, and the {@link Broker} running in it (if any). Guarded by the cluster's life-cycle lock
 * for writes; read from any thread.
 */
final class BrokerNode {

  private final int nodeId;
  private final Path directory;
  private volatile int transportPort;
  private volatile int managementPort;
  private volatile Broker broker;
  private volatile NodeState state = NodeState.NEW;

  BrokerNode(int nodeId, Path directory) {
    this.nodeId = nodeId;
    this.directory = directory;
  }

  int nodeId() {
    return nodeId;
  }

  Path directory() {
    return directory;
  }

  /** 0 until the broker first bound its port. */
  int transportPort() {
    return transportPort;
  }

  /** 0 until the broker first bound its management port (or when management is off). */
  int managementPort() {
    return managementPort;
  }

  NodeState state() {
    return state;
  }

  /** The broker while RUNNING. */
  Optional<Broker> running() {
    Broker current = broker;
    return state == NodeState.RUNNING && current != null ? Optional.of(current) : Optional.empty();
  }

  /** The last broker opened in this slot, running or not. */
  Optional<Broker> lastBroker() {
    return Optional.ofNullable(broker);
  }

  void opened(Broker opened) {
    broker = opened;
    transportPort = opened.transportAddress().port();
  }

  /** Forgets the ports: the next open binds ephemeral ones. */
  void releasePorts() {
    transportPort = 0;
    managementPort = 0;
  }

  void started() {
    broker.managementAddress().ifPresent(address -> managementPort = address.getPort());
    state = NodeState.RUNNING;
  }

  void state(NodeState next) {
    state = next;
  }

  @Override
  public String toString() {
    return "node " + nodeId + " (" + state + ")";
  }
}
