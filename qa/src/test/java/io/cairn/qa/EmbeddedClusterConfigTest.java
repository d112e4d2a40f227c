package io.cairn.qa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The builder's defaults and its validation; a cluster that was never started. */
final class EmbeddedClusterConfigTest {

  @Test
  void shouldDefaultToThreeBrokersThreePartitionsAndAFilesystemStore() {
    EmbeddedClusterConfig config = EmbeddedCluster.builder().config();

    assertThat(config.brokers()).isEqualTo(3);
    assertThat(config.partitions()).isEqualTo(3);
    assertThat(config.replicationFactor()).isEqualTo(3);
    assertThat(config.backupStore()).isEqualTo(BackupStoreSpec.inDataDirectory());
    assertThat(config.dataDirectory()).isEmpty();
    assertThat(config.managementEnabled()).isTrue();
    assertThat(config.jsonlExporter()).isFalse();
    assertThat(EmbeddedCluster.builder().brokers(1).config().replicationFactor()).isEqualTo(1);
  }

  @Test
  void shouldListEveryViolationInOneMessage() {
    assertThatThrownBy(
            () ->
                EmbeddedCluster.builder()
                    .brokers(2)
                    .partitions(0)
                    .replicationFactor(3)
                    .clusterId(" ")
                    .brokerSetting("network.port", "1234")
                    .brokerSetting("backup.store", "s3")
                    .awaitTimeout(Duration.ZERO)
                    .config())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected partitions in [1, 64], but was 0")
        .hasMessageContaining("Expected replicationFactor in [1, brokers = 2], but was 3")
        .hasMessageContaining("clusterId")
        .hasMessageContaining("network.port")
        .hasMessageContaining("backup.store")
        .hasMessageContaining("awaitTimeout");
    assertThatThrownBy(() -> EmbeddedCluster.builder().brokers(17).config())
        .hasMessageContaining("Expected brokers in [1, 16], but was 17");
    assertThatThrownBy(() -> BackupStoreSpec.s3(Map.of("endpoint", "http://x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bucket");
  }

  @Test
  void shouldRefuseFaultsBeforeStartAndDeleteItsOwnDirectoryOnClose() {
    EmbeddedCluster cluster = EmbeddedCluster.builder().build();
    Path root = cluster.dataDirectory();
    assertThat(root.resolve("node-2")).isDirectory();
    assertThat(cluster.backupDirectory()).contains(root.resolve("backups"));

    assertThatThrownBy(() -> cluster.stop(0))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Expected broker 0 to run to stop it, but it is NEW");
    assertThatThrownBy(() -> cluster.kill(3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[0, 2]");
    assertThatThrownBy(() -> cluster.awaitLeader(4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("partition id in [1, 3]");
    assertThatThrownBy(cluster::client).isInstanceOf(IllegalStateException.class);

    cluster.close();
    cluster.close();
    assertThat(root).doesNotExist();
    assertThatThrownBy(cluster::start).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void shouldKeepADataDirectoryItWasGiven(@TempDir Path directory) {
    Path given = directory.resolve("cluster");
    try (EmbeddedCluster cluster = EmbeddedCluster.builder().dataDirectory(given).build()) {
      assertThat(cluster.dataDirectory()).isEqualTo(given);
    }
    assertThat(Files.isDirectory(given.resolve("node-0"))).isTrue();
  }
}
