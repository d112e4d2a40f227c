package io.cairn.broker;

import static org.awaitility.Awaitility.await;

import io.cairn.broker.config.BrokerConfig;
import io.cairn.broker.config.BrokerConfigReader;
import io.cairn.broker.partition.PartitionRole;
import io.cairn.transport.MemberAddress;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code N} brokers in this JVM on netty over loopback with ephemeral ports, RocksDB and journals
 * in temporary directories, a filesystem backup store shared by all, and a {@link GatewayClient}.
 * Each broker is configured from YAML the way {@code BrokerMain} does it, with optional environment
 * overrides. A broker can be stopped and started again on its data ({@link #stop}, {@link
 * #restart}); it then listens on a new port, which the others and the client are told.
 */
final class BrokerTestCluster implements AutoCloseable {

  static final Duration TIMEOUT = Duration.ofSeconds(60);

  private final Path root;
  private final int partitionCount;
  private final int replicationFactor;
  private final int size;
  private final Map<String, String> env;
  private final boolean leaderBalancing;
  private final Map<Integer, Broker> brokers = new TreeMap<>();
  private final GatewayClient client;

  BrokerTestCluster(
      final Path root, final int size, final int partitionCount, final int replicationFactor) {
    this(root, size, partitionCount, replicationFactor, true, Map.of());
  }

  BrokerTestCluster(
      final Path root,
      final int size,
      final int partitionCount,
      final int replicationFactor,
      final boolean leaderBalancing) {
    this(root, size, partitionCount, replicationFactor, leaderBalancing, Map.of());
  }

  /** With {@code env} as the brokers' environment overrides ({@code CAIRN_...}). */
  BrokerTestCluster(
      final Path root,
      final int size,
      final int partitionCount,
      final int replicationFactor,
      final Map<String, String> env) {
    this(root, size, partitionCount, replicationFactor, true, env);
  }

  BrokerTestCluster(
      final Path root,
      final int size,
      final int partitionCount,
      final int replicationFactor,
      final boolean leaderBalancing,
      final Map<String, String> env) {
    this.root = root;
    this.size = size;
    this.env = Map.copyOf(env);
    this.leaderBalancing = leaderBalancing;
    this.partitionCount = partitionCount;
    this.replicationFactor = replicationFactor;
    try {
      for (int id = 0; id < size; id++) {
        brokers.put(id, Broker.open(config(id, size)));
      }
      for (final Broker from : brokers.values()) {
        for (final Broker to : brokers.values()) {
          from.setMemberAddress(to.nodeId(), to.transportAddress());
        }
      }
      for (final Broker broker : brokers.values()) {
        broker.start();
      }
      final Map<Integer, MemberAddress> addresses = new TreeMap<>();
      brokers.forEach((id, broker) -> addresses.put(id, broker.transportAddress()));
      client = new GatewayClient(addresses);
    } catch (final RuntimeException e) {
      close();
      throw e;
    }
  }

  Path backups() {
    return root.resolve("backups");
  }

  BrokerConfig config(final int nodeId, final int size) {
    final StringBuilder members = new StringBuilder();
    for (int id = 0; id < size; id++) {
      members.append(id == 0 ? "" : ", ").append("'127.0.0.1:1'"); // real ports set after binding
    }
    final String yaml =
        """
        cluster:
          clusterId: test-cluster
          nodeId: %d
          partitionCount: %d
          replicationFactor: %d
          members: [%s]
        network:
          port: 0
          ioThreads: 1
          requestTimeout: 2s
        data:
          directory: '%s'
          segmentSize: 4MB
          preallocateSegments: false
        backup:
          store: fs
          uploadConcurrency: 1
          fs:
            basePath: '%s'
        management:
          port: 0
        processing:
          commandTimeout: 15s
          creditRetryInterval: 200ms
          creditRetryIntervalMax: 1s
          ioThreads: 1
          topologyRefreshInterval: 100ms
          shutdownTimeout: 5s
        raft:
          electionTimeout: 600ms
          heartbeatInterval: 100ms
          requestTimeout: 300ms
          leaderBalancing: %s
        """
            .formatted(
                nodeId,
                partitionCount,
                replicationFactor,
                members,
                root.resolve("node-" + nodeId),
                backups(),
                leaderBalancing);
    try {
      Files.createDirectories(backups());
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
    return BrokerConfigReader.parse(yaml, "test config of node " + nodeId, env);
  }

  Broker broker(final int nodeId) {
    return brokers.get(nodeId);
  }

  List<Broker> brokers() {
    return new ArrayList<>(brokers.values());
  }

  GatewayClient client() {
    return client;
  }

  /** Shuts broker {@code nodeId} down gracefully (its data stays); {@link #restart} starts it. */
  void stop(final int nodeId) {
    brokers.remove(nodeId).close();
  }

  /**
   * Opens broker {@code nodeId} again on its data directory (stopping it first if it runs) and
   * starts it; it listens on a new port, which the other brokers and the client are told.
   */
  Broker restart(final int nodeId) {
    final Broker old = brokers.remove(nodeId);
    if (old != null && !old.isClosed()) {
      old.close();
    }
    final Broker broker = Broker.open(config(nodeId, size));
    brokers.put(nodeId, broker);
    for (final Broker other : brokers.values()) {
      if (other != broker) {
        broker.setMemberAddress(other.nodeId(), other.transportAddress());
        if (!other.isClosed()) {
          other.setMemberAddress(nodeId, broker.transportAddress());
        }
      }
    }
    broker.setMemberAddress(nodeId, broker.transportAddress());
    client.setBrokerAddress(nodeId, broker.transportAddress());
    broker.start();
    return broker;
  }

  /**
   * Waits until every partition has one leader and every replica a role; with leader balancing,
   * until every partition is led by its preferred broker, so that tests start after the transfers.
   */
  void awaitReady() {
    await("every partition led and every replica following or leading")
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              for (int partitionId = 1; partitionId <= partitionCount; partitionId++) {
                int leaders = 0;
                int leaderNode = -1;
                int replicas = 0;
                for (final Broker broker : brokers.values()) {
                  final var hosted = broker.partitions().get(partitionId);
                  if (hosted.isPresent()) {
                    replicas++;
                    final PartitionRole role = hosted.get().role();
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
            });
  }

  /** The broker whose partition {@code partitionId} leads now. */
  HostedPartition leaderReplica(final int partitionId) {
    for (final Broker broker : brokers.values()) {
      final var hosted = broker.partitions().get(partitionId);
      if (hosted.isPresent() && hosted.get().isLeader()) {
        return hosted.get();
      }
    }
    throw new AssertionError("no leader of partition " + partitionId);
  }

  @Override
  public void close() {
    if (client != null) {
      client.close();
    }
    for (final Broker broker : brokers.values()) {
      broker.close();
    }
  }

  private int preferredLeader(final int partitionId) {
    return PartitionDistribution.of(size, partitionCount, replicationFactor)
        .preferredLeader(partitionId);
  }
}
