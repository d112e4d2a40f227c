package io.cairn.cli;

import static org.awaitility.Awaitility.await;

import io.cairn.broker.Broker;
import io.cairn.broker.config.BrokerConfig;
import io.cairn.broker.config.BrokerConfigReader;
import io.cairn.client.CairnClient;
import io.cairn.gateway.Gateway;
import io.cairn.gateway.GatewayConfig;
import io.cairn.scheduler.Clock;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
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
 * Real brokers (netty on loopback with ephemeral ports, RocksDB and journals in a temporary
 * directory, a filesystem backup store) and a real gateway, all in this JVM.
 */
public final class InProcessCluster implements AutoCloseable {
  private final Path root;
  private final Map<Integer, Broker> brokers = new TreeMap<>();
  private Gateway gateway;

  public InProcessCluster(
      final Path root, final int size, final int partitionCount, final int replicationFactor) {
    this(root, configs(root, size, partitionCount, replicationFactor));
  }

  /**
   * Brokers read from configuration files (their own ports, data directories and backup store), and
   * a gateway on ephemeral ports.
   */
  public static InProcessCluster fromConfigFiles(final Path root, final List<Path> files) {
    final List<BrokerConfig> configs = new ArrayList<>();
    for (final Path file : files) {
      configs.add(BrokerConfigReader.read(file, Map.of()));
    }
    return new InProcessCluster(root, configs);
  }

  private InProcessCluster(final Path root, final List<BrokerConfig> configs) {
    this.root = root;
    try {
      Files.createDirectories(backups());
      for (final BrokerConfig config : configs) {
        brokers.put(config.cluster().nodeId(), Broker.open(config));
      }
      for (final Broker from : brokers.values()) {
        for (final Broker to : brokers.values()) {
          from.setMemberAddress(to.nodeId(), to.transportAddress());
        }
      }
      for (final Broker broker : brokers.values()) {
        broker.start();
      }
      final GatewayConfig.Builder config =
          GatewayConfig.builder()
              .grpcPort(0)
              .httpPort(0)
              .topologyRefreshInterval(Duration.ofMillis(100))
              .requestTimeout(Duration.ofSeconds(15))
              .retryBackoffMin(Duration.ofMillis(10))
              .retryBackoffMax(Duration.ofMillis(200));
      brokers.forEach((id, broker) -> config.broker(id, broker.transportAddress()));
      gateway =
          new Gateway(
              config.build(),
              new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
              Clock.system());
      gateway.start();
    } catch (final IOException e) {
      close();
      throw new UncheckedIOException(e);
    } catch (final RuntimeException e) {
      close();
      throw e;
    }
  }

  private static List<BrokerConfig> configs(
      final Path root, final int size, final int partitionCount, final int replicationFactor) {
    final List<BrokerConfig> configs = new ArrayList<>();
    for (int id = 0; id < size; id++) {
      configs.add(
          BrokerConfigReader.parse(
              yaml(root, id, size, partitionCount, replicationFactor),
              "test node " + id,
              Map.of()));
    }
    return configs;
  }

  /** A broker configuration on ephemeral ports with its data and backups under {@code root}. */
  public static String yaml(
      final Path root,
      final int nodeId,
      final int size,
      final int partitionCount,
      final int replicationFactor) {
    final StringBuilder members = new StringBuilder();
    for (int id = 0; id < size; id++) {
      members.append(id == 0 ? "" : ", ").append("'127.0.0.1:1'"); // real ports set after binding
    }
    return """
        cluster:
          clusterId: cli-test
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
        """
        .formatted(
            nodeId,
            partitionCount,
            replicationFactor,
            members,
            root.resolve("node-" + nodeId),
            root.resolve("backups"));
  }

  public Path backups() {
    return root.resolve("backups");
  }

  /** host:port of the gateway's gRPC API. */
  public String gatewayAddress() {
    return "127.0.0.1:" + gateway.grpcAddress().getPort();
  }

  /** Waits until the gateway knows a leader for every partition. */
  public InProcessCluster awaitReady() {
    try (CairnClient client =
        CairnClient.builder()
            .gateway(gatewayAddress())
            .requestTimeout(Duration.ofSeconds(5))
            .build()) {
      await("a leader for every partition")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .ignoreExceptions()
          .until(() -> client.topology().hasAllLeaders());
    }
    return this;
  }

  @Override
  public void close() {
    if (gateway != null) {
      gateway.close();
    }
    brokers.values().forEach(Broker::close);
  }
}
