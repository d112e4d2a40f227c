package io.cairn.broker.config;

import static io.cairn.broker.config.BrokerConfigKeys.*;

import io.cairn.broker.api.limit.CommandLimitConfig;
import io.cairn.broker.exporting.ExporterDescriptor;
import io.cairn.broker.partition.PartitionConfig;
import io.cairn.config.ConfigKey;
import io.cairn.config.ConfigSetting;
import io.cairn.config.ConfigValues;
import io.cairn.config.RawConfig;
import io.cairn.tls.TlsFile;
import io.cairn.tls.TlsFiles;
import io.cairn.transport.MemberAddress;
import io.cairn.units.Durations;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads a {@link BrokerConfig} from one YAML file and the environment.
 *
 * <ol>
 *   <li>The file's keys are read as dotted paths ({@code cluster: {nodeId: 2}} is {@code
 *       cluster.nodeId}). A key that is not in {@link BrokerConfigKeys} is an error naming it and
 *       the closest known key; so is a duplicate key, a list where one value is expected, and an
 *       empty value.
 *   <li>Every key can be overridden by an environment variable: {@code CAIRN_} and the path's
 *       segments upper-cased and joined by {@code _} ({@code backup.fs.basePath} → {@code
 *       CAIRN_BACKUP_FS_BASEPATH}; a member: {@code CAIRN_CLUSTER_MEMBERS_2=host:port}). A variable
 *       {@code CAIRN_<SECTION>_...} of a known section that names no key is an error with the
 *       closest known variable; other {@code CAIRN_*} variables (launch scripts') are ignored.
 *   <li>Every value is parsed and range-checked; then rules across keys are checked. All problems
 *       are reported together in one {@link BrokerConfigException}.
 * </ol>
 *
 * <p>The environment is a parameter so that tests never touch the process's environment.
 */
public final class BrokerConfigReader {

  private final String sourceName;
  private final List<String> violations = new ArrayList<>();
  private final RawConfig rawConfig;
  private final ConfigValues values;
  private final BackupSettingsReader backupSettings;
  private boolean membersConfigured;

  private BrokerConfigReader(String sourceName) {
    this.sourceName = sourceName;
    this.rawConfig = new RawConfig(BrokerConfigKeys.catalogue(), sourceName, violations);
    this.values = new ConfigValues(rawConfig, violations);
    this.backupSettings = new BackupSettingsReader(values, violations);
  }

  /**
   * Reads {@code file} with {@code env}'s overrides.
   *
   * @throws BrokerConfigException listing every problem (including an unreadable file)
   */
  public static BrokerConfig read(Path file, Map<String, String> env) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new BrokerConfigException(
          "config file " + file,
          List.of(
              "Expected a readable configuration file, but reading "
                  + file.toAbsolutePath()
                  + " failed: "
                  + e
                  + ". Check the path given with --config"));
    }
    return parse(text, "config file " + file, env);
  }

  /**
   * Reads the YAML {@code text} with {@code env}'s overrides.
   *
   * @param sourceName names the text in messages, e.g. {@code "config file broker.yaml"}
   * @throws BrokerConfigException listing every problem
   */
  public static BrokerConfig parse(String text, String sourceName, Map<String, String> env) {
    BrokerConfigReader reader = new BrokerConfigReader(sourceName);
    reader.rawConfig.readYaml(text);
    reader.rawConfig.readEnv(env);
    return reader.build();
  }

  // ---- typed values ---------------------------------------------------------------------------

  private <T> T get(ConfigKey<T> key) {
    return values.get(key);
  }

  private boolean allValid(ConfigKey<?>... keys) {
    return values.allValid(keys);
  }

  private void fail(String path) {
    values.markFailed(path);
  }

  private boolean failed(String path) {
    return values.isFailed(path);
  }

  // ---- building -------------------------------------------------------------------------------

  private BrokerConfig build() {
    BrokerConfig.Network network = network();
    BrokerConfig.Cluster cluster = cluster(network);
    BrokerConfig.Data data = data();
    BrokerConfig.Backup backup = backupSettings.backup();
    BrokerConfig.Management management =
        new BrokerConfig.Management(
            get(MANAGEMENT_ENABLED), get(MANAGEMENT_HOST), get(MANAGEMENT_PORT));
    BrokerConfig.Processing processing = processing();
    BrokerConfig.Raft raft =
        new BrokerConfig.Raft(
            get(RAFT_ELECTION_TIMEOUT),
            get(RAFT_HEARTBEAT_INTERVAL),
            get(RAFT_REQUEST_TIMEOUT),
            get(RAFT_LEADER_BALANCING));
    BrokerConfig.Security security = new BrokerConfig.Security(get(SECURITY_ALLOW_INSECURE), tls());
    List<ExporterDescriptor> exporters = exporters();
    checkAcross(cluster, network, management, raft, processing);
    PartitionConfig partitionConfig = null;
    if (violations.isEmpty()) {
      try {
        partitionConfig = BrokerConfig.partitionConfig(data, processing, raft);
      } catch (IllegalArgumentException e) {
        violations.add(
            e.getMessage()
                + " (from keys "
                + DATA_SEGMENT_SIZE.path()
                + ", "
                + DATA_MAX_BATCH_SIZE.path()
                + ", "
                + DATA_SNAPSHOT_INTERVAL.path()
                + ", raft.*, processing.*)");
      }
    }
    if (allValid(NETWORK_HOST, MANAGEMENT_ENABLED, MANAGEMENT_HOST, SECURITY_ALLOW_INSECURE)) {
      BrokerConfig.exposedListeners(network, management, security)
          .refusal(security.allowInsecure())
          .ifPresent(violations::add);
    }
    if (!violations.isEmpty()) {
      throw new BrokerConfigException(sourceName, violations);
    }
    return new BrokerConfig(
        cluster,
        network,
        data,
        backup,
        management,
        processing,
        raft,
        security,
        partitionConfig,
        exporters,
        orderedSettings());
  }

  private BrokerConfig.Cluster cluster(BrokerConfig.Network network) {
    String clusterId = get(CLUSTER_ID);
    int nodeId = get(NODE_ID);
    int partitionCount = get(PARTITION_COUNT);
    int replicationFactor = get(REPLICATION_FACTOR);
    SortedMap<Integer, MemberAddress> members = new TreeMap<>();
    Map<String, RawConfig.Raw> rawMembers = rawConfig.groupValues(MEMBERS);
    rawMembers.forEach(
        (id, value) -> {
          MemberAddress address = values.parse(MEMBERS + "." + id, MEMBER_ADDRESS, value, false);
          if (address == null) {
            fail(MEMBERS);
          } else {
            members.put(Integer.parseInt(id), address);
          }
        });
    membersConfigured = !rawMembers.isEmpty();
    if (!membersConfigured && nodeId == 0) {
      // no members: this broker alone, as node 0, at its own address
      MemberAddress alone = new MemberAddress(network.host(), network.port());
      members.put(0, alone);
      values.putSetting(
          new ConfigSetting(MEMBERS + ".0", alone.toString(), "default: this broker alone"));
    }
    return new BrokerConfig.Cluster(clusterId, nodeId, partitionCount, replicationFactor, members);
  }

  private BrokerConfig.Network network() {
    return new BrokerConfig.Network(
        get(NETWORK_HOST),
        get(NETWORK_PORT),
        get(NETWORK_MAX_FRAME_SIZE),
        get(NETWORK_CONNECT_TIMEOUT),
        get(NETWORK_REQUEST_TIMEOUT),
        get(NETWORK_IO_THREADS));
  }

  private BrokerConfig.Data data() {
    String directory = get(DATA_DIRECTORY);
    return new BrokerConfig.Data(
        Path.of(directory),
        get(DATA_SEGMENT_SIZE),
        get(DATA_MAX_BATCH_SIZE),
        get(DATA_PREALLOCATE_SEGMENTS),
        get(DATA_SNAPSHOT_INTERVAL),
        get(DATA_SNAPSHOTS_TO_KEEP),
        backupSettings.restoreMode());
  }

  /**
   * The TLS files when {@code security.tls.enabled}: every one of them is required (their content
   * is checked when the broker starts).
   */
  private Optional<TlsFiles> tls() {
    List<ConfigKey<String>> keys =
        List.of(
            SECURITY_TLS_CERTIFICATE_FILE,
            SECURITY_TLS_PRIVATE_KEY_FILE,
            SECURITY_TLS_TRUSTED_CA_FILE);
    return values
        .requiredWhen(SECURITY_TLS_ENABLED, keys)
        .map(
            paths ->
                TlsFiles.identityAndTrust(
                    new TlsFile(keys.get(0).path(), Path.of(paths.get(0))),
                    new TlsFile(keys.get(1).path(), Path.of(paths.get(1))),
                    new TlsFile(keys.get(2).path(), Path.of(paths.get(2)))));
  }

  private List<ExporterDescriptor> exporters() {
    List<ExporterDescriptor> exporters = new ArrayList<>();
    rawConfig
        .groupSections(EXPORTERS)
        .forEach(
            (id, fields) -> {
              String type = null;
              String className = null;
              String source = null;
              Map<String, String> args = new LinkedHashMap<>();
              String prefix = EXPORTERS + "." + id + ".";
              for (Map.Entry<String, RawConfig.Raw> field : fields.entrySet()) {
                String name = field.getKey();
                RawConfig.Raw value = field.getValue();
                source = source == null ? value.source() : source;
                if (name.equals(EXPORTER_TYPE)) {
                  type = value.text().trim().toLowerCase(java.util.Locale.ROOT);
                } else if (name.equals(EXPORTER_CLASS_NAME)) {
                  className = value.text().trim();
                } else {
                  args.put(name.substring(EXPORTER_ARGS.length() + 1), value.text());
                }
                values.putSetting(
                    new ConfigSetting(
                        prefix + name,
                        isSecretArgument(name) ? ConfigSetting.REDACTED : value.text(),
                        value.source()));
              }
              List<String> problems = ExporterDescriptor.problems(type, className, args);
              if (problems.isEmpty()) {
                exporters.add(new ExporterDescriptor(id, type, className, args));
              } else {
                for (String problem : problems) {
                  violations.add(
                      "Expected exporter '"
                          + id
                          + "' to be usable, but: "
                          + problem
                          + " ("
                          + source
                          + "; environment variables "
                          + ConfigKey.envName(EXPORTERS + "." + id)
                          + "_*)");
                }
              }
            });
    return exporters;
  }

  /** Arguments whose names suggest credentials are not logged. */
  private static boolean isSecretArgument(String field) {
    String name = field.toLowerCase(java.util.Locale.ROOT);
    return name.contains("password")
        || name.contains("secret")
        || name.contains("token")
        || name.contains("credential");
  }

  private BrokerConfig.Processing processing() {
    return new BrokerConfig.Processing(
        get(PROCESSING_MAX_IN_FLIGHT_COMMANDS),
        commandLimit(),
        get(PROCESSING_COMMAND_TIMEOUT),
        get(PROCESSING_MAX_RECORDS_PER_TURN),
        get(PROCESSING_CREDIT_RETRY_INTERVAL),
        get(PROCESSING_CREDIT_RETRY_INTERVAL_MAX),
        get(PROCESSING_ACTOR_THREADS),
        get(PROCESSING_IO_THREADS),
        get(PROCESSING_TOPOLOGY_REFRESH_INTERVAL),
        get(PROCESSING_SHUTDOWN_TIMEOUT));
  }

  /**
   * The command limit; min <= initial <= max and a target latency below the command timeout
   * (commands would time out before the limit reacts) are checked here. Defaults stand in for
   * invalid values, which are reported already.
   */
  private CommandLimitConfig commandLimit() {
    CommandLimitConfig.Algorithm algorithm = get(PROCESSING_COMMAND_LIMIT_ALGORITHM);
    Integer initial = get(PROCESSING_COMMAND_LIMIT_INITIAL);
    Integer min = get(PROCESSING_COMMAND_LIMIT_MIN);
    Integer max = get(PROCESSING_COMMAND_LIMIT_MAX);
    Duration target = get(PROCESSING_COMMAND_LIMIT_TARGET_LATENCY);
    Duration timeout = get(PROCESSING_COMMAND_TIMEOUT);
    if (allValid(
            PROCESSING_COMMAND_LIMIT_INITIAL,
            PROCESSING_COMMAND_LIMIT_MIN,
            PROCESSING_COMMAND_LIMIT_MAX)
        && (min > max || initial < min || initial > max)) {
      violations.add(
          "Expected processing.commandLimit.minLimit <= initialLimit <= maxLimit, but they are "
              + min
              + ", "
              + initial
              + " and "
              + max
              + ". Raise maxLimit or lower minLimit");
      return CommandLimitConfig.defaults();
    }
    if (allValid(PROCESSING_COMMAND_LIMIT_TARGET_LATENCY, PROCESSING_COMMAND_TIMEOUT)
        && target.compareTo(timeout) >= 0) {
      violations.add(
          "Expected processing.commandLimit.targetLatency to be below processing.commandTimeout ("
              + Durations.formatExact(timeout)
              + "), but was "
              + Durations.formatExact(target)
              + " ("
              + sourceOf(PROCESSING_COMMAND_LIMIT_TARGET_LATENCY)
              + "). Commands would time out before the limit shrinks");
    }
    if (!allValid(
        PROCESSING_COMMAND_LIMIT_ALGORITHM,
        PROCESSING_COMMAND_LIMIT_INITIAL,
        PROCESSING_COMMAND_LIMIT_MIN,
        PROCESSING_COMMAND_LIMIT_MAX,
        PROCESSING_COMMAND_LIMIT_TARGET_LATENCY)) {
      return CommandLimitConfig.defaults();
    }
    return CommandLimitConfig.builder()
        .algorithm(algorithm)
        .initialLimit(initial)
        .minLimit(min)
        .maxLimit(max)
        .targetLatency(target)
        .build();
  }

  private void checkAcross(
      BrokerConfig.Cluster cluster,
      BrokerConfig.Network network,
      BrokerConfig.Management management,
      BrokerConfig.Raft raft,
      BrokerConfig.Processing processing) {
    SortedMap<Integer, MemberAddress> members = cluster.members();
    if (!failed(MEMBERS) && allValid(NODE_ID, REPLICATION_FACTOR)) {
      if (!membersConfigured) {
        if (cluster.nodeId() != 0 || cluster.replicationFactor() != 1) {
          violations.add(
              "Expected "
                  + MEMBERS
                  + " to list every broker (node id: host:port) when cluster.nodeId is "
                  + cluster.nodeId()
                  + " and cluster.replicationFactor is "
                  + cluster.replicationFactor()
                  + ", but it is empty. Without members the broker runs alone as node 0");
        }
      } else if (!members.isEmpty()) {
        List<Integer> expected = new ArrayList<>();
        for (int id = 0; id < members.size(); id++) {
          expected.add(id);
        }
        if (!new ArrayList<>(members.keySet()).equals(expected)) {
          violations.add(
              "Expected the node ids of "
                  + MEMBERS
                  + " to be "
                  + (members.size() == 1 ? "[0]" : "0.." + (members.size() - 1))
                  + " (one per broker, no gaps), but they are "
                  + members.keySet());
        } else if (!members.containsKey(cluster.nodeId())) {
          violations.add(
              "Expected cluster.nodeId to be one of the node ids of "
                  + MEMBERS
                  + " "
                  + members.keySet()
                  + ", but was "
                  + cluster.nodeId()
                  + " ("
                  + sourceOf(NODE_ID)
                  + ")");
        }
        if (cluster.replicationFactor() > members.size()) {
          violations.add(
              "Expected cluster.replicationFactor to be at most the number of members ("
                  + members.size()
                  + "), but was "
                  + cluster.replicationFactor()
                  + " ("
                  + sourceOf(REPLICATION_FACTOR)
                  + "). Add members or lower the replication factor");
        }
      }
    }
    if (allValid(RAFT_ELECTION_TIMEOUT, RAFT_HEARTBEAT_INTERVAL)
        && raft.heartbeatInterval().multipliedBy(2).compareTo(raft.electionTimeout()) > 0) {
      violations.add(
          "Expected raft.heartbeatInterval to be at most half of raft.electionTimeout, but they"
              + " are "
              + Durations.formatExact(raft.heartbeatInterval())
              + " and "
              + Durations.formatExact(raft.electionTimeout()));
    }
    if (allValid(PROCESSING_CREDIT_RETRY_INTERVAL, PROCESSING_CREDIT_RETRY_INTERVAL_MAX)
        && processing.creditRetryIntervalMax().compareTo(processing.creditRetryInterval()) < 0) {
      violations.add(
          "Expected processing.creditRetryIntervalMax to be at least"
              + " processing.creditRetryInterval ("
              + Durations.formatExact(processing.creditRetryInterval())
              + "), but was "
              + Durations.formatExact(processing.creditRetryIntervalMax()));
    }
    if (management.enabled()
        && allValid(MANAGEMENT_PORT, NETWORK_PORT, MANAGEMENT_HOST, NETWORK_HOST)
        && management.port() != 0
        && management.port() == network.port()
        && management.host().equals(network.host())) {
      violations.add(
          "Expected management.port to differ from network.port on the same host, but both are "
              + network.port());
    }
  }

  private String sourceOf(ConfigKey<?> key) {
    return values.sourceOf(key);
  }

  private List<ConfigSetting> orderedSettings() {
    return values.settings();
  }
}
