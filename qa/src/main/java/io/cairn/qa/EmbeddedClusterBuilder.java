package io.cairn.qa;

import io.cairn.tls.TlsFiles;
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
  private SecuritySpec security;

  EmbeddedClusterBuilder() {}

  public EmbeddedClusterBuilder clusterId(String id) {
    this.clusterId = id;
    return this;
  }

  public EmbeddedClusterBuilder brokers(int count) {
    this.brokers = count;
    return this;
  }

  public EmbeddedClusterBuilder partitions(int count) {
    this.partitions = count;
    return this;
  }

  /** Defaults to {@code min(3, brokers)}. */
  public EmbeddedClusterBuilder replicationFactor(int factor) {
    this.replicationFactor = factor;
    return this;
  }

  public EmbeddedClusterBuilder backupStore(BackupStoreSpec store) {
    this.backupStore = store;
    return this;
  }

  /** A filesystem backup store in {@code basePath}. */
  public EmbeddedClusterBuilder backupStore(Path basePath) {
    return backupStore(BackupStoreSpec.filesystem(basePath));
  }

  /** Where the node directories go; kept after close. Default: a temporary directory. */
  public EmbeddedClusterBuilder dataDirectory(Path directory) {
    this.dataDirectory = directory;
    return this;
  }

  /** Overrides one broker configuration key for every broker (e.g. data.snapshotInterval). */
  public EmbeddedClusterBuilder brokerSetting(String key, String value) {
    brokerSettings.put(key, value);
    return this;
  }

  public EmbeddedClusterBuilder managementEnabled(boolean enabled) {
    this.managementEnabled = enabled;
    return this;
  }

  /** Runs the built-in JSON-lines exporter on every broker ({@link #exportDirectory(int)}). */
  public EmbeddedClusterBuilder jsonlExporter(boolean enabled) {
    this.jsonlExporter = enabled;
    return this;
  }

  public EmbeddedClusterBuilder gatewayRequestTimeout(Duration timeout) {
    this.gatewayRequestTimeout = timeout;
    return this;
  }

  /**
   * Security on: TLS on every listener and between the nodes, authentication at the gateway (the
   * cluster's client presents the spec's admin key).
   */
  public EmbeddedClusterBuilder security(SecuritySpec spec) {
    this.security = spec;
    TlsFiles tls = spec.brokerTls();
    brokerSetting("security.tls.enabled", "true");
    brokerSetting(
        "security.tls.certificateFile", tls.certificateChain().orElseThrow().path().toString());
    brokerSetting("security.tls.privateKeyFile", tls.privateKey().orElseThrow().path().toString());
    return brokerSetting(
        "security.tls.trustedCaFile", tls.trustedCertificates().orElseThrow().path().toString());
  }

  public EmbeddedClusterBuilder awaitTimeout(Duration timeout) {
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
        awaitTimeout,
        Optional.ofNullable(security));
  }
}
