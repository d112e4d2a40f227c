package io.cairn.broker;

import static org.awaitility.Awaitility.await;

import io.cairn.broker.config.BrokerConfig;
import io.cairn.broker.config.BrokerConfigReader;
import io.cairn.broker.partition.PartitionRole;
import io.cairn.gateway.Gateway;
import io.cairn.gateway.config.GatewayConfigReader;
import io.cairn.scheduler.Clock;
import io.cairn.transport.MemberAddress;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * {@code N} real brokers in this JVM, and optionally a real gateway in front of them: the
 * broker-level harness that tests and benchmarks build on. Netty over loopback on ephemeral ports,
 * RocksDB and journals under {@code <root>/node-<id>}, one filesystem backup store under {@code
 * <root>/backups} shared by all (or none).
 *
 * <p>Each broker is configured from YAML the way {@code BrokerMain} does it: the wiring the harness
 * owns (ids, shape, ports, directories, backup store), the {@link #TEST_TUNING} (short raft
 * timeouts, small segments not preallocated, one I/O thread; {@link Builder#withoutTestTuning()}
 * keeps the broker's own defaults), then {@link Builder#setting}s, then {@link Builder#env}
 * overrides ({@code CAIRN_...}). Or the brokers are opened from configurations read elsewhere
 * ({@link Builder#configs}).
 *
 * <p>A broker can be stopped and started again on its data ({@link #stop}, {@link #restart}); it
 * then listens on a new port, which the others and the {@link #client()} are told (not a gateway:
 * it is given the brokers' addresses once, so a cluster with one refuses restarts).
 *
 * <pre>{@code
 * try (BrokerTestCluster cluster =
 *     BrokerTestCluster.builder(tempDir).brokers(3).partitions(3).replicationFactor(3)
 *         .gateway().build().awaitReady()) {
 *   ... cluster.gatewayAddress() ... cluster.leaderReplica(1) ... cluster.restart(0) ...
 * }
 * }</pre>
 */
public final class BrokerTestCluster implements AutoCloseable {

  /** How long a wait for the cluster may take: a loaded machine is slower. */
  public static final Duration TIMEOUT = Duration.ofSeconds(60);

  /** The brokers' settings for tests, by dotted key; {@link Builder#setting} overrides one. */
  public static final String TEST_TUNING =
      """
      network.ioThreads: 1
      network.requestTimeout: 2s
      data.segmentSize: 4MB
      data.preallocateSegments: false
      backup.uploadConcurrency: 1
      processing.commandTimeout: 15s
      processing.creditRetryInterval: 200ms
      processing.creditRetryIntervalMax: 1s
      processing.ioThreads: 1
      processing.topologyRefreshInterval: 100ms
      processing.shutdownTimeout: 5s
      raft.electionTimeout: 600ms
      raft.heartbeatInterval: 100ms
      raft.requestTimeout: 300ms
      """;

  private final Builder settings;
  private final Map<Integer, Broker> brokers = new TreeMap<>();
  private final Map<Integer, MemberAddress> addresses = new TreeMap<>();
  private final int size;
  private final int partitionCount;
  private final int replicationFactor;
  private final boolean leaderBalancing;
  private GatewayClient client;
  private Gateway gateway;

  private BrokerTestCluster(Builder builder) {
    settings = builder;
    List<BrokerConfig> configs = new ArrayList<>();
    for (int nodeId : builder.nodeIds()) {
      configs.add(config(nodeId));
    }
    BrokerConfig first = configs.get(0);
    size = configs.size();
    partitionCount = first.cluster().partitionCount();
    replicationFactor = first.cluster().replicationFactor();
    leaderBalancing = first.raft().leaderBalancing();
    try {
      if (builder.backupStore != null) {
        Files.createDirectories(builder.backupStore);
      }
      for (BrokerConfig config : configs) {
        brokers.put(config.cluster().nodeId(), Broker.open(config));
      }
      brokers.forEach((id, broker) -> addresses.put(id, broker.transportAddress()));
      for (Broker from : brokers.values()) {
        addresses.forEach(from::setMemberAddress);
      }
      for (Broker broker : brokers.values()) {
        broker.start();
      }
      if (builder.gateway) {
        gateway = startGateway();
      }
    } catch (IOException e) {
      close();
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  public static Builder builder(Path root) {
    return new Builder(root);
  }

  // ---- configuration ----------------------------------------------------------------------------

  /** Broker {@code nodeId}'s configuration, as it is opened (again on {@link #restart}). */
  public BrokerConfig config(int nodeId) {
    return settings.config(nodeId);
  }

  /** Where broker {@code nodeId} keeps its data. */
  public Path nodeDirectory(int nodeId) {
    return settings.nodeDirectory(nodeId);
  }

  /**
   * The filesystem backup store's directory.
   *
   * @throws IllegalStateException if the brokers have none
   */
  public Path backups() {
    if (settings.backupStore == null) {
      throw new IllegalStateException(
          "Expected a filesystem backup store, but the cluster has none");
    }
    return settings.backupStore;
  }

  // ---- access -----------------------------------------------------------------------------------

  public Broker broker(int nodeId) {
    return brokers.get(nodeId);
  }

  /** The brokers running or closed since, in node id order (not those {@link #stop}ped). */
  public List<Broker> brokers() {
    return new ArrayList<>(brokers.values());
  }

  /** A client that talks to the brokers as a gateway does, made on first use. */
  GatewayClient client() {
    if (client == null) {
      client = new GatewayClient(addresses);
    }
    return client;
  }

  /**
   * The gateway.
   *
   * @throws IllegalStateException if the cluster was built without one
   */
  public Gateway gateway() {
    if (gateway == null) {
      throw new IllegalStateException("Expected a gateway, but the cluster was built without one");
    }
    return gateway;
  }

  /** {@code host:port} of the gateway's gRPC API. */
  public String gatewayAddress() {
    return "127.0.0.1:" + gateway().grpcAddress().getPort();
  }

  // ---- life cycle -------------------------------------------------------------------------------

  /** Shuts broker {@code nodeId} down gracefully (its data stays); {@link #restart} starts it. */
  public void stop(int nodeId) {
    brokers.remove(nodeId).close();
  }

  /**
   * Opens broker {@code nodeId} again on its data directory (stopping it first if it runs) and
   * starts it; it listens on a new port, which the other brokers and the client are told.
   *
   * @throws IllegalStateException if the cluster has a gateway
   */
  public Broker restart(int nodeId) {
    if (gateway != null) {
      throw new IllegalStateException(
          "Expected no gateway, but one runs and knows the brokers' first ports only");
    }
    Broker old = brokers.remove(nodeId);
    if (old != null && !old.isClosed()) {
      old.close();
    }
    Broker broker = Broker.open(config(nodeId));
    brokers.put(nodeId, broker);
    for (Broker other : brokers.values()) {
      if (other != broker) {
        broker.setMemberAddress(other.nodeId(), other.transportAddress());
        if (!other.isClosed()) {
          other.setMemberAddress(nodeId, broker.transportAddress());
        }
      }
    }
    broker.setMemberAddress(nodeId, broker.transportAddress());
    addresses.put(nodeId, broker.transportAddress());
    if (client != null) {
      client.setBrokerAddress(nodeId, broker.transportAddress());
    }
    broker.start();
    return broker;
  }

  /**
   * Waits until every partition has one leader and every replica a role, and every broker is ready;
   * with leader balancing, until every partition is led by its preferred broker, so that tests
   * start after the transfers; with a gateway, until it knows a leader for every partition.
   */
  public BrokerTestCluster awaitReady() {
    await("every partition led and every replica following or leading")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(50))
        .until(this::isReady);
    if (gateway != null) {
      await("the gateway knowing a leader for every partition")
          .atMost(TIMEOUT)
          .pollInterval(Duration.ofMillis(50))
          .until(() -> gateway.topology().hasAllLeaders());
    }
    return this;
  }

  private boolean isReady() {
    for (int partitionId = 1; partitionId <= partitionCount; partitionId++) {
      int leaders = 0;
      int leaderNode = -1;
      int replicas = 0;
      for (Broker broker : brokers.values()) {
        Optional<HostedPartition> hosted = broker.partitions().get(partitionId);
        if (hosted.isPresent()) {
          replicas++;
          PartitionRole role = hosted.get().role();
          if (role == PartitionRole.LEADER) {
            leaders++;
            leaderNode = broker.nodeId();
          } else if (role != PartitionRole.FOLLOWER) {
            return false;
          }
        }
      }
      if (leaders != 1 || replicas != replicationFactor) {
        return false;
      }
      if (leaderBalancing && leaderNode != preferredLeader(partitionId)) {
        return false;
      }
    }
    return brokers.values().stream().allMatch(b -> b.health().ready());
  }

  /** The replica of partition {@code partitionId} that leads now. */
  public HostedPartition leaderReplica(int partitionId) {
    for (Broker broker : brokers.values()) {
      Optional<HostedPartition> hosted = broker.partitions().get(partitionId);
      if (hosted.isPresent() && hosted.get().isLeader()) {
        return hosted.get();
      }
    }
    throw new AssertionError("no leader of partition " + partitionId);
  }

  /** Closes the gateway, the client and every broker; deletes nothing. */
  @Override
  public void close() {
    if (gateway != null) {
      gateway.close();
    }
    if (client != null) {
      client.close();
    }
    for (Broker broker : brokers.values()) {
      broker.close();
    }
  }

  private int preferredLeader(int partitionId) {
    return PartitionDistribution.of(size, partitionCount, replicationFactor)
        .preferredLeader(partitionId);
  }

  /** A gateway on ephemeral ports, configured from YAML as {@code GatewayMain} does it. */
  private Gateway startGateway() {
    String brokerAddresses =
        addresses.entrySet().stream()
            .map(e -> e.getKey() + ": '" + e.getValue() + "'")
            .collect(Collectors.joining(", "));
    String yaml =
        """
        gateway:
          brokers: {%s}
          grpc: {port: 0}
          http: {port: 0}
          requestTimeout: 15s
          topologyRefreshInterval: 100ms
          retry: {backoffMin: 10ms, backoffMax: 200ms}
        """
            .formatted(brokerAddresses);
    Gateway started =
        new Gateway(
            GatewayConfigReader.parse(yaml, "test gateway of " + settings.clusterId, Map.of())
                .config(),
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
            Clock.system());
    try {
      started.start();
    } catch (RuntimeException e) {
      started.close();
      throw e;
    }
    return started;
  }

  /** The cluster's shape and settings; {@link #build()} opens and starts it. */
  public static final class Builder {
    private final Path root;
    private int size = 1;
    private int partitionCount = 1;
    private int replicationFactor = 1;
    private String clusterId = "test-cluster";
    private boolean leaderBalancing = true;
    private boolean testTuning = true;
    private final Map<String, String> settings = new LinkedHashMap<>();
    private Map<String, String> env = Map.of();
    private final Map<Integer, Path> nodeDirectories = new TreeMap<>();
    private Path backupStore;
    private SortedMap<Integer, BrokerConfig> configs;
    private boolean gateway;
    private String extraYaml = "";

    private Builder(Path root) {
      this.root = Objects.requireNonNull(root, "root").toAbsolutePath();
      backupStore = this.root.resolve("backups");
    }

    public Builder brokers(int value) {
      size = value;
      return this;
    }

    public Builder partitions(int value) {
      partitionCount = value;
      return this;
    }

    public Builder replicationFactor(int value) {
      replicationFactor = value;
      return this;
    }

    public Builder clusterId(String value) {
      clusterId = Objects.requireNonNull(value, "clusterId");
      return this;
    }

    /** {@code raft.leaderBalancing}; on by default, and then {@link #awaitReady} waits for it. */
    public Builder leaderBalancing(boolean value) {
      leaderBalancing = value;
      return this;
    }

    /** Sets a broker key (dotted, e.g. {@code data.snapshotInterval}), over the test tuning. */
    public Builder setting(String key, String value) {
      settings.put(key, value);
      return this;
    }

    /** The brokers' environment overrides ({@code CAIRN_...}), over everything else. */
    public Builder env(Map<String, String> value) {
      env = Map.copyOf(value);
      return this;
    }

    /**
     * YAML appended to each broker's configuration, for what a dotted {@link #setting} cannot say
     * (the {@code exporters} list); it must not repeat a key the harness or a setting sets.
     */
    public Builder yaml(String text) {
      extraYaml = text;
      return this;
    }

    /**
     * One broker alone, as the lifecycle tests run it: no backup store, no management server, 200
     * ms elections (a lone member elects itself at once), a 10 s wait for in-flight commands on
     * shutdown.
     */
    public Builder alone() {
      brokers(1);
      noBackupStore();
      setting("management.enabled", "false");
      setting("processing.shutdownTimeout", "10s");
      setting("raft.electionTimeout", "200ms");
      return setting("raft.heartbeatInterval", "50ms");
    }

    /** The broker's own defaults instead of {@link #TEST_TUNING}. */
    public Builder withoutTestTuning() {
      testTuning = false;
      return this;
    }

    /** Broker {@code nodeId}'s data directory instead of {@code <root>/node-<id>}. */
    public Builder nodeDirectory(int nodeId, Path directory) {
      nodeDirectories.put(nodeId, directory.toAbsolutePath());
      return this;
    }

    /** The filesystem backup store's directory instead of {@code <root>/backups}. */
    public Builder backupStore(Path directory) {
      backupStore = directory.toAbsolutePath();
      return this;
    }

    /** No backup store ({@code backup.store: none}). */
    public Builder noBackupStore() {
      backupStore = null;
      return this;
    }

    /**
     * Brokers opened from these configurations (read from files, say) as they are, in node id
     * order: their own ports, directories and backup store; the shape and the other settings of
     * this builder are not used.
     */
    public Builder configs(List<BrokerConfig> value) {
      configs = new TreeMap<>();
      value.forEach(config -> configs.put(config.cluster().nodeId(), config));
      backupStore = null;
      return this;
    }

    /** Starts a gateway in front of the brokers too (then {@link #restart} is refused). */
    public Builder gateway() {
      gateway = true;
      return this;
    }

    /**
     * The configuration broker {@code nodeId} of this cluster is opened with, for a test that opens
     * brokers itself.
     */
    public BrokerConfig config(int nodeId) {
      if (configs != null) {
        return configs.get(nodeId);
      }
      SortedMap<String, String> values = new TreeMap<>();
      if (testTuning) {
        TEST_TUNING
            .lines()
            .map(line -> line.split(": ", 2))
            .forEach(pair -> values.put(pair[0], pair[1]));
      }
      values.putAll(settings);
      values.put("cluster.clusterId", clusterId);
      values.put("cluster.nodeId", Integer.toString(nodeId));
      values.put("cluster.partitionCount", Integer.toString(partitionCount));
      values.put("cluster.replicationFactor", Integer.toString(replicationFactor));
      values.put("network.port", "0");
      values.put("data.directory", nodeDirectory(nodeId).toString());
      values.putIfAbsent("management.port", "0");
      values.put("raft.leaderBalancing", Boolean.toString(leaderBalancing));
      if (backupStore == null) {
        values.put("backup.store", "none");
      } else {
        values.put("backup.store", "fs");
        values.put("backup.fs.basePath", backupStore.toString());
      }
      // one dotted key a line, which the reader takes as the nested sections; the members are
      // placeholders, the real ports are set after binding
      String yaml =
          values.entrySet().stream()
                  .map(e -> e.getKey() + ": '" + e.getValue().replace("'", "''") + "'")
                  .collect(Collectors.joining("\n", "", "\n"))
              + "cluster.members: ["
              + String.join(", ", Collections.nCopies(size, "'127.0.0.1:1'"))
              + "]\n";
      return BrokerConfigReader.parse(
          yaml + extraYaml, "test config of node " + nodeId + " of " + clusterId, env);
    }

    /** Where broker {@code nodeId} keeps its data. */
    public Path nodeDirectory(int nodeId) {
      Path given = nodeDirectories.get(nodeId);
      return given != null ? given : root.resolve("node-" + nodeId);
    }

    private List<Integer> nodeIds() {
      if (configs != null) {
        return List.copyOf(configs.keySet());
      }
      List<Integer> ids = new ArrayList<>();
      for (int nodeId = 0; nodeId < size; nodeId++) {
        ids.add(nodeId);
      }
      return ids;
    }

    /** Opens and starts the brokers (and the gateway); returns without waiting for leaders. */
    public BrokerTestCluster build() {
      return new BrokerTestCluster(this);
    }
  }
}
