package io.cairn.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.backupapi.Compression;
import io.cairn.broker.api.limit.CommandLimitConfig;
import io.cairn.broker.exporting.ExporterDescriptor;
import io.cairn.config.ConfigKey;
import io.cairn.config.ConfigSetting;
import io.cairn.transport.MemberAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class BrokerConfigReaderTest {

  private static final String SOURCE = "config file test.yaml";

  private static final String FULL =
      """
      cluster:
        clusterId: ledger-eu
        nodeId: 1
        partitionCount: 6
        replicationFactor: 3
        members:
          0: 10.0.0.1:26502
          1: 10.0.0.2:26502
          2: "[::1]:26503"
      network:
        host: 0.0.0.0
        port: 26600
        maxFrameSize: 8MB
        connectTimeout: 3s
        requestTimeout: 750ms
        ioThreads: 3
      data:
        directory: /var/lib/cairn
        segmentSize: 64MB
        preallocateSegments: false
        snapshotInterval: 2m
        snapshotsToKeep: 3
      backup:
        enabled: true
        store: fs
        uploadConcurrency: 4
        maxBytesPerSecond: 64MB
        maxConcurrentBackups: 2
        maxPendingBackups: 8
        fs:
          basePath: /backups
          compression: zstd
          compressionThreshold: 1MB
          zstdLevel: 5
      management:
        host: 0.0.0.0
        port: 9700
      processing:
        maxInFlightCommands: 500
        commandLimit:
          algorithm: Gradient
          initialLimit: 50
          minLimit: 5
          maxLimit: 400
          targetLatency: 250ms
        commandTimeout: PT20S
        maxRecordsPerTurn: 50
        creditRetryInterval: 500ms
        creditRetryIntervalMax: 1m
        actorThreads: 4
        ioThreads: 3
        topologyRefreshInterval: 250ms
        shutdownTimeout: 1m
      raft:
        electionTimeout: 1s
        heartbeatInterval: 100ms
        requestTimeout: 400ms
        leaderBalancing: false
      security:
        allowInsecure: true
        tls:
          enabled: true
          certificateFile: /etc/cairn/broker.crt
          privateKeyFile: /etc/cairn/broker.key
          trustedCaFile: /etc/cairn/ca.crt
      """;

  @Test
  void shouldRefuseListenersBeyondLoopbackUnlessInsecureIsAllowed() {
    String exposed =
        FULL.replace("  allowInsecure: true", "  allowInsecure: false")
            .replace("enabled: true\n    certificateFile", "enabled: false\n    certificateFile");
    assertThat(exposed).contains("enabled: false");

    assertThatThrownBy(() -> BrokerConfigReader.parse(exposed, SOURCE, Map.of()))
        .isInstanceOf(BrokerConfigException.class)
        .hasMessageContaining(
            "Expected network.host 0.0.0.0, management.host 0.0.0.0 to be a loopback address"
                + " (127.0.0.1, ::1, localhost), since its connections are neither encrypted nor"
                + " authenticated, but they are not. Bind a loopback address, or set"
                + " security.allowInsecure: true");
    assertThat(
            BrokerConfigReader.parse(
                    exposed.replace("host: 0.0.0.0", "host: 127.0.0.1"), SOURCE, Map.of())
                .exposedListeners()
                .any())
        .isFalse();
    assertThat(
            BrokerConfigReader.parse(
                    exposed, SOURCE, Map.of("CAIRN_SECURITY_ALLOWINSECURE", "true"))
                .exposedListeners()
                .any())
        .isTrue();
    // with TLS the transport admits only the cluster's members, management only serves health
    assertThat(
            BrokerConfigReader.parse(
                    FULL.replace("  allowInsecure: true", "  allowInsecure: false"),
                    SOURCE,
                    Map.of())
                .exposedListeners()
                .any())
        .isFalse();
  }

  @Test
  void shouldRefuseAPathThisFileSystemCannotHoldNamingTheKey() {
    // A NUL character made Path.of throw InvalidPathException past the reader.
    assertThatThrownBy(
            () -> BrokerConfigReader.parse("data:\n  directory: \"data\\0x\"\n", SOURCE, Map.of()))
        .isInstanceOf(BrokerConfigException.class)
        .hasMessageContaining("data.directory")
        .hasMessageContaining("this is not a path (Nul character not allowed)");
  }

  @Test
  void shouldReadEveryKeyOfAFullFile() {
    // when
    BrokerConfig config = BrokerConfigReader.parse(FULL, SOURCE, Map.of());

    // then
    assertThat(config.cluster().clusterId()).isEqualTo("ledger-eu");
    assertThat(config.security().allowInsecure()).isTrue();
    assertThat(config.security().tls().orElseThrow().toString())
        .isEqualTo(
            "security.tls.certificateFile = /etc/cairn/broker.crt, security.tls.privateKeyFile ="
                + " /etc/cairn/broker.key, security.tls.trustedCaFile = /etc/cairn/ca.crt");
    assertThat(config.cluster().nodeId()).isEqualTo(1);
    assertThat(config.cluster().partitionCount()).isEqualTo(6);
    assertThat(config.cluster().replicationFactor()).isEqualTo(3);
    assertThat(config.cluster().members())
        .containsExactly(
            Map.entry(0, new MemberAddress("10.0.0.1", 26502)),
            Map.entry(1, new MemberAddress("10.0.0.2", 26502)),
            Map.entry(2, new MemberAddress("::1", 26503)));
    assertThat(config.network())
        .isEqualTo(
            new BrokerConfig.Network(
                "0.0.0.0", 26600, 8L << 20, Duration.ofSeconds(3), Duration.ofMillis(750), 3));
    assertThat(config.data())
        .isEqualTo(
            new BrokerConfig.Data(
                Path.of("/var/lib/cairn"),
                64L << 20,
                1L << 20,
                false,
                Duration.ofMinutes(2),
                3,
                false));
    assertThat(config.backup().store()).isEqualTo(BackupStoreType.FS);
    assertThat(config.backup().active()).isTrue();
    assertThat(config.backup().uploadConcurrency()).isEqualTo(4);
    assertThat(config.backup().maxBytesPerSecond()).isEqualTo(64L << 20);
    assertThat(config.backup().fs().orElseThrow().basePath()).isEqualTo(Path.of("/backups"));
    assertThat(config.backup().fs().orElseThrow().compression()).isEqualTo(Compression.ZSTD);
    assertThat(config.backup().fs().orElseThrow().compressionThresholdBytes()).isEqualTo(1L << 20);
    assertThat(config.backup().fs().orElseThrow().zstdLevel()).isEqualTo(5);
    assertThat(config.backupConfig().maxConcurrentBackups()).isEqualTo(2);
    assertThat(config.backupConfig().maxPendingBackups()).isEqualTo(8);
    assertThat(config.backupConfig().uploadRateBytesPerSecond()).isEqualTo(64L << 20);
    // the filesystem store's throttle and copies come from backup.*: 64MB/s, uploadConcurrency 4
    assertThat(config.backup().fs().orElseThrow().maxBytesPerSecond()).isEqualTo(64L << 20);
    assertThat(config.backup().fs().orElseThrow().maxConcurrentFileCopies()).isEqualTo(4);
    assertThat(config.management()).isEqualTo(new BrokerConfig.Management(true, "0.0.0.0", 9700));
    assertThat(config.processing())
        .isEqualTo(
            new BrokerConfig.Processing(
                500,
                CommandLimitConfig.builder()
                    .algorithm(CommandLimitConfig.Algorithm.GRADIENT)
                    .initialLimit(50)
                    .minLimit(5)
                    .maxLimit(400)
                    .targetLatency(Duration.ofMillis(250))
                    .build(),
                Duration.ofSeconds(20),
                50,
                Duration.ofMillis(500),
                Duration.ofMinutes(1),
                4,
                3,
                Duration.ofMillis(250),
                Duration.ofMinutes(1)));
    assertThat(config.partitionConfig().raft().electionTimeout()).isEqualTo(Duration.ofSeconds(1));
    assertThat(config.partitionConfig().raft().heartbeatInterval())
        .isEqualTo(Duration.ofMillis(100));
    assertThat(config.raft().leaderBalancing()).isFalse();
    assertThat(config.partitionConfig().journalSegmentSizeBytes()).isEqualTo(64 << 20);
    assertThat(config.partitionConfig().journalPreallocateSegmentFiles()).isFalse();
    assertThat(config.partitionConfig().snapshot().snapshotInterval())
        .isEqualTo(Duration.ofMinutes(2));
    assertThat(config.partitionConfig().snapshot().retainedSnapshotCount()).isEqualTo(3);
    assertThat(config.partitionConfig().streamProcessor().maxRecordsPerTurn()).isEqualTo(50);
    assertThat(config.ledgerConfig().partitionCount()).isEqualTo(6);
    assertThat(config.ledgerConfig().creditRetryInterval()).isEqualTo(Duration.ofMillis(500));
    assertThat(config.transportConfig().maxFrameSizeBytes()).isEqualTo(8 << 20);
    assertThat(config.distribution().partitionsOf(1)).containsExactly(1, 2, 3, 4, 5, 6);
  }

  @Test
  void shouldUseTheDefaultsForAnEmptyFile() {
    // when
    BrokerConfig config = BrokerConfigReader.parse("", SOURCE, Map.of());

    // then a single node with defaults from the key table
    assertThat(config.cluster().nodeId()).isZero();
    assertThat(config.cluster().clusterId()).isEqualTo("cairn");
    assertThat(config.cluster().members())
        .containsExactly(Map.entry(0, new MemberAddress("127.0.0.1", 26502)));
    assertThat(config.transportConfig().members()).isEmpty();
    assertThat(config.distribution().partitionsOf(0)).containsExactly(1);
    assertThat(config.cluster().partitionCount()).isEqualTo(1);
    assertThat(config.network().port()).isEqualTo(26502);
    assertThat(config.data().directory()).isEqualTo(Path.of("data"));
    assertThat(config.data().segmentSizeBytes()).isEqualTo(128L << 20);
    assertThat(config.data().snapshotInterval()).isEqualTo(Duration.ofMinutes(5));
    assertThat(config.backup().store()).isEqualTo(BackupStoreType.NONE);
    assertThat(config.backup().active()).isFalse();
    assertThat(config.management().port()).isEqualTo(9600);
    assertThat(config.processing().commandTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.processing().commandLimit()).isEqualTo(CommandLimitConfig.defaults());
    assertThat(config.processing().commandLimit().algorithm())
        .isEqualTo(CommandLimitConfig.Algorithm.AIMD);
    assertThat(config.partitionConfig().raft().electionTimeout())
        .isEqualTo(Duration.ofMillis(2500));
    assertThat(config.raft().leaderBalancing()).isTrue();
    for (ConfigKey<?> key : BrokerConfigKeys.all()) {
      // the filesystem store's keys count (and are listed) only with backup.store fs
      if (key.defaultValue() != null && !key.path().startsWith("backup.fs.")) {
        assertThat(config.settings())
            .as("the effective settings list %s with its default", key.path())
            .contains(new ConfigSetting(key.path(), key.defaultValue(), "default"));
      }
    }
  }

  @Test
  void shouldLetTheEnvironmentOverrideEveryKindOfKey() {
    // given
    Map<String, String> env =
        Map.of(
            "CAIRN_CLUSTER_NODEID", "2",
            "CAIRN_CLUSTER_MEMBERS_2", "10.0.0.9:27000",
            "CAIRN_BACKUP_FS_BASEPATH", "/mnt/backups",
            "CAIRN_DATA_SEGMENTSIZE", "32mb",
            "CAIRN_PROCESSING_COMMANDTIMEOUT", "90s",
            "CAIRN_HOME", "/opt/cairn",
            "PATH", "/usr/bin");

    // when
    BrokerConfig config = BrokerConfigReader.parse(FULL, SOURCE, env);

    // then
    assertThat(config.cluster().nodeId()).isEqualTo(2);
    assertThat(config.cluster().members().get(2)).isEqualTo(new MemberAddress("10.0.0.9", 27000));
    assertThat(config.cluster().members().get(0)).isEqualTo(new MemberAddress("10.0.0.1", 26502));
    assertThat(config.backup().fs().orElseThrow().basePath()).isEqualTo(Path.of("/mnt/backups"));
    assertThat(config.data().segmentSizeBytes()).isEqualTo(32L << 20);
    assertThat(config.processing().commandTimeout()).isEqualTo(Duration.ofSeconds(90));
    assertThat(config.settings())
        .contains(
            new ConfigSetting(
                "cluster.nodeId", "2", "set by environment variable CAIRN_CLUSTER_NODEID"),
            new ConfigSetting("cluster.partitionCount", "6", "set in " + SOURCE));
  }

  @Test
  void shouldNameEachKeysEnvironmentVariableMechanically() {
    assertThat(BrokerConfigKeys.NODE_ID.envName()).isEqualTo("CAIRN_CLUSTER_NODEID");
    assertThat(BrokerConfigKeys.BACKUP_FS_BASE_PATH.envName())
        .isEqualTo("CAIRN_BACKUP_FS_BASEPATH");
    assertThat(BrokerConfigKeys.S3_KEYS.get("secretAccessKey").envName())
        .isEqualTo("CAIRN_BACKUP_S3_SECRETACCESSKEY");
    for (ConfigKey<?> key : BrokerConfigKeys.allWithS3()) {
      assertThat(key.envName())
          .isEqualTo("CAIRN_" + key.path().replace(".", "_").toUpperCase(Locale.ROOT));
    }
  }

  static Stream<Arguments> badValues() {
    return Stream.of(
        Arguments.of(
            "cluster:\n  nodeId: -1",
            Map.of(),
            "Expected cluster.nodeId to be an integer in [0, 1023], but was -1 (set in "
                + SOURCE
                + "; environment variable CAIRN_CLUSTER_NODEID)"),
        Arguments.of(
            "",
            Map.of("CAIRN_CLUSTER_PARTITIONCOUNT", "many"),
            "Expected cluster.partitionCount to be an integer in [1, 32767], but was 'many' (set"
                + " by environment variable CAIRN_CLUSTER_PARTITIONCOUNT; environment variable"
                + " CAIRN_CLUSTER_PARTITIONCOUNT)"),
        Arguments.of(
            "cluster:\n  replicationFactor: 2",
            Map.of(),
            "Expected cluster.replicationFactor to be one of [1, 3, 5], but was '2'"),
        Arguments.of(
            "cluster:\n  clusterId: 'my cluster'",
            Map.of(),
            "Expected cluster.clusterId to be 1 to 64 of [A-Za-z0-9._-], but was 'my cluster'"),
        Arguments.of(
            "network:\n  port: 70000",
            Map.of(),
            "Expected network.port to be an integer in [0, 65535], but was 70000"),
        Arguments.of(
            "network:\n  maxFrameSize: 1KB",
            Map.of(),
            "Expected network.maxFrameSize to be a size in [2MB, 256MB], but was '1KB'"),
        Arguments.of(
            "data:\n  segmentSize: 128 potatoes",
            Map.of(),
            "Expected data.segmentSize to be a size in [4KB, 1GB], such as 128MB or 64KB, but was"
                + " '128 potatoes'"),
        Arguments.of(
            "data:\n  segmentSize: 2GB",
            Map.of(),
            "Expected data.segmentSize to be a size in [4KB, 1GB], but was '2GB'"),
        Arguments.of(
            "data:\n  snapshotInterval: 5",
            Map.of(),
            "Expected data.snapshotInterval to be a duration in [1s, 1d], with a unit (ms, s, m,"
                + " h, d), but was '5'"),
        Arguments.of(
            "data:\n  snapshotInterval: 500ms",
            Map.of(),
            "Expected data.snapshotInterval to be a duration in [1s, 1d], but was '500ms'"),
        Arguments.of(
            "data:\n  preallocateSegments: yes please",
            Map.of(),
            "Expected data.preallocateSegments to be true or false, but was 'yes please'"),
        Arguments.of(
            "backup:\n  store: tape",
            Map.of(),
            "Expected backup.store to be one of [none, fs, s3], but was 'tape'"),
        Arguments.of(
            "backup:\n  store: fs",
            Map.of(),
            "Expected backup.fs.basePath to be set when backup.store is fs, but it is not set"
                + " (environment variable CAIRN_BACKUP_FS_BASEPATH)"),
        Arguments.of(
            "backup:\n  store: fs\n  uploadConcurrency: 2\n  fs:\n    basePath: /b\n"
                + "    maxConcurrentFileCopies: 4",
            Map.of(),
            "Expected backup.fs.maxConcurrentFileCopies to be at most backup.uploadConcurrency (2,"
                + " the threads of the store), but was 4 (set in "
                + SOURCE
                + "). Raise backup.uploadConcurrency or leave backup.fs.maxConcurrentFileCopies"
                + " unset to use it"),
        Arguments.of(
            "backup:\n  store: fs\n  fs:\n    basePath: /b\n  retention:\n    maxCount: 3",
            Map.of(),
            "Expected backup.schedule.interval or backup.schedule.cron with"
                + " backup.retention.maxCount (set in "
                + SOURCE
                + "), but neither is set: retention runs after each scheduled backup"),
        Arguments.of(
            "backup:\n  store: fs\n  fs:\n    basePath: /b\n  schedule:\n    cron: '61 2 * * *'",
            Map.of(),
            "Expected backup.schedule.cron to be a five-field cron expression in UTC (minute hour"
                + " day-of-month month day-of-week, e.g. '0 2 * * *'), but was '61 2 * * *':"
                + " Expected the minute field to hold values in 0..59, but it has '61'"),
        Arguments.of(
            "backup:\n  store: fs\n  fs:\n    basePath: /b\n  schedule:\n    cron: '0 0 30 2 *'",
            Map.of(),
            "but it never does"),
        Arguments.of(
            "backup:\n  store: fs\n  fs:\n    basePath: /b\n  schedule:\n    interval: 1h\n"
                + "    cron: '0 2 * * *'",
            Map.of(),
            "Expected either backup.schedule.interval (set in "
                + SOURCE
                + ") or backup.schedule.cron (set in "
                + SOURCE
                + "), but both are set. Keep one"),
        Arguments.of(
            "backup:\n  schedule:\n    interval: 1h\n  retention:\n    maxAge: 7d",
            Map.of(),
            "Expected a backup store (backup.store: fs or s3) with backup.retention.maxAge (set in "
                + SOURCE
                + "), but backup.store is none"),
        Arguments.of(
            "backup:\n  store: fs\n  fs:\n    basePath: /b\n  schedule:\n    interval: 1h\n"
                + "  retention:\n    maxCount: 2\n    minCount: 3",
            Map.of(),
            "Expected backup.retention.minCount <= backup.retention.maxCount (2), but was 3 (set in "
                + SOURCE
                + ")"),
        Arguments.of(
            "backup:\n  archive:\n    enabled: true",
            Map.of(),
            "Expected a backup store (backup.store: fs or s3) with backup.archive.enabled (set in "
                + SOURCE
                + "), but backup.store is none"),
        Arguments.of(
            "backup:\n  store: fs\n  fs:\n    basePath: /b\n  archive:\n    enabled: true\n"
                + "  schedule:\n    markerInterval: 1s",
            Map.of(),
            "Expected backup.schedule.interval or backup.schedule.cron with"
                + " backup.schedule.markerInterval (set in "
                + SOURCE
                + "), but neither is set: markers run between scheduled backups"),
        Arguments.of(
            "backup:\n  store: fs\n  fs:\n    basePath: /b\n  archive:\n    enabled: true\n"
                + "  schedule:\n    cron: '*/5 * * * *'\n    markerInterval: 5m",
            Map.of(),
            "Expected backup.schedule.markerInterval (set in "
                + SOURCE
                + ") below the shortest gap of backup.schedule.cron (5m00s), but was 5m00s"),
        Arguments.of(
            "backup:\n  store: fs\n  fs:\n    basePath: /b\n  archive:\n    enabled: true\n"
                + "  schedule:\n    interval: 1m\n    markerInterval: 1m",
            Map.of(),
            "Expected backup.schedule.markerInterval (set in "
                + SOURCE
                + ") below backup.schedule.interval (1m00s), but was 1m00s"),
        Arguments.of(
            "backup:\n  store: fs\n  fs:\n    basePath: /b\n"
                + "  schedule:\n    interval: 1h\n    markerInterval: 1s",
            Map.of(),
            "Expected backup.archive.enabled with backup.schedule.markerInterval (set in "
                + SOURCE
                + "), but the log archive is off: a marker is a restore point only in the archive"),
        Arguments.of(
            "backup:\n  archive:\n    maxUnarchivedBytes: 1MB",
            Map.of(),
            "Expected backup.archive.maxUnarchivedBytes to be a size in [64MB, 1TB], but was"
                + " '1MB'"),
        Arguments.of(
            "backup:\n  schedule:\n    interval: 10ms",
            Map.of(),
            "Expected backup.schedule.interval to be a duration in [1s, 366d], but was '10ms'"),
        Arguments.of(
            "backup:\n  maxBytesPerSecond: 1KB",
            Map.of(),
            "Expected backup.maxBytesPerSecond to be 0 (off) or a size in [64KB, 1TB], but was"
                + " '1KB'"),
        Arguments.of(
            "backup:\n  store: s3",
            Map.of(),
            "(the key is backup.s3.<key>, environment variable CAIRN_BACKUP_S3_<KEY>)"),
        Arguments.of(
            "processing:\n  commandLimit:\n    algorithm: adaptive",
            Map.of(),
            "Expected processing.commandLimit.algorithm to be one of [fixed, aimd, gradient,"
                + " vegas], but was 'adaptive'"),
        Arguments.of(
            "",
            Map.of("CAIRN_PROCESSING_COMMANDLIMIT_MAXLIMIT", "0"),
            "Expected processing.commandLimit.maxLimit to be an integer in [1, 100000], but was 0"),
        Arguments.of(
            "processing:\n  commandLimit:\n    initialLimit: 2000",
            Map.of(),
            "Expected processing.commandLimit.minLimit <= initialLimit <= maxLimit, but they are"
                + " 10, 2000 and 1000. Raise maxLimit or lower minLimit"),
        Arguments.of(
            "processing:\n  commandTimeout: 1s\n  commandLimit:\n    targetLatency: 2s",
            Map.of(),
            "Expected processing.commandLimit.targetLatency to be below processing.commandTimeout"
                + " (1s), but was 2s (set in "
                + SOURCE
                + "). Commands would time out before the limit shrinks"),
        Arguments.of(
            "processing:\n  commandTimeout: 0",
            Map.of(),
            "Expected processing.commandTimeout to be a duration in [10ms, 10m], but was '0'"),
        Arguments.of(
            "raft:\n  electionTimeout: 100ms\n  heartbeatInterval: 80ms",
            Map.of(),
            "Expected raft.heartbeatInterval to be at most half of raft.electionTimeout, but they"
                + " are 80ms and 100ms"),
        Arguments.of(
            "cluster:\n  members: {0: 'a:1', 2: 'b:1'}",
            Map.of(),
            "Expected the node ids of cluster.members to be 0..1 (one per broker, no gaps), but"
                + " they are [0, 2]"),
        Arguments.of(
            "cluster:\n  nodeId: 3\n  members: ['a:1', 'b:1', 'c:1']",
            Map.of(),
            "Expected cluster.nodeId to be one of the node ids of cluster.members [0, 1, 2], but"
                + " was 3"),
        Arguments.of(
            "cluster:\n  replicationFactor: 5\n  members: ['a:1', 'b:1', 'c:1']",
            Map.of(),
            "Expected cluster.replicationFactor to be at most the number of members (3), but was"
                + " 5"),
        Arguments.of(
            "cluster:\n  members: ['a:1', 'no-port']",
            Map.of(),
            "Expected cluster.members.1 to be host:port with a port in [1, 65535], but was"
                + " 'no-port'"),
        Arguments.of(
            "cluster:\n  nodeId: 1",
            Map.of(),
            "Expected cluster.members to list every broker (node id: host:port) when"
                + " cluster.nodeId is 1"),
        Arguments.of(
            "management:\n  port: 26502",
            Map.of(),
            "Expected management.port to differ from network.port on the same host, but both are"
                + " 26502"),
        Arguments.of(
            "processing:\n  creditRetryInterval: 5s\n  creditRetryIntervalMax: 1s",
            Map.of(),
            "Expected processing.creditRetryIntervalMax to be at least"
                + " processing.creditRetryInterval (5s), but was 1s"),
        Arguments.of(
            "data:\n  segmentSize: 512KB",
            Map.of(),
            "Expected a journal segment to hold the largest log batch"),
        Arguments.of(
            "data:\n  segmentSize: 64KB\n  maxBatchSize: 64KB",
            Map.of(),
            "(from keys data.segmentSize, data.maxBatchSize,"),
        Arguments.of(
            "data:\n  maxBatchSize: 2MB",
            Map.of(),
            "Expected data.maxBatchSize to be a size in [1KB, 1MB], but was '2MB'"));
  }

  @Test
  void shouldTakeSegmentsSmallerThanAMegabyteWithASmallerBatch() {
    BrokerConfig config =
        BrokerConfigReader.parse(
            "data:\n  segmentSize: 64KB\n  maxBatchSize: 32KB", SOURCE, Map.of());

    assertThat(config.partitionConfig().journalSegmentSizeBytes()).isEqualTo(64 << 10);
    assertThat(config.partitionConfig().logStream().maxBatchSizeBytes()).isEqualTo(32 << 10);
  }

  @ParameterizedTest(name = "[{index}] {2}")
  @MethodSource("badValues")
  void shouldRejectABadValueNamingTheKeyTheValueAndTheRange(
      String yaml, Map<String, String> env, String expected) {
    assertThatThrownBy(() -> BrokerConfigReader.parse(yaml, SOURCE, env))
        .isInstanceOf(BrokerConfigException.class)
        .satisfies(
            error ->
                assertThat(((BrokerConfigException) error).violations())
                    .anySatisfy(violation -> assertThat(violation).contains(expected)));
  }

  @Test
  void shouldRejectAnUnknownKeySuggestingTheClosestKnownOne() {
    assertThatThrownBy(
            () ->
                BrokerConfigReader.parse(
                    "cluster:\n  nodeID: 1\nbackup:\n  fs:\n    basepth: /x", SOURCE, Map.of()))
        .isInstanceOf(BrokerConfigException.class)
        .satisfies(
            error ->
                assertThat(((BrokerConfigException) error).violations())
                    .containsExactly(
                        "Expected only known keys, but cluster.nodeID is not one ("
                            + SOURCE
                            + "); did you mean cluster.nodeId?",
                        "Expected only known keys, but backup.fs.basepth is not one ("
                            + SOURCE
                            + "); did you mean backup.fs.basePath?"));
  }

  @Test
  void shouldRejectAnUnknownVariableOfAKnownSectionButIgnoreOtherCairnVariables() {
    assertThatThrownBy(
            () ->
                BrokerConfigReader.parse(
                    "", SOURCE, Map.of("CAIRN_CLUSTER_NODE_ID", "1", "CAIRN_JAVA_OPTS", "-Xmx1g")))
        .isInstanceOf(BrokerConfigException.class)
        .satisfies(
            error ->
                assertThat(((BrokerConfigException) error).violations())
                    .containsExactly(
                        "Expected environment variable CAIRN_CLUSTER_NODE_ID to name a"
                            + " configuration key, but there is no such key; did you mean"
                            + " CAIRN_CLUSTER_NODEID (cluster.nodeId)?"));
  }

  @Test
  void shouldListEveryProblemAtOnce() {
    // given three bad keys and a YAML list where one value belongs
    String yaml =
        """
        cluster:
          nodeId: x
        network:
          port: -5
          host: [a, b]
        raft:
          electionTimeout: soon
        """;

    // then
    assertThatThrownBy(() -> BrokerConfigReader.parse(yaml, SOURCE, Map.of()))
        .isInstanceOf(BrokerConfigException.class)
        .hasMessageStartingWith(
            "Expected a valid broker configuration, but " + SOURCE + " has 4 problems.")
        .satisfies(
            error ->
                assertThat(((BrokerConfigException) error).violations())
                    .hasSize(4)
                    .anySatisfy(v -> assertThat(v).startsWith("Expected cluster.nodeId"))
                    .anySatisfy(v -> assertThat(v).startsWith("Expected network.port"))
                    .anySatisfy(
                        v -> assertThat(v).startsWith("Expected one value for network.host"))
                    .anySatisfy(v -> assertThat(v).startsWith("Expected raft.electionTimeout")));
  }

  @Test
  void shouldRejectDuplicateKeysEmptyValuesAndBrokenYaml() {
    assertThatThrownBy(
            () -> BrokerConfigReader.parse("cluster:\n  nodeId: 1\n  nodeId: 2", SOURCE, Map.of()))
        .hasMessageContaining("Duplicate field 'nodeId'");
    assertThatThrownBy(() -> BrokerConfigReader.parse("cluster:\n  nodeId:", SOURCE, Map.of()))
        .hasMessageContaining(
            "Expected a value for cluster.nodeId, but it is empty (" + SOURCE + ")");
    assertThatThrownBy(() -> BrokerConfigReader.parse("cluster: [", SOURCE, Map.of()))
        .hasMessageContaining("Expected valid YAML, but");
    assertThatThrownBy(() -> BrokerConfigReader.parse("cluster: 3", SOURCE, Map.of()))
        .hasMessageContaining("Expected cluster to be a section of keys, but it is the value '3'");
  }

  @Test
  void shouldRedactSecretsInTheEffectiveSettingsAndErrors() {
    // given an S3 store with static credentials and a URL with user info
    String yaml =
        """
        backup:
          store: s3
          s3:
            bucket: backups
            endpoint: http://admin:hunter2@127.0.0.1:9000
            accessKeyId: AKIAEXAMPLE
            secretAccessKey: wJalrXUtnFEMI
            pathStyleAccess: true
        """;

    // when
    BrokerConfig config = BrokerConfigReader.parse(yaml, SOURCE, Map.of());

    // then
    assertThat(config.backup().s3().orElseThrow().bucket()).isEqualTo("backups");
    assertThat(config.backup().s3().orElseThrow().maxBytesPerSecond()).isZero();
    assertThat(config.describe())
        .contains("backup.s3.secretAccessKey = <redacted> (set in " + SOURCE + ")")
        .contains("backup.s3.endpoint = http://<redacted>@127.0.0.1:9000")
        .contains("backup.s3.accessKeyId = AKIAEXAMPLE")
        .doesNotContain("wJalrXUtnFEMI")
        .doesNotContain("hunter2");
  }

  @Test
  void shouldDeriveTheObjectLockPeriodFromTheRetentionAgeUnlessSet() {
    String yaml =
        """
        backup:
          store: s3
          s3:
            bucket: backups
            objectLockMode: governance
          schedule:
            interval: 1h
          retention:
            maxAge: 14d
        """;

    assertThat(
            BrokerConfigReader.parse(yaml, SOURCE, Map.of())
                .backup()
                .s3()
                .orElseThrow()
                .objectLock())
        .contains(
            new io.cairn.backups3.ObjectLock(
                io.cairn.backups3.ObjectLock.Mode.GOVERNANCE, java.time.Duration.ofDays(14)));
    assertThat(
            BrokerConfigReader.parse(
                    yaml, SOURCE, Map.of("CAIRN_BACKUP_S3_OBJECTLOCKPERIOD", "30d"))
                .backup()
                .s3()
                .orElseThrow()
                .objectLock()
                .orElseThrow()
                .period())
        .isEqualTo(java.time.Duration.ofDays(30));
    assertThatThrownBy(
            () ->
                BrokerConfigReader.parse(
                    "backup:\n  store: s3\n  s3:\n    bucket: b\n    objectLockMode: compliance",
                    SOURCE,
                    Map.of()))
        .hasMessageContaining("key objectLockPeriod)")
        .hasMessageContaining("derives it from backup.retention.maxAge");
  }

  private static final String KEY_A = java.util.Base64.getEncoder().encodeToString(new byte[32]);
  private static final String KEY_B =
      java.util.Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());

  @Test
  void shouldRequireEveryTlsFileWhenTlsIsOn() {
    assertThatThrownBy(
            () ->
                BrokerConfigReader.parse(
                    "security:\n  tls:\n    enabled: true\n    certificateFile: /c.crt\n",
                    SOURCE,
                    Map.of()))
        .hasMessageContaining(
            "Expected security.tls.privateKeyFile to be set when security.tls.enabled is true")
        .hasMessageContaining("CAIRN_SECURITY_TLS_TRUSTEDCAFILE");
    assertThat(BrokerConfigReader.parse("", SOURCE, Map.of()).security().tls()).isEmpty();
  }

  @Test
  void shouldReadBackupEncryptionKeysFromTheEnvironmentAndRedactThem() {
    // given two master keys in the environment, the second one active
    Map<String, String> env =
        Map.of(
            "CAIRN_BACKUP_ENCRYPTION_KEYS",
            "old=" + KEY_A + ";new=" + KEY_B,
            "CAIRN_BACKUP_ENCRYPTION_KEYID",
            "new");

    // when
    BrokerConfig config = BrokerConfigReader.parse("", SOURCE, env);

    // then
    assertThat(config.backup().encryption().enabled()).isTrue();
    assertThat(config.backup().encryption().activeKeyId()).hasValue("new");
    assertThat(config.describe())
        .contains("backup.encryption.keys = <redacted>")
        .doesNotContain(KEY_A)
        .doesNotContain(KEY_B);
    assertThat(config.backup().toString()).doesNotContain(KEY_A).doesNotContain(KEY_B);
    assertThat(BrokerConfigReader.parse("", SOURCE, Map.of()).backup().encryption().enabled())
        .isFalse();
  }

  @Test
  void shouldReadAnOwnerOnlyKeyFileAndRefuseOneOpenToOthers(
      @org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    Path file = dir.resolve("master.keys");
    java.nio.file.Files.writeString(file, "# rotated 2026-11\nk1=" + KEY_A + "\n");
    java.nio.file.Files.setPosixFilePermissions(
        file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    String yaml = "backup:\n  encryption:\n    keyFile: " + file + "\n";

    assertThat(BrokerConfigReader.parse(yaml, SOURCE, Map.of()).backup().encryption().activeKeyId())
        .as("the only key is the active one")
        .hasValue("k1");

    java.nio.file.Files.setPosixFilePermissions(
        file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    assertThatThrownBy(() -> BrokerConfigReader.parse(yaml, SOURCE, Map.of()))
        .hasMessageContaining("readable by its owner only")
        .hasMessageContaining("chmod 600 " + file)
        .hasMessageContaining("backup.encryption.keyFile")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(KEY_A));
  }

  @Test
  void shouldRefuseAmbiguousOrUnknownEncryptionKeys() {
    String two = "a=" + KEY_A + ";b=" + KEY_B;
    assertThatThrownBy(
            () -> BrokerConfigReader.parse("", SOURCE, Map.of("CAIRN_BACKUP_ENCRYPTION_KEYS", two)))
        .hasMessageContaining("Expected backup.encryption.keyId to name the key")
        .hasMessageContaining("[a, b]");
    assertThatThrownBy(
            () ->
                BrokerConfigReader.parse(
                    "",
                    SOURCE,
                    Map.of(
                        "CAIRN_BACKUP_ENCRYPTION_KEYS", two, "CAIRN_BACKUP_ENCRYPTION_KEYID", "c")))
        .hasMessageContaining("one of [a, b], but it is 'c'")
        .hasMessageContaining("backup.encryption.keyId");
    assertThatThrownBy(
            () ->
                BrokerConfigReader.parse(
                    "backup:\n  encryption:\n    keyFile: /k\n",
                    SOURCE,
                    Map.of("CAIRN_BACKUP_ENCRYPTION_KEYS", two)))
        .hasMessageContaining(
            "Expected one of backup.encryption.keyFile and backup.encryption.keys");
    assertThatThrownBy(
            () ->
                BrokerConfigReader.parse(
                    "", SOURCE, Map.of("CAIRN_BACKUP_ENCRYPTION_KEYS", "a=bm90LWEta2V5")))
        .hasMessageContaining("to be 32 bytes")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("bm90LWEta2V5"));
  }

  @Test
  void shouldReadExportersFromTheFileAndTheEnvironment() {
    // given
    String yaml =
        """
        exporters:
          - id: files
            type: jsonl
            args:
              directory: /var/export
              maxFileSize: 16MB
        """;
    Map<String, String> env =
        Map.of(
            "CAIRN_EXPORTERS_FILES_ARGS_MAXFILESIZE", "32MB",
            "CAIRN_EXPORTERS_CUSTOM_CLASSNAME", "io.cairn.broker.partition.RecordingExporter",
            "CAIRN_EXPORTERS_CUSTOM_ARGS_SINK", "s",
            "CAIRN_EXPORTERS_CUSTOM_ARGS_APITOKEN", "hunter2");

    // when
    BrokerConfig config = BrokerConfigReader.parse(yaml, SOURCE, env);

    // then
    assertThat(config.exporters())
        .containsExactly(
            ExporterDescriptor.jsonLines(
                "files", Map.of("directory", "/var/export", "maxFileSize", "32MB")),
            new ExporterDescriptor(
                "custom",
                null,
                "io.cairn.broker.partition.RecordingExporter",
                Map.of("sink", "s", "apitoken", "hunter2")));
    assertThat(config.describe())
        .contains("exporters.files.type = jsonl (set in " + SOURCE + ")")
        .contains(
            "exporters.files.args.maxFileSize = 32MB (set by environment variable"
                + " CAIRN_EXPORTERS_FILES_ARGS_MAXFILESIZE)")
        .contains("exporters.custom.args.apitoken = <redacted>")
        .doesNotContain("hunter2");
    assertThat(config.exporters().get(0).newExporter())
        .isInstanceOf(io.cairn.exporter.jsonl.JsonLinesExporter.class);
  }

  @Test
  void shouldListEveryProblemOfTheExporters() {
    String yaml =
        """
        exporters:
          a:
            type: kafka
          b:
            type: jsonl
            className: java.lang.String
          c:
            className: java.lang.String
          d:
            type: jsonl
            args:
              flushInterval: 2h
          E_1:
            type: jsonl
          f:
            klass: x
        """;

    assertThatThrownBy(() -> BrokerConfigReader.parse(yaml, SOURCE, Map.of()))
        .isInstanceOf(BrokerConfigException.class)
        .satisfies(
            e ->
                assertThat(((BrokerConfigException) e).violations())
                    .anySatisfy(
                        v ->
                            assertThat(v)
                                .startsWith(
                                    "Expected exporter 'a' to be usable, but: Expected type to"
                                        + " be one of [jsonl], but was 'kafka' (set in "
                                        + SOURCE
                                        + "; environment variables CAIRN_EXPORTERS_A_*)"))
                    .anySatisfy(
                        v ->
                            assertThat(v)
                                .contains("exporter 'b'")
                                .contains("exactly one of type and className, but both are set"))
                    .anySatisfy(
                        v ->
                            assertThat(v)
                                .contains("exporter 'c'")
                                .contains("'java.lang.String' is not one"))
                    .anySatisfy(
                        v ->
                            assertThat(v)
                                .contains("exporter 'd'")
                                .contains(
                                    "Expected argument flushInterval to be a duration in"
                                        + " [1ms, 1h], but was '2h'")
                                .contains(
                                    "Expected argument directory to name where the files" + " go"))
                    .anySatisfy(
                        v ->
                            assertThat(v)
                                .startsWith(
                                    "Expected the ids of exporters to be 1 to 32 of [a-z0-9-],"
                                        + " but one is 'E_1'"))
                    .anySatisfy(
                        v ->
                            assertThat(v)
                                .startsWith(
                                    "Expected only known fields in exporters.f, but klass is not"
                                        + " one")));
  }

  @Test
  void shouldLimitTheS3StoreByTheBackupRateUnlessItsOwnKeyIsSet() {
    String yaml =
        """
        backup:
          store: s3
          maxBytesPerSecond: 8MB
          s3:
            bucket: backups
            region: eu-west-1
        """;

    assertThat(
            BrokerConfigReader.parse(yaml, SOURCE, Map.of())
                .backup()
                .s3()
                .orElseThrow()
                .maxBytesPerSecond())
        .isEqualTo(8L << 20);
    assertThat(
            BrokerConfigReader.parse(
                    yaml, SOURCE, Map.of("CAIRN_BACKUP_S3_MAXBYTESPERSECOND", "1048576"))
                .backup()
                .s3()
                .orElseThrow()
                .maxBytesPerSecond())
        .isEqualTo(1L << 20);
  }

  @Test
  void shouldDefaultTheFilesystemStoresCopiesToTheUploadConcurrency() {
    BrokerConfig config =
        BrokerConfigReader.parse(
            "backup:\n  store: fs\n  uploadConcurrency: 40\n  fs:\n    basePath: /b\n",
            SOURCE,
            Map.of());

    assertThat(config.backup().fs().orElseThrow().maxConcurrentFileCopies()).isEqualTo(16);
    assertThat(config.backup().fs().orElseThrow().maxBytesPerSecond()).isZero();
  }
}
