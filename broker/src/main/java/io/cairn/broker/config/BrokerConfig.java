package io.cairn.broker.config;

import io.cairn.backup.BackupConfig;
import io.cairn.backup.archive.ArchiveConfig;
import io.cairn.backup.retention.RetentionPolicy;
import io.cairn.backup.schedule.BackupSchedule;
import io.cairn.backup.schedule.MarkerSchedule;
import io.cairn.backupfs.FilesystemBackupStoreConfig;
import io.cairn.backups3.S3BackupStoreConfig;
import io.cairn.backupstore.BackupEncryption;
import io.cairn.broker.PartitionDistribution;
import io.cairn.broker.api.limit.CommandLimitConfig;
import io.cairn.broker.exporting.ExporterDescriptor;
import io.cairn.broker.partition.PartitionConfig;
import io.cairn.config.ConfigSetting;
import io.cairn.config.ExposedListeners;
import io.cairn.engine.LedgerEngineConfig;
import io.cairn.logstreams.LogStreamConfig;
import io.cairn.raft.RaftConfig;
import io.cairn.snapshot.SnapshotConfig;
import io.cairn.streamprocessor.StreamProcessorConfig;
import io.cairn.tls.TlsFiles;
import io.cairn.transport.MemberAddress;
import io.cairn.transport.TransportConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The validated configuration of one broker process, read by {@link BrokerConfigReader} from one
 * YAML file with environment overrides. Immutable. Every key, its default, range and environment
 * variable is in {@link BrokerConfigKeys} and the README.
 *
 * <p>The sections become the settings of the parts the broker assembles: {@link
 * #partitionConfig()}, {@link #transportConfig()}, {@link #backupConfig()}, {@link
 * #ledgerConfig()}, {@link #distribution()}.
 */
public final class BrokerConfig {

  private final Cluster cluster;
  private final Network network;
  private final Data data;
  private final Backup backup;
  private final Management management;
  private final Processing processing;
  private final Raft raft;
  private final Security security;
  private final PartitionConfig partitionConfig;
  private final List<ExporterDescriptor> exporters;
  private final List<ConfigSetting> settings;

  BrokerConfig(
      Cluster cluster,
      Network network,
      Data data,
      Backup backup,
      Management management,
      Processing processing,
      Raft raft,
      Security security,
      PartitionConfig partitionConfig,
      List<ExporterDescriptor> exporters,
      List<ConfigSetting> settings) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.network = Objects.requireNonNull(network, "network");
    this.data = Objects.requireNonNull(data, "data");
    this.backup = Objects.requireNonNull(backup, "backup");
    this.management = Objects.requireNonNull(management, "management");
    this.processing = Objects.requireNonNull(processing, "processing");
    this.raft = Objects.requireNonNull(raft, "raft");
    this.security = Objects.requireNonNull(security, "security");
    this.partitionConfig = Objects.requireNonNull(partitionConfig, "partitionConfig");
    this.exporters = List.copyOf(exporters);
    this.settings = List.copyOf(settings);
  }

  public Cluster cluster() {
    return cluster;
  }

  public Network network() {
    return network;
  }

  public Data data() {
    return data;
  }

  public Backup backup() {
    return backup;
  }

  public Management management() {
    return management;
  }

  public Processing processing() {
    return processing;
  }

  public Raft raft() {
    return raft;
  }

  public Security security() {
    return security;
  }

  /** The listeners on a non-loopback address: refused unless {@code security.allowInsecure}. */
  public ExposedListeners exposedListeners() {
    return exposedListeners(network, management, security);
  }

  /**
   * With TLS on, none: the transport then admits only members with a certificate of the cluster's
   * CA, and the management endpoints serve only metrics, health and readiness, which stay open.
   */
  static ExposedListeners exposedListeners(
      Network network, Management management, Security security) {
    Map<String, String> binds = new LinkedHashMap<>();
    if (security.tls().isPresent()) {
      return ExposedListeners.of(BrokerConfigKeys.SECURITY_ALLOW_INSECURE.path(), binds);
    }
    binds.put(BrokerConfigKeys.NETWORK_HOST.path(), network.host());
    if (management.enabled()) {
      binds.put(BrokerConfigKeys.MANAGEMENT_HOST.path(), management.host());
    }
    return ExposedListeners.of(BrokerConfigKeys.SECURITY_ALLOW_INSECURE.path(), binds);
  }

  /** The exporters every partition leader of this broker feeds, in configuration order. */
  public List<ExporterDescriptor> exporters() {
    return exporters;
  }

  /** The settings of every partition this broker hosts. */
  public PartitionConfig partitionConfig() {
    return partitionConfig;
  }

  /** Which brokers host which partitions. */
  public PartitionDistribution distribution() {
    return PartitionDistribution.of(
        cluster.members().size(), cluster.partitionCount(), cluster.replicationFactor());
  }

  /**
   * The transport's settings: bind address, the other members, frame size, timeouts. The local
   * member is left out: it is what others use to reach this broker (and may be port 0 when alone).
   */
  public TransportConfig transportConfig() {
    return TransportConfig.builder(cluster.nodeId())
        .bindHost(network.host())
        .bindPort(network.port())
        .members(others())
        .maxFrameSizeBytes((int) network.maxFrameSizeBytes())
        .connectTimeout(network.connectTimeout())
        .ioThreadCount(network.ioThreadCount())
        .build();
  }

  /** The other members' addresses: the transport never sends to itself. */
  private SortedMap<Integer, MemberAddress> others() {
    SortedMap<Integer, MemberAddress> others = new TreeMap<>(cluster.members());
    others.remove(cluster.nodeId());
    return others;
  }

  /** The backup managers' settings. */
  public BackupConfig backupConfig() {
    return BackupConfig.builder()
        .maxConcurrentBackups(backup.maxConcurrentBackups())
        .maxPendingBackups(backup.maxPendingBackups())
        .uploadRateBytesPerSecond(backup.maxBytesPerSecond())
        .build();
  }

  /** The ledger engine's settings. */
  public LedgerEngineConfig ledgerConfig() {
    return LedgerEngineConfig.builder()
        .partitionCount(cluster.partitionCount())
        .creditRetryInterval(processing.creditRetryInterval())
        .creditRetryIntervalMax(processing.creditRetryIntervalMax())
        .build();
  }

  /**
   * Every key with its effective value and where it came from, in file order; secrets are redacted.
   * What the broker logs once at start.
   */
  public List<ConfigSetting> settings() {
    return settings;
  }

  /** {@link #settings()} as lines {@code key = value (source)}. */
  public String describe() {
    StringBuilder text = new StringBuilder();
    for (ConfigSetting setting : settings) {
      text.append("  ").append(setting).append('\n');
    }
    return text.toString();
  }

  @Override
  public String toString() {
    return "BrokerConfig{node "
        + cluster.nodeId()
        + " of cluster '"
        + cluster.clusterId()
        + "', "
        + cluster.members().size()
        + " members, "
        + cluster.partitionCount()
        + " partitions, replication factor "
        + cluster.replicationFactor()
        + "}";
  }

  static PartitionConfig partitionConfig(Data data, Processing processing, Raft raft) {
    return PartitionConfig.builder()
        .raft(
            RaftConfig.builder()
                .electionTimeout(raft.electionTimeout())
                .heartbeatInterval(raft.heartbeatInterval())
                .requestTimeout(raft.requestTimeout())
                .build())
        .streamProcessor(
            StreamProcessorConfig.builder()
                .maxRecordsPerTurn(processing.maxRecordsPerTurn())
                .build())
        .snapshot(
            SnapshotConfig.builder()
                .snapshotInterval(data.snapshotInterval())
                .retainedSnapshotCount(data.snapshotsToKeep())
                .build())
        .logStream(
            LogStreamConfig.builder().maxBatchSizeBytes((int) data.maxBatchSizeBytes()).build())
        .journalSegmentSizeBytes((int) data.segmentSizeBytes())
        .journalPreallocateSegmentFiles(data.preallocateSegmentFiles())
        .build();
  }

  /**
   * @param clusterId names the cluster
   * @param nodeId this broker
   * @param partitionCount the cluster's partitions
   * @param replicationFactor brokers per partition
   * @param members every broker by node id, {@code 0..N-1}
   */
  public record Cluster(
      String clusterId,
      int nodeId,
      int partitionCount,
      int replicationFactor,
      SortedMap<Integer, MemberAddress> members) {
    public Cluster {
      Objects.requireNonNull(clusterId, "clusterId");
      members = Collections.unmodifiableSortedMap(new TreeMap<>(members));
    }
  }

  /**
   * @param host bind address of the transport
   * @param port bind port; 0 = ephemeral
   * @param maxFrameSizeBytes the largest frame
   * @param connectTimeout TCP connect timeout
   * @param requestTimeout broker-to-broker requests
   * @param ioThreadCount netty event loops
   */
  public record Network(
      String host,
      int port,
      long maxFrameSizeBytes,
      Duration connectTimeout,
      Duration requestTimeout,
      int ioThreadCount) {}

  /**
   * @param directory the node's data directory
   * @param segmentSizeBytes raft log segment size
   * @param maxBatchSizeBytes the largest batch appended to the log at once
   * @param preallocateSegmentFiles allocate segments at full size
   * @param snapshotInterval periodic snapshots
   * @param snapshotsToKeep newest snapshots kept
   * @param restoreMode while the directory is empty, wait for a restore through the API
   */
  public record Data(
      Path directory,
      long segmentSizeBytes,
      long maxBatchSizeBytes,
      boolean preallocateSegmentFiles,
      Duration snapshotInterval,
      int snapshotsToKeep,
      boolean restoreMode) {}

  /**
   * @param enabled whether backups are written at all
   * @param store the store type; {@link BackupStoreType#NONE} when none
   * @param uploadConcurrency threads reading files for backups (and of the filesystem store)
   * @param maxBytesPerSecond upload rate per partition; 0 = unlimited
   * @param maxConcurrentBackups backups of a partition uploading at once
   * @param maxPendingBackups backups of a partition waiting
   * @param fs the filesystem store's settings, iff the store is {@code fs}
   * @param s3 the S3 store's settings, iff the store is {@code s3}
   * @param encryption client-side encryption of new backups and the keys to read encrypted ones
   * @param schedule when backups are taken by themselves (the leader of partition 1 runs it)
   * @param retention which backups are kept; present only with a schedule and a store
   * @param archive how every partition's log is archived; present only with a store
   * @param markers when markers are taken between backups; present only with a schedule and the
   *     archive
   */
  public record Backup(
      boolean enabled,
      BackupStoreType store,
      int uploadConcurrency,
      long maxBytesPerSecond,
      int maxConcurrentBackups,
      int maxPendingBackups,
      Optional<FilesystemBackupStoreConfig> fs,
      Optional<S3BackupStoreConfig> s3,
      BackupEncryption encryption,
      Optional<BackupSchedule> schedule,
      Optional<RetentionPolicy> retention,
      Optional<ArchiveConfig> archive,
      Optional<MarkerSchedule> markers) {

    /** Whether partition leaders write backups: enabled and a store configured. */
    public boolean active() {
      return enabled && store != BackupStoreType.NONE;
    }
  }

  /**
   * @param enabled whether the management HTTP server runs
   * @param host its bind address
   * @param port its port; 0 = ephemeral
   */
  public record Management(boolean enabled, String host, int port) {}

  /**
   * @param allowInsecure listeners on non-loopback addresses are accepted although nothing they
   *     serve is encrypted or authenticated
   * @param tls the broker's certificate, key and the cluster's CA, when TLS is on: mutual TLS on
   *     the transport, HTTPS for management
   */
  public record Security(boolean allowInsecure, Optional<TlsFiles> tls) {}

  /**
   * @param maxInFlightCommands client commands written and not answered, per broker: a memory bound
   *     above the partitions' command limits
   * @param commandLimit the limit of client commands in flight on each partition
   * @param commandTimeout how long a client command waits for its response
   * @param maxRecordsPerTurn records per stream processor turn
   * @param creditRetryInterval first re-send of an unacknowledged credit
   * @param creditRetryIntervalMax the longest wait between re-sends
   * @param actorThreadCount threads running actors
   * @param ioThreadCount threads for blocking partition work
   * @param topologyRefreshInterval how often the others' leaders are asked for
   * @param shutdownTimeout the longest wait for in-flight commands at shutdown
   */
  public record Processing(
      int maxInFlightCommands,
      CommandLimitConfig commandLimit,
      Duration commandTimeout,
      int maxRecordsPerTurn,
      Duration creditRetryInterval,
      Duration creditRetryIntervalMax,
      int actorThreadCount,
      int ioThreadCount,
      Duration topologyRefreshInterval,
      Duration shutdownTimeout) {}

  /**
   * @param electionTimeout raft election timeout
   * @param heartbeatInterval raft heartbeat
   * @param requestTimeout raft append/snapshot request timeout
   * @param leaderBalancing each partition's leadership goes to its first member once it is caught
   *     up (so leaders spread over the brokers); false: whoever wins an election leads
   */
  public record Raft(
      Duration electionTimeout,
      Duration heartbeatInterval,
      Duration requestTimeout,
      boolean leaderBalancing) {}
}
