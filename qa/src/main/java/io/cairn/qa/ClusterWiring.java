package io.cairn.qa;

import io.cairn.broker.Broker;
import io.cairn.broker.config.BrokerConfig;
import io.cairn.qa.network.ProxyNetwork;
import io.cairn.transport.MemberAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How an {@link EmbeddedCluster} opens its brokers in their slots and wires them through its {@link
 * ProxyNetwork}: each broker's configuration, the links to and from each peer and from the gateway
 * (every node is given the proxies, never the real ports), and opening a broker again on its ports
 * — or on new ones when another process took one meanwhile, which the proxies hide from the peers.
 * Called under the cluster's life-cycle lock; the node states are the cluster's.
 */
final class ClusterWiring {

  // the cluster's logger: these lines are the cluster's
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedCluster.class);

  private final EmbeddedClusterConfig config;
  private final SortedMap<Integer, BrokerNode> nodes;
  private final ProxyNetwork network;
  private final Optional<Path> backupDirectory;

  ClusterWiring(
      EmbeddedClusterConfig config,
      SortedMap<Integer, BrokerNode> nodes,
      ProxyNetwork network,
      Optional<Path> backupDirectory) {
    this.config = config;
    this.nodes = nodes;
    this.network = network;
    this.backupDirectory = backupDirectory;
  }

  /** Opens the node's broker (binding its transport) for the first time. */
  void open(BrokerNode node) {
    node.opened(Broker.open(brokerConfig(node)));
  }

  private BrokerConfig brokerConfig(BrokerNode node) {
    return BrokerSettings.config(
        config,
        node.nodeId(),
        node.directory(),
        node.transportPort(),
        node.managementPort(),
        backupDirectory.orElse(null));
  }

  /** Creates the links to and from {@code node} and tells its transport the peers' proxies. */
  void linkPeers(BrokerNode node) {
    Broker broker = node.lastBroker().orElseThrow();
    for (BrokerNode peer : nodes.values()) {
      if (peer.nodeId() == node.nodeId()) {
        continue;
      }
      InetSocketAddress proxy =
          network.link(node.nodeId(), peer.nodeId(), loopback(peer.transportPort()));
      network.link(peer.nodeId(), node.nodeId(), loopback(node.transportPort()));
      broker.setMemberAddress(peer.nodeId(), memberAddress(proxy));
    }
  }

  /** Creates the links from the gateway to every broker; the addresses to give the gateway. */
  Map<Integer, MemberAddress> linkGateway() {
    Map<Integer, MemberAddress> brokers = new TreeMap<>();
    for (BrokerNode node : nodes.values()) {
      brokers.put(
          node.nodeId(),
          memberAddress(
              network.link(
                  EmbeddedCluster.GATEWAY_NODE_ID, node.nodeId(), loopback(node.transportPort()))));
    }
    return brokers;
  }

  /**
   * Opens the node's broker again on its data directory and ports, reconnects it and starts it; if
   * the start fails (most likely a port taken meanwhile), once more on new ports.
   *
   * @throws RuntimeException what the second start threw (the first one's suppressed); the node is
   *     then STOPPED
   */
  void reopenAndStart(BrokerNode node) {
    int nodeId = node.nodeId();
    int port = node.transportPort();
    Broker broker = reopen(node);
    if (node.transportPort() != port) {
      network.retarget(nodeId, loopback(node.transportPort()));
    }
    network.rejoin(nodeId);
    try {
      broker.start();
    } catch (RuntimeException e) {
      // most likely the management port was taken meanwhile: once more on new ports
      LOG.warn(
          "Embedded broker {} failed to start again ({}); retrying on new ports",
          nodeId,
          e.toString());
      node.releasePorts();
      broker = reopen(node);
      network.retarget(nodeId, loopback(node.transportPort()));
      try {
        broker.start();
      } catch (RuntimeException again) {
        again.addSuppressed(e);
        node.state(NodeState.STOPPED);
        throw again;
      }
    }
  }

  /**
   * Opens the node's broker on its ports (on new ones if its old port was taken meanwhile, which
   * the network's proxies hide from the peers) and tells it the peers' proxies.
   */
  private Broker reopen(BrokerNode node) {
    Broker broker;
    try {
      broker = Broker.open(brokerConfig(node));
    } catch (RuntimeException e) {
      LOG.warn(
          "Embedded broker {} could not open on port {} ({}); using a new port",
          node.nodeId(),
          node.transportPort(),
          e.toString());
      node.releasePorts();
      broker = Broker.open(brokerConfig(node));
    }
    node.opened(broker);
    for (BrokerNode peer : nodes.values()) {
      if (peer.nodeId() != node.nodeId()) {
        broker.setMemberAddress(
            peer.nodeId(), memberAddress(network.addressOf(node.nodeId(), peer.nodeId())));
      }
    }
    return broker;
  }

  private static InetSocketAddress loopback(int port) {
    return new InetSocketAddress("127.0.0.1", port);
  }

  private static MemberAddress memberAddress(InetSocketAddress address) {
    return new MemberAddress("127.0.0.1", address.getPort());
  }
}
