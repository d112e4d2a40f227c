package io.cairn.qa;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Builds an {@link EmbeddedCluster} ({@link EmbeddedCluster#builder()}); see {@link
 * EmbeddedClusterConfig} for every setting, its default and its range.
 */
public final class EmbeddedClusterBuilder {
  private String clusterId = "embedded";
  private int brokers = 3;
  private int partitions = 3;
  private Integer replicationFactor;
  private BackupStoreSpec backupStore = BackupStoreSpec.inDataDirectory();
  private Path dataDirectory;
  private final SortedMap<String, String> brokerSettings = new TreeMap<>();
  private boolean managementEnabled = true;
  private boolean jsonlExporter;
  private Duration gatewayRequestTimeout = Duration.ofSeconds(15);
  private Duration awaitTimeout = Duration.ofSeconds(60);

  EmbeddedClusterBuilder() {}

  public EmbeddedClusterBuilder clusterId(final String id) {
    this.clusterId = id;
    return this;
  }

  public EmbeddedClusterBuilder brokers(final int count) {
    this.brokers = count;
    return this;
  }

  public EmbeddedClusterBuilder partitions(final int count) {
    this.partitions = count;
    return this;
  }

  /** Defaults to {@code min(3, brokers)}. */
  public EmbeddedClusterBuilder replicationFactor(final int factor) {
    this.replicationFactor = factor;
    return this;
  }

  public EmbeddedClusterBuilder backupStore(final BackupStoreSpec store) {
    this.backupStore = store;
    return this;
  }

  /** A filesystem backup store in {@code basePath}. */
  public EmbeddedClusterBuilder backupStore(final Path basePath) {
    return backupStore(BackupStoreSpec.filesystem(basePath));
  }

  /** Where the node directories go; kept after close. Default: a temporary directory. */
  public EmbeddedClusterBuilder dataDirectory(final Path directory) {
    this.dataDirectory = directory;
    return this;
  }

  /** Overrides one broker configuration key for every broker (e.g. data.snapshotInterval). */
  public EmbeddedClusterBuilder brokerSetting(final String key, final String value) {
    brokerSettings.put(key, value);
    return this;
  }

  public EmbeddedClusterBuilder managementEnabled(final boolean enabled) {
    this.managementEnabled = enabled;
    return this;
  }

  /** Runs the built-in JSON-lines exporter on every broker ({@link #exportDirectory(int)}). */
  public EmbeddedClusterBuilder jsonlExporter(final boolean enabled) {
    this.jsonlExporter = enabled;
    return this;
  }

  public EmbeddedClusterBuilder gatewayRequestTimeout(final Duration timeout) {
    this.gatewayRequestTimeout = timeout;
    return this;
  }

  public EmbeddedClusterBuilder awaitTimeout(final Duration timeout) {
    this.awaitTimeout = timeout;
    return this;
  }

  /**
   * Creates the cluster's directories; nothing runs until {@link EmbeddedCluster#start()}.
   *
   * @throws IllegalArgumentException listing every invalid setting
   */
  public EmbeddedCluster build() {
    return new EmbeddedCluster(config());
  }

  /** The validated settings without creating anything. */
  public EmbeddedClusterConfig config() {
    return new EmbeddedClusterConfig(
        clusterId,
        brokers,
        partitions,
        replicationFactor == null ? Math.min(3, brokers) : replicationFactor,
        backupStore,
        Optional.ofNullable(dataDirectory),
        brokerSettings,
        managementEnabled,
        jsonlExporter,
        gatewayRequestTimeout,
        awaitTimeout);
  }
}
