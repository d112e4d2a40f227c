package io.cairn.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.broker.config.BackupStoreType;
import io.cairn.broker.config.BrokerConfig;
import io.cairn.broker.config.BrokerConfigReader;
import io.cairn.config.ConfigException;
import io.cairn.gateway.GatewayConfig;
import io.cairn.gateway.config.GatewayConfigReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The files {@code cluster up} writes, read back by the brokers' own configuration reader. */
class ClusterFilesTest {
  @TempDir Path root;

  private final ClusterLayout layout = ClusterLayout.of(3, 3, 3, "127.0.0.1", 26501, 26500, 9600);

  @Test
  void shouldLayOutPortsAndValidateTheShape() {
    assertThat(layout.brokerPorts()).containsExactly(26501, 26502, 26503);
    assertThat(layout.managementPorts()).containsExactly(26601, 26602, 26603);
    assertThat(layout.violations()).isEmpty();
    assertThat(ClusterLayout.of(3, 0, 2, "h", 26501, 26500, 9600).violations())
        .containsExactly(
            "Expected --partitions in [1, 64], but was 0",
            "Expected --replication-factor to be one of 1, 3, 5, but was 2");
    assertThat(ClusterLayout.of(1, 1, 1, "h", 26500, 26500, 9600).violations())
        .singleElement()
        .asString()
        .startsWith("Expected distinct ports for brokers, management and gateway");
  }

  @Test
  void shouldWriteBrokerConfigurationsTheBrokerAccepts() {
    ClusterDirectory dir = new ClusterDirectory(root);
    List<Path> written = ClusterConfigFiles.writeMissing(dir, layout);
    assertThat(written)
        .containsExactly(
            root.resolve("broker-0.yaml"), root.resolve("broker-1.yaml"),
            root.resolve("broker-2.yaml"), root.resolve("gateway.yaml"));
    assertThat(dir.backups()).isDirectory();
    for (int nodeId = 0; nodeId < 3; nodeId++) {
      BrokerConfig config = BrokerConfigReader.read(dir.configFile("broker-" + nodeId), Map.of());
      assertThat(config.cluster().nodeId()).isEqualTo(nodeId);
      assertThat(config.cluster().partitionCount()).isEqualTo(3);
      assertThat(config.cluster().replicationFactor()).isEqualTo(3);
      assertThat(config.cluster().members()).hasSize(3);
      assertThat(config.cluster().members().get(2).port()).isEqualTo(26503);
      assertThat(config.network().port()).isEqualTo(26501 + nodeId);
      assertThat(config.data().directory()).isEqualTo(root.resolve("broker-" + nodeId));
      assertThat(config.backup().store()).isEqualTo(BackupStoreType.FS);
      assertThat(config.management().port()).isEqualTo(26601 + nodeId);
      assertThat(config.raft().electionTimeout()).isEqualTo(Duration.ofMillis(1500));
      assertThat(config.backup().archive()).isEmpty();
    }
  }

  @Test
  void shouldTurnOnTheLogArchiveOfAClusterCreatedWithArchive() throws Exception {
    ClusterDirectory dir = new ClusterDirectory(root);
    java.nio.file.Files.createDirectories(root);
    java.nio.file.Files.createFile(dir.archiveFlagFile());
    ClusterConfigFiles.writeMissing(dir, layout);
    for (int nodeId = 0; nodeId < 3; nodeId++) {
      BrokerConfig config = BrokerConfigReader.read(dir.configFile("broker-" + nodeId), Map.of());
      assertThat(config.backup().archive()).isPresent();
    }
  }

  @Test
  void shouldTakeAMarkerEveryIntervalOnAClusterCreatedWithAMarkerInterval() throws Exception {
    ClusterDirectory dir = new ClusterDirectory(root);
    java.nio.file.Files.createDirectories(root);
    java.nio.file.Files.writeString(dir.archiveFlagFile(), "1s");
    ClusterConfigFiles.writeMissing(dir, layout);
    for (int nodeId = 0; nodeId < 3; nodeId++) {
      BrokerConfig config = BrokerConfigReader.read(dir.configFile("broker-" + nodeId), Map.of());
      assertThat(config.backup().archive()).isPresent();
      assertThat(config.backup().schedule().orElseThrow().interval())
          .isEqualTo(Duration.ofHours(1));
      assertThat(config.backup().markers().orElseThrow().markerInterval())
          .isEqualTo(Duration.ofSeconds(1));
    }
  }

  @Test
  void shouldWaitForARestoreOnAClusterCreatedInRestoreMode() throws Exception {
    ClusterDirectory dir = new ClusterDirectory(root);
    java.nio.file.Files.createDirectories(root);
    java.nio.file.Files.writeString(dir.restoreModeFlagFile(), "");
    ClusterConfigFiles.writeMissing(dir, layout);
    for (int nodeId = 0; nodeId < 3; nodeId++) {
      BrokerConfig config = BrokerConfigReader.read(dir.configFile("broker-" + nodeId), Map.of());
      assertThat(config.data().restoreMode()).isTrue();
      assertThat(config.data().directory()).isEqualTo(root.resolve("broker-" + nodeId));
    }
  }

