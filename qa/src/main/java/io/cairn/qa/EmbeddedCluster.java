package io.cairn.qa;

import io.cairn.broker.Broker;
import io.cairn.client.CairnClient;
import io.cairn.client.ManagementClient;
import io.cairn.gateway.Gateway;
import io.cairn.gateway.GatewayConfig;
import io.cairn.gateway.v1.AdminServiceGrpc;
import io.cairn.gateway.v1.LedgerServiceGrpc;
import io.cairn.protocol.api.AccountPlacement;
import io.cairn.qa.network.ProxyNetwork;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SortedMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brokers and a gateway in this JVM, wired like a real cluster: each broker is a {@link Broker}
 * opened from the YAML a broker process would read, with netty on ephemeral loopback ports, RocksDB
 * and journals under a data directory, one shared backup store; the {@link Gateway} serves the real
 * gRPC and management HTTP APIs on ephemeral ports.
 *
 * <pre>{@code
 * try (EmbeddedCluster cluster =
 *     EmbeddedCluster.builder().brokers(3).partitions(3).replicationFactor(3).build()) {
 *   cluster.start().awaitHealthy();
 *   cluster.client().createAccount("alice");      // the Java client, through the gateway
 *   cluster.kill(cluster.awaitLeader(1));         // cut off, then closed
 *   cluster.awaitNewLeader(1, ...);               // and watch the cluster recover
 * }
 * }</pre>
 *
 * <p><b>Network.</b> Every connection between nodes goes through a {@link ProxyNetwork}: for each
 * ordered pair of brokers, and from the gateway to each broker, a TCP relay on loopback that the
 * sender is given as the receiver's address. {@link #partition(int, int)} cuts both directions
 * between two nodes (the gateway is node {@value #GATEWAY_NODE_ID}); open connections are reset and
 * new ones are reset at once, so senders fail fast as unreachable; {@link #heal()} lets traffic
 * through again within milliseconds (the transports reconnect on next use).
 *
 * <p><b>Faults in one JVM.</b> {@link #stop(int)} is the broker's graceful shutdown. {@link
 * #kill(int)} is as abrupt as a broker in a shared JVM allows: the node is first cut from every
 * peer and from the gateway (nothing it does afterwards reaches anyone, and nobody waits for its
 * answers), then it is closed — which still flushes its journals and RocksDB, as a broker cannot
 * lose written data without dying as a process. Unflushed-data loss needs a real {@code kill -9}
 * (the process-level tests). {@link #restart(int)} opens a new broker on the same data directory
 * and ports. {@link #close()} closes the gateway and the brokers still running, then deletes the
 * data directory if the cluster made it.
 *
 * <p><b>Waits</b> use Awaitility with {@link EmbeddedClusterConfig#awaitTimeout()} and name what
 * was missing when they time out.
 *
 * <p>Opening a broker in its slot and wiring it through the network (peers, gateway, new ports on a
 * restart) is {@link ClusterWiring}'s.
 *
 * <p>Thread-safety: life-cycle and fault methods are serialized; accessors may be called from any
 * thread.
 */
public final class EmbeddedCluster implements AutoCloseable {

  /** The gateway's node id, for {@link #partition(int, int)}. */
  public static final int GATEWAY_NODE_ID = GatewayConfig.DEFAULT_NODE_ID;

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedCluster.class);
  private static final Duration CALL_SLACK = Duration.ofSeconds(2);

  private final EmbeddedClusterConfig config;
  private final Path root;
  private final boolean ownsRoot;
  private final Optional<Path> backupDirectory;
  private final SortedMap<Integer, BrokerNode> nodes = new TreeMap<>();
  private final ProxyNetwork network = new ProxyNetwork();
  private final AccountPlacement placement;
  private final ClusterWaits waits;
  private final ClusterWiring wiring;
  private final Object lifecycle = new Object();
  private volatile GatewayNode gatewayNode;
  private volatile boolean started;
  private volatile boolean closed;

  /** Creates the directories; see {@link EmbeddedClusterBuilder#build()}. */
  EmbeddedCluster(EmbeddedClusterConfig config) {
    this.config = config;
    try {
      if (config.dataDirectory().isPresent()) {
        root = Files.createDirectories(config.dataDirectory().get());
        ownsRoot = false;
      } else {
        root = Files.createTempDirectory("cairn-embedded-");
        ownsRoot = true;
      }
      if (config.backupStore() instanceof BackupStoreSpec.Filesystem fs) {
        backupDirectory =
            Optional.of(
                Files.createDirectories(
                    fs.basePath() == null ? root.resolve("backups") : fs.basePath()));
      } else {
        backupDirectory = Optional.empty();
      }
      for (int nodeId = 0; nodeId < config.brokers(); nodeId++) {
        nodes.put(
            nodeId,
            new BrokerNode(nodeId, Files.createDirectories(root.resolve("node-" + nodeId))));
      }
    } catch (IOException e) {
      network.close();
      throw new UncheckedIOException(
          "Expected to create the embedded cluster's directories, but " + e, e);
    }
    placement = new AccountPlacement(config.partitions());
    waits = new ClusterWaits(this, config.awaitTimeout());
    wiring = new ClusterWiring(config, nodes, network, backupDirectory);
  }

  /** A builder with the defaults of {@link EmbeddedClusterConfig}. */
  public static EmbeddedClusterBuilder builder() {
    return new EmbeddedClusterBuilder();
  }

  // ---- life cycle ------------------------------------------------------------------------------

  /**
   * Opens every broker (binding its transport), links them through the network, starts them, then
   * starts the gateway. Returns without waiting for leaders: call {@link #awaitHealthy()}.
   *
   * @throws IllegalStateException if started twice or closed; what started is closed again
   */
  public EmbeddedCluster start() {
    synchronized (lifecycle) {
      if (started || closed) {
        throw new IllegalStateException(
            "Expected a new embedded cluster, but it is " + (closed ? "closed" : "started"));
      }
      started = true;
      try {
        for (BrokerNode node : nodes.values()) {
          wiring.open(node);
        }
        for (BrokerNode node : nodes.values()) {
          wiring.linkPeers(node);
        }
        for (BrokerNode node : nodes.values()) {
          node.lastBroker().orElseThrow().start();
          node.started();
        }
        startGateway();
      } catch (RuntimeException e) {
        LOG.warn("The embedded cluster failed to start; closing what started", e);
        close();
        throw e;
      }
    }
    LOG.info(
        "Embedded cluster '{}' started: {} brokers, {} partitions, replication factor {}, gRPC"
            + " {}, data in {}",
        config.clusterId(),
        config.brokers(),
        config.partitions(),
        config.replicationFactor(),
        grpcAddress(),
        root);
    return this;
  }

  private void startGateway() {
    gatewayNode =
        GatewayNode.start(
            wiring.linkGateway(), config.gatewayRequestTimeout(), callTimeout(), config.security());
  }

  /**
   * Shuts broker {@code nodeId} down gracefully (in-flight commands answered, journals flushed).
   * Its directory and ports are kept for {@link #restart(int)}.
   */
  public void stop(int nodeId) {
    synchronized (lifecycle) {
      BrokerNode node = runningNode(nodeId, "stop");
      node.lastBroker().orElseThrow().close();
      node.state(NodeState.STOPPED);
    }
    LOG.info("Embedded broker {} stopped", nodeId);
  }

  /**
   * Kills broker {@code nodeId}: cuts it from every peer and the gateway at once (open connections
   * reset), then closes it. See the class comment for what "kill" can and cannot mean in one JVM.
   * It stays cut off until {@link #restart(int)}.
   */
  public void kill(int nodeId) {
    synchronized (lifecycle) {
      BrokerNode node = runningNode(nodeId, "kill");
      network.isolate(nodeId);
      node.state(NodeState.KILLED);
      node.lastBroker().orElseThrow().close();
    }
    LOG.info("Embedded broker {} killed", nodeId);
  }

  /**
   * Opens broker {@code nodeId} again on its data directory and ports (stopping it first if it
   * runs), reconnects it and starts it. Should another process have taken one of its ports
   * meanwhile, it binds new ones (the peers keep reaching it through the network's proxies).
   * Returns without waiting for roles.
   */
  public void restart(int nodeId) {
    synchronized (lifecycle) {
      BrokerNode node = node(nodeId);
      if (!started || closed) {
        throw new IllegalStateException(
            "Expected a started cluster to restart node "
                + nodeId
                + ", but it is "
                + (closed ? "closed" : "not started"));
      }
      if (node.state() == NodeState.RUNNING) {
        node.lastBroker().orElseThrow().close();
        node.state(NodeState.STOPPED);
      }
      wiring.reopenAndStart(node);
      node.started();
    }
    LOG.info("Embedded broker {} restarted", nodeId);
  }

  /**
   * Cuts both directions between nodes {@code a} and {@code b} (broker ids, or {@link
   * #GATEWAY_NODE_ID}) until {@link #heal()}.
   */
  public void partition(int a, int b) {
    checkNetworkNode(a);
    checkNetworkNode(b);
    network.partition(a, b);
    LOG.info("Embedded cluster: partitioned {} from {}", a, b);
  }

  /** Partitions broker {@code nodeId} from every other broker (the gateway still reaches it). */
  public void isolate(int nodeId) {
    node(nodeId);
    for (int peer : nodes.keySet()) {
      if (peer != nodeId) {
        network.partition(nodeId, peer);
      }
    }
    LOG.info("Embedded cluster: isolated broker {} from the other brokers", nodeId);
  }

  /**
   * Holds what node {@code from} sends to node {@code to} (broker ids, or {@link #GATEWAY_NODE_ID})
   * until {@link #releaseLink}: the bytes are kept in order and delivered as one burst on release;
   * answers still flow back. The sender sees a slow network (its requests may time out), not a
   * reset. {@link #heal()} does not release a held link.
   */
  public void holdLink(int from, int to) {
    checkNetworkNode(from);
    checkNetworkNode(to);
    network.hold(from, to);
    LOG.info("Embedded cluster: holding what {} sends to {}", from, to);
  }

  /** Delivers what {@link #holdLink} kept on {@code from -> to} and relays as before. */
  public void releaseLink(int from, int to) {
    checkNetworkNode(from);
    checkNetworkNode(to);
    network.release(from, to);
    LOG.info("Embedded cluster: released what {} sends to {}", from, to);
  }

  /** Removes every partition; killed brokers stay cut off until restarted. */
  public void heal() {
    network.heal();
    LOG.info("Embedded cluster: network healed");
  }

  /** The partitioned pairs now, each as {@code [smaller, larger]}. */
  public List<List<Integer>> partitions() {
    return network.partitions();
  }

  /**
   * Closes the client channel, the gateway, every broker and the network; deletes the data
   * directory if the cluster created it. Idempotent.
   */
  @Override
  public void close() {
    synchronized (lifecycle) {
      if (closed) {
        return;
      }
      closed = true;
      GatewayNode openGateway = gatewayNode;
      if (openGateway != null) {
        quietly("the gateway", openGateway::close);
      }
      for (BrokerNode node : nodes.values()) {
        if (node.state() == NodeState.RUNNING || node.state() == NodeState.NEW) {
          node.lastBroker().ifPresent(broker -> quietly("broker " + node.nodeId(), broker::close));
        }
        node.state(NodeState.CLOSED);
      }
      network.close();
      if (ownsRoot) {
        DataDirectories.deleteQuietly(root);
      }
    }
  }

  private static void quietly(String what, Runnable close) {
    try {
      close.run();
    } catch (RuntimeException e) {
      LOG.warn("Closing {} of the embedded cluster failed", what, e);
    }
  }

  // ---- clients ---------------------------------------------------------------------------------

  /**
   * The Java client bound to the gateway (deadline: the gateway's request timeout plus 2 s); closed
   * with the cluster. It checks arguments before sending: to send malformed requests to the
   * gateway, use the raw stubs ({@link #ledger()}, {@link #admin()}).
   */
  public CairnClient client() {
    return gatewayNode().client();
  }

  /** A client of the gateway's management HTTP endpoints ({@code /actuator/...}). */
  public ManagementClient managementClient() {
    return ManagementClient.of(gatewayManagementUri(), callTimeout());
  }

  /** A channel to the gateway's gRPC server (plaintext); closed with the cluster. */
  public ManagedChannel channel() {
    return gatewayNode().channel();
  }

  /**
   * A blocking ledger stub whose deadline is the gateway's request timeout plus 2 s from now: take
   * a new one per call.
   */
  public LedgerServiceGrpc.LedgerServiceBlockingStub ledger() {
    return LedgerServiceGrpc.newBlockingStub(channel()).withDeadlineAfter(callTimeout());
  }

  /** An asynchronous ledger stub (deadline as {@link #ledger()}); for load generators. */
  public LedgerServiceGrpc.LedgerServiceFutureStub ledgerAsync() {
    return LedgerServiceGrpc.newFutureStub(channel()).withDeadlineAfter(callTimeout());
  }

  /** A blocking admin stub (deadline as {@link #ledger()}). */
  public AdminServiceGrpc.AdminServiceBlockingStub admin() {
    return AdminServiceGrpc.newBlockingStub(channel()).withDeadlineAfter(callTimeout());
  }

  private Duration callTimeout() {
    return config.gatewayRequestTimeout().plus(CALL_SLACK);
  }

  /** The base URI of the gateway's management HTTP server ({@code /actuator/...}). */
  public URI gatewayManagementUri() {
    InetSocketAddress address = gateway().httpAddress();
    return URI.create("http://127.0.0.1:" + address.getPort());
  }

  /** The base URI of broker {@code nodeId}'s management HTTP server ({@code /health}, ...). */
  public URI brokerManagementUri(int nodeId) {
    Broker broker = broker(nodeId);
    InetSocketAddress address =
        broker
            .managementAddress()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "Expected broker " + nodeId + " to serve management HTTP, but it is off"));
    return URI.create("http://127.0.0.1:" + address.getPort());
  }

  // ---- waits -----------------------------------------------------------------------------------

  /**
   * Waits until the gateway knows a leader for every partition, each confirmed by the running
   * broker it names (same term), and every running broker is ready (a role for each of its
   * replicas); with every broker running and leader balancing on, also until each partition is led
   * by its preferred broker. With a partition in place, a cut-off broker may never be ready: use
   * {@link #awaitLeaders()}.
   */
  public EmbeddedCluster awaitHealthy() {
    waits.awaitHealthy();
    return this;
  }

  /** Waits until the gateway knows a confirmed leader for every partition. */
  public EmbeddedCluster awaitLeaders() {
    waits.awaitLeaders();
    return this;
  }

  /** Waits until the gateway knows a confirmed leader of {@code partitionId}; returns its node. */
  public int awaitLeader(int partitionId) {
    checkPartition(partitionId);
    return waits.awaitLeader(partitionId, -1);
  }

  /**
   * Waits until the gateway knows a confirmed leader of {@code partitionId} other than {@code
   * formerLeader}; returns its node.
   */
  public int awaitNewLeader(int partitionId, int formerLeader) {
    checkPartition(partitionId);
    return waits.awaitLeader(partitionId, formerLeader);
  }

  // ---- accessors -------------------------------------------------------------------------------

  public EmbeddedClusterConfig config() {
    return config;
  }

  /** The broker node ids, {@code 0..brokers-1}. */
  public List<Integer> brokerIds() {
    return List.copyOf(nodes.keySet());
  }

  public NodeState state(int nodeId) {
    return node(nodeId).state();
  }

  /** The node ids of the running brokers. */
  public List<Integer> runningBrokerIds() {
    return List.copyOf(runningBrokers().keySet());
  }

  /**
   * The running broker {@code nodeId}.
   *
   * @throws IllegalStateException if it does not run
   */
  public Broker broker(int nodeId) {
    return runningNode(nodeId, "use").lastBroker().orElseThrow();
  }

  /** The running brokers by node id. */
  Map<Integer, Broker> runningBrokers() {
    Map<Integer, Broker> running = new TreeMap<>();
    nodes.values().forEach(node -> node.running().ifPresent(b -> running.put(node.nodeId(), b)));
    return running;
  }

  /**
   * The leader of {@code partitionId} as the running brokers see it now (the LEADER with the
   * highest term), if any. Does not wait.
   */
  public OptionalInt leaderOf(int partitionId) {
    checkPartition(partitionId);
    return waits.leaderAmongBrokers(partitionId);
  }

  public Gateway gateway() {
    return gatewayNode().gateway();
  }

  private GatewayNode gatewayNode() {
    GatewayNode current = gatewayNode;
    if (current == null) {
      throw new IllegalStateException("Expected a started embedded cluster, but it is not");
    }
    return current;
  }

  public InetSocketAddress grpcAddress() {
    return gateway().grpcAddress();
  }

  /** The partition an account lives on (the engine's placement rule). */
  public int partitionOf(String accountId) {
    return placement.partitionOf(accountId);
  }

  /** The root of the node directories ({@code node-<id>}) and of the default backup store. */
  public Path dataDirectory() {
    return root;
  }

  /** Broker {@code nodeId}'s data directory. */
  public Path nodeDirectory(int nodeId) {
    return node(nodeId).directory();
  }

  /**
   * Where broker {@code nodeId}'s JSON-lines exporter writes ({@code partition-<p>-<seq>.jsonl}
   * files of the partitions it led), if {@link EmbeddedClusterBuilder#jsonlExporter} is on.
   */
  public Optional<Path> exportDirectory(int nodeId) {
    return config.jsonlExporter()
        ? Optional.of(BrokerSettings.exportDirectory(node(nodeId).directory()))
        : Optional.empty();
  }

  /** The filesystem backup store's directory, if the store is a filesystem. */
  public Optional<Path> backupDirectory() {
    return backupDirectory;
  }

  private BrokerNode node(int nodeId) {
    BrokerNode node = nodes.get(nodeId);
    if (node == null) {
      throw new IllegalArgumentException(
          "Expected a broker node id in [0, " + (config.brokers() - 1) + "], but was " + nodeId);
    }
    return node;
  }

  private BrokerNode runningNode(int nodeId, String operation) {
    BrokerNode node = node(nodeId);
    if (node.state() != NodeState.RUNNING) {
      throw new IllegalStateException(
          "Expected broker "
              + nodeId
              + " to run to "
              + operation
              + " it, but it is "
              + node.state());
    }
    return node;
  }

  private void checkNetworkNode(int nodeId) {
    if (nodeId != GATEWAY_NODE_ID) {
      node(nodeId);
    }
  }

  private void checkPartition(int partitionId) {
    if (partitionId < 1 || partitionId > config.partitions()) {
      throw new IllegalArgumentException(
          "Expected a partition id in [1, " + config.partitions() + "], but was " + partitionId);
    }
  }

  @Override
  public String toString() {
    return "EmbeddedCluster{'" + config.clusterId() + "', " + nodes.values() + "}";
  }
}
