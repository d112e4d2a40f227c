package io.cairn.qa;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The validated shape and settings of an {@link EmbeddedCluster}; built by {@link
 * EmbeddedClusterBuilder}. Immutable.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><th>setting</th><th>default</th><th>allowed</th></tr>
 *   <tr><td>brokers</td><td>3</td><td>1..{@value #MAX_BROKERS}; node ids 0..brokers-1</td></tr>
 *   <tr><td>partitions</td><td>3</td><td>1..{@value #MAX_PARTITIONS}</td></tr>
 *   <tr><td>replicationFactor</td><td>min(3, brokers)</td><td>1..brokers</td></tr>
 *   <tr><td>backupStore</td><td>filesystem in {@code <dataDirectory>/backups}</td><td>{@link
 *       BackupStoreSpec}</td></tr>
 *   <tr><td>dataDirectory</td><td>a new temporary directory, deleted by {@code close()}</td>
 *       <td>any directory (kept)</td></tr>
 *   <tr><td>brokerSettings</td><td>none (see {@link BrokerSettings#DEFAULTS})</td><td>broker
 *       configuration keys ({@code raft.electionTimeout}, {@code data.snapshotInterval}, ...)
 *       except those the kit sets; values are checked by the broker</td></tr>
 *   <tr><td>managementEnabled</td><td>true</td><td>the brokers' /metrics, /health, /ready</td></tr>
 *   <tr><td>jsonlExporter</td><td>false</td><td>a {@code jsonl} exporter (id {@value
 *       #JSONL_EXPORTER_ID}) on every broker, writing to {@code <node directory>/exports} and
 *       flushing every 100 ms</td></tr>
 *   <tr><td>gatewayRequestTimeout</td><td>15 s</td><td>100 ms .. 10 min</td></tr>
 *   <tr><td>awaitTimeout</td><td>60 s</td><td>1 s .. 30 min; how long the kit's waits wait</td></tr>
 * </table>
 *
 * @param clusterId the brokers' {@code cluster.clusterId}
 * @param brokers the number of brokers
 * @param partitions the number of partitions
 * @param replicationFactor replicas per partition
 * @param backupStore where backups go
 * @param dataDirectory the root of the node directories; empty for a temporary one
 * @param brokerSettings broker configuration overrides by dotted key
 * @param managementEnabled whether each broker serves its management HTTP endpoints
 * @param jsonlExporter whether every broker runs the built-in JSON-lines exporter
 * @param gatewayRequestTimeout the gateway's {@code requestTimeout}
 * @param awaitTimeout the longest wait of {@link EmbeddedCluster#awaitHealthy()} and friends
 * @param security TLS and authentication, when on
 */
public record EmbeddedClusterConfig(
    String clusterId,
    int brokers,
    int partitions,
    int replicationFactor,
    BackupStoreSpec backupStore,
    Optional<Path> dataDirectory,
    SortedMap<String, String> brokerSettings,
    boolean managementEnabled,
    boolean jsonlExporter,
    Duration gatewayRequestTimeout,
    Duration awaitTimeout,
    Optional<SecuritySpec> security) {

  public static final int MAX_BROKERS = 16;
  public static final int MAX_PARTITIONS = 64;

  /** The id of the exporter {@link #jsonlExporter()} adds. */
  public static final String JSONL_EXPORTER_ID = "qa-jsonl";

  /**
   * @throws IllegalArgumentException listing every violated rule
   */
  public EmbeddedClusterConfig {
    List<String> violations = new ArrayList<>();
    if (clusterId == null || clusterId.isBlank()) {
      violations.add(violation("clusterId to be non-blank", "'" + clusterId + "'"));
    }
    if (brokers < 1 || brokers > MAX_BROKERS) {
      violations.add(violation("brokers in [1, " + MAX_BROKERS + "]", brokers));
    }
    if (partitions < 1 || partitions > MAX_PARTITIONS) {
      violations.add(violation("partitions in [1, " + MAX_PARTITIONS + "]", partitions));
    }
    if (replicationFactor < 1 || replicationFactor > Math.max(1, brokers)) {
      violations.add(
          violation("replicationFactor in [1, brokers = " + brokers + "]", replicationFactor));
    }
    if (backupStore == null) {
      violations.add(violation("a backupStore", "null"));
    }
    Objects.requireNonNull(dataDirectory, "dataDirectory");
    Objects.requireNonNull(brokerSettings, "brokerSettings");
    for (String key : brokerSettings.keySet()) {
      if (BrokerSettings.RESERVED.contains(key)
          || key.startsWith("cluster.")
          || (key.startsWith("backup.") && !isTunableBackupKey(key))) {
        violations.add(
            violation(
                "brokerSettings to leave the keys the kit sets alone (cluster.*, network.host,"
                    + " network.port, data.directory, management.*, the backup store: use"
                    + " backupStore)",
                key));
      }
      if (key.isBlank() || key.startsWith(".") || key.endsWith(".") || key.contains("..")) {
        violations.add(violation("brokerSettings keys to be dotted names", "'" + key + "'"));
      }
    }
    duration(
        "gatewayRequestTimeout",
        gatewayRequestTimeout,
        Duration.ofMillis(100),
        Duration.ofMinutes(10),
        violations);
    duration(
        "awaitTimeout", awaitTimeout, Duration.ofSeconds(1), Duration.ofMinutes(30), violations);
    if (!violations.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", violations));
    }
    brokerSettings = Collections.unmodifiableSortedMap(new TreeMap<>(brokerSettings));
  }

  /**
   * Backup keys that tune backups rather than choose the store (which {@link #backupStore()} does):
   * all but {@code backup.store}, {@code backup.fs.basePath} and {@code backup.s3.*}.
   */
  private static boolean isTunableBackupKey(String key) {
    return !key.equals("backup.store")
        && !key.equals("backup.fs.basePath")
        && !key.startsWith("backup.s3.");
  }

  private static void duration(
      String key, Duration value, Duration min, Duration max, List<String> violations) {
    if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      violations.add(violation(key + " in [" + min + ", " + max + "]", value));
    }
  }

  private static String violation(String rule, Object actual) {
    return "Expected " + rule + ", but was " + actual + " (embedded cluster config)";
  }
}