  @Test
  void shouldWriteAGatewayConfigurationTheGatewayAccepts() {
    ClusterDirectory dir = new ClusterDirectory(root);
    ClusterConfigFiles.writeMissing(dir, layout);
    // the gateway's own reader: every key must sit under gateway:, unknown keys are refused
    GatewayConfig config = GatewayConfigReader.read(dir.configFile("gateway"), Map.of()).config();
    assertThat(config.nodeId()).isEqualTo(1000);
    assertThat(config.grpcHost()).isEqualTo("127.0.0.1");
    assertThat(config.grpcPort()).isEqualTo(26500);
    assertThat(config.httpHost()).isEqualTo("127.0.0.1");
    assertThat(config.httpPort()).isEqualTo(9600);
    assertThat(config.transportHost()).isEqualTo("127.0.0.1");
    assertThat(config.transportPort()).isZero();
    assertThat(config.brokers()).hasSize(3);
    assertThat(config.brokers().get(1).port()).isEqualTo(26502);
    assertThat(config.requestTimeout()).isEqualTo(Duration.ofSeconds(15));
    assertThat(config.topologyRefreshInterval()).isEqualTo(Duration.ofMillis(250));
  }

  @Test
  void shouldRefuseTheOldTopLevelGatewayLayoutWithTheRealReader() throws Exception {
    // what an earlier version wrote: proves the reader used above does refuse a wrong layout
    Path file = root.resolve("old-gateway.yaml");
    Files.writeString(file, "grpc:\n  port: 26500\nrouting:\n  requestTimeout: 15s\n");
    assertThatThrownBy(() -> GatewayConfigReader.read(file, Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("grpc");
  }

  @Test
  void shouldPointBrokersAtAnotherClustersBackupStoreForRestores() {
    ClusterDirectory dir = new ClusterDirectory(root.resolve("restored"));
    Path backups = root.resolve("source/backups");
    ClusterConfigFiles.writeMissing(dir, layout, backups);
    assertThat(backups).isDirectory();
    assertThat(dir.backups()).doesNotExist();
    BrokerConfig config = BrokerConfigReader.read(dir.configFile("broker-2"), Map.of());
    assertThat(config.backup().fs().orElseThrow().basePath()).isEqualTo(backups);
    assertThat(config.data().directory()).isEqualTo(dir.dataDirectory(2));
  }

  @Test
  void shouldKeepFilesThatExistAndRoundTripTheLayout() throws Exception {
    ClusterDirectory dir = new ClusterDirectory(root);
    Files.writeString(dir.configFile("broker-1"), "# mine\n");
    List<Path> written = ClusterConfigFiles.writeMissing(dir, layout);
    assertThat(written).doesNotContain(dir.configFile("broker-1"));
    assertThat(Files.readString(dir.configFile("broker-1"))).isEqualTo("# mine\n");

    assertThat(dir.readLayout()).isEmpty();
    dir.writeLayout(layout);
    assertThat(dir.readLayout()).contains(layout);

    dir.writePid("gateway", 1234);
    assertThat(dir.readPid("gateway")).contains(1234L);
    dir.deletePid("gateway");
    assertThat(dir.readPid("gateway")).isEmpty();
  }

  @Test
  void shouldPassThisJvmsOptionsWithoutAgentsAndWithTheAgronaExport() {
    assertThat(
            ProcessLauncher.jvmOptions(
                List.of(
                    "-Xmx1g",
                    "-agentlib:jdwp=transport=dt_socket",
                    "-javaagent:/x.jar",
                    "-Dcairn.log.level=DEBUG")))
        .containsExactly(
            "-Xmx1g",
            "-Dcairn.log.level=DEBUG",
            "--add-exports",
            "java.base/jdk.internal.misc=ALL-UNNAMED");
    assertThat(
            ProcessLauncher.jvmOptions(
                List.of("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED")))
        .containsExactly("--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED");
    List<String> command =
        new ProcessLauncher("/jdk/bin/java", List.of("-Xmx64m"), "a.jar:b.jar")
            .command(List.of("broker", "--config", "b.yaml"));
    assertThat(command)
        .containsSubsequence(
            "/jdk/bin/java",
            "-Xmx64m",
            "-cp",
            "a.jar:b.jar",
            "io.cairn.cli.CairnMain",
            "broker",
            "--config",
            "b.yaml");
  }

  @Test
  void shouldGiveChildrenAnAbsoluteClassPathWhateverTheirWorkingDirectory() {
    assertThat(
            ProcessLauncher.absoluteClassPath(
                "cli/target/cairn-cli.jar::/opt/lib/a.jar:../b.jar", Path.of("/work/main")))
        .isEqualTo("/work/main/cli/target/cairn-cli.jar:/opt/lib/a.jar:/work/b.jar");
  }

  @Test
  void shouldFindFreePortsForAWholeCluster() {
    int[] ports = FreePorts.forCluster("127.0.0.1", 3, 7);
    ClusterLayout free = ClusterLayout.of(3, 3, 3, "127.0.0.1", ports[0], ports[1], ports[2]);
    assertThat(free.violations()).isEmpty();
    assertThat(free.allPorts()).allMatch(port -> FreePorts.isFree("127.0.0.1", port));
  }
}
