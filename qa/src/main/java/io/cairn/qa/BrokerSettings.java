package io.cairn.qa;

import io.cairn.broker.config.BrokerConfig;
import io.cairn.broker.config.BrokerConfigReader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The configuration of one embedded broker, as the YAML text a broker process would read: the kit's
 * defaults (tuned for tests on loopback: short raft timeouts, small segments, fast topology
 * refresh), then the cluster's {@link EmbeddedClusterConfig#brokerSettings() overrides}, then the
 * keys the kit owns (ids, shape, ports, directories, backup store).
 */
final class BrokerSettings {

  /** Keys set by the kit for every node; overriding them would break the cluster's wiring. */
  static final Set<String> RESERVED =
      Set.of(
          "cluster.clusterId",
          "cluster.nodeId",
          "cluster.partitionCount",
          "cluster.replicationFactor",
          "cluster.members",
          "network.host",
          "network.port",
          "data.directory",
          "management.host",
          "management.port",
          "management.enabled");

  /**
   * The defaults for embedded brokers, by dotted key. Raft timeouts are short (elections within
   * about a second on loopback); segments are small and not preallocated (temp dirs stay small);
   * one netty and one I/O thread per broker (several brokers share two cores); shutdown waits at
   * most 2 s for in-flight commands.
   */
  static final SortedMap<String, String> DEFAULTS = defaults();

  private BrokerSettings() {}

  private static SortedMap<String, String> defaults() {
    SortedMap<String, String> defaults = new TreeMap<>();
    defaults.put("network.ioThreads", "1");
    defaults.put("network.requestTimeout", "2s");
    defaults.put("data.segmentSize", "4MB");
    defaults.put("data.preallocateSegments", "false");
    defaults.put("processing.commandTimeout", "15s");
    defaults.put("processing.creditRetryInterval", "200ms");
    defaults.put("processing.creditRetryIntervalMax", "1s");
    defaults.put("processing.ioThreads", "1");
    defaults.put("processing.topologyRefreshInterval", "100ms");
    defaults.put("processing.shutdownTimeout", "2s");
    defaults.put("raft.electionTimeout", "600ms");
    defaults.put("raft.heartbeatInterval", "100ms");
    defaults.put("raft.requestTimeout", "300ms");
    return Collections.unmodifiableSortedMap(defaults);
  }

  /**
   * The configuration of node {@code nodeId}.
   *
   * @param transportPort 0 for an ephemeral port (first start), else the port to bind again
   * @param managementPort likewise for the management HTTP server
   * @param backupBasePath the filesystem store's directory, if the store is a filesystem
   */
  static BrokerConfig config(
      EmbeddedClusterConfig cluster,
      int nodeId,
      Path dataDirectory,
      int transportPort,
      int managementPort,
      Path backupBasePath) {
    SortedMap<String, String> values = new TreeMap<>(DEFAULTS);
    values.putAll(cluster.brokerSettings());
    values.put("cluster.clusterId", cluster.clusterId());
    values.put("cluster.nodeId", Integer.toString(nodeId));
    values.put("cluster.partitionCount", Integer.toString(cluster.partitions()));
    values.put("cluster.replicationFactor", Integer.toString(cluster.replicationFactor()));
    values.put("network.host", "127.0.0.1");
    values.put("network.port", Integer.toString(transportPort));
    values.put("data.directory", dataDirectory.toAbsolutePath().toString());
    values.put("management.enabled", Boolean.toString(cluster.managementEnabled()));
    values.put("management.host", "127.0.0.1");
    values.put("management.port", Integer.toString(managementPort));
    if (cluster.jsonlExporter()) {
      String exporter = "exporters." + EmbeddedClusterConfig.JSONL_EXPORTER_ID;
      values.put(exporter + ".type", "jsonl");
      values.put(exporter + ".args.directory", exportDirectory(dataDirectory).toString());
      values.put(exporter + ".args.flushInterval", "100ms");
    }
    BackupStoreSpec store = cluster.backupStore();
    if (store instanceof BackupStoreSpec.Filesystem) {
      values.put("backup.store", "fs");
      values.put("backup.fs.basePath", backupBasePath.toAbsolutePath().toString());
    } else if (store instanceof BackupStoreSpec.S3 s3) {
      values.put("backup.store", "s3");
      s3.settings().forEach((key, value) -> values.put("backup.s3." + key, value));
    } else {
      values.put("backup.store", "none");
    }
    String yaml = yaml(values, cluster.brokers());
    return BrokerConfigReader.parse(
        yaml, "embedded cluster '" + cluster.clusterId() + "' node " + nodeId, Map.of());
  }

  /** Where a node's {@code jsonl} exporter writes. */
  static Path exportDirectory(Path nodeDirectory) {
    return nodeDirectory.toAbsolutePath().resolve("exports");
  }

  /**
   * Renders dotted keys as nested YAML, every value a single-quoted string. The members are
   * placeholders ({@code 127.0.0.1:1}): the kit tells each transport the real addresses (the
   * network's proxies) between open and start.
   */
  static String yaml(SortedMap<String, String> values, int brokerCount) {
    Map<String, Object> tree = new LinkedHashMap<>();
    for (Map.Entry<String, String> entry : values.entrySet()) {
      insert(tree, entry.getKey().split("\\."), 0, entry.getValue());
    }
    StringBuilder members = new StringBuilder("[");
    for (int id = 0; id < brokerCount; id++) {
      members.append(id == 0 ? "" : ", ").append("'127.0.0.1:1'");
    }
    members.append(']');
    @SuppressWarnings("unchecked")
    Map<String, Object> clusterSection =
        (Map<String, Object>) tree.computeIfAbsent("cluster", key -> new LinkedHashMap<>());
    clusterSection.put("members", new Flow(members.toString()));
    StringBuilder text = new StringBuilder();
    render(tree, 0, text);
    return text.toString();
  }

  /** A value written as it is (a YAML flow sequence). */
  private record Flow(String text) {}

  @SuppressWarnings("unchecked")
  private static void insert(Map<String, Object> node, String[] path, int index, String value) {
    if (index == path.length - 1) {
      if (node.get(path[index]) instanceof Map) {
        throw new IllegalArgumentException(
            "Expected a value key, but " + String.join(".", path) + " is a section");
      }
      node.put(path[index], value);
      return;
    }
    Object child = node.computeIfAbsent(path[index], key -> new LinkedHashMap<>());
    if (!(child instanceof Map)) {
      throw new IllegalArgumentException(
          "Expected a section, but "
              + String.join(".", Arrays.copyOf(path, index + 1))
              + " has a value");
    }
    insert((Map<String, Object>) child, path, index + 1, value);
  }

  @SuppressWarnings("unchecked")
  private static void render(Map<String, Object> node, int depth, StringBuilder text) {
    for (Map.Entry<String, Object> entry : node.entrySet()) {
      text.append("  ".repeat(depth)).append(entry.getKey()).append(':');
      if (entry.getValue() instanceof Map<?, ?> child) {
        text.append('\n');
        render((Map<String, Object>) child, depth + 1, text);
      } else if (entry.getValue() instanceof Flow flow) {
        text.append(' ').append(flow.text()).append('\n');
      } else {
        text.append(" '").append(((String) entry.getValue()).replace("'", "''")).append("'\n");
      }
    }
  }
}
