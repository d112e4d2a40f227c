package io.cairn.qa;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.broker.config.BackupStoreType;
import io.cairn.broker.config.BrokerConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The YAML of an embedded broker reads back, through the broker's own reader, as intended. */
final class BrokerSettingsTest {

  @TempDir Path directory;

  @Test
  void shouldConfigureTheNodeShapePortsAndDirectoriesWithTheKitsDefaults() {
    EmbeddedClusterConfig cluster =
        EmbeddedCluster.builder().brokers(3).partitions(5).replicationFactor(3).config();

    BrokerConfig config =
        BrokerSettings.config(
            cluster, 2, directory.resolve("node-2"), 41_000, 42_000, directory.resolve("b"));

    assertThat(config.cluster().nodeId()).isEqualTo(2);
    assertThat(config.cluster().clusterId()).isEqualTo("embedded");
    assertThat(config.cluster().partitionCount()).isEqualTo(5);
    assertThat(config.cluster().replicationFactor()).isEqualTo(3);
    assertThat(config.cluster().members()).containsOnlyKeys(0, 1, 2);
    assertThat(config.network().host()).isEqualTo("127.0.0.1");
    assertThat(config.network().port()).isEqualTo(41_000);
    assertThat(config.management().port()).isEqualTo(42_000);
    assertThat(config.management().enabled()).isTrue();
    assertThat(config.data().directory()).isEqualTo(directory.resolve("node-2").toAbsolutePath());
    assertThat(config.data().preallocateSegmentFiles()).isFalse();
    assertThat(config.raft().electionTimeout()).isEqualTo(Duration.ofMillis(600));
    assertThat(config.backup().store()).isEqualTo(BackupStoreType.FS);
    assertThat(config.backup().fs().orElseThrow().basePath())
        .isEqualTo(directory.resolve("b").toAbsolutePath());
    assertThat(config.exporters()).isEmpty();
  }

  @Test
  void shouldApplyOverridesTheS3StoreAndTheExporter() {
    Map<String, String> s3 = new TreeMap<>();
    s3.put("bucket", "qa-bucket");
    s3.put("endpoint", "http://127.0.0.1:9000");
    s3.put("region", "us-east-1");
    s3.put("pathStyleAccess", "true");
    EmbeddedClusterConfig cluster =
        EmbeddedCluster.builder()
            .clusterId("other")
            .brokers(1)
            .partitions(1)
            .backupStore(BackupStoreSpec.s3(s3))
            .brokerSetting("raft.electionTimeout", "2s")
            .brokerSetting("data.snapshotInterval", "10s")
            .jsonlExporter(true)
            .managementEnabled(false)
            .config();

    BrokerConfig config =
        BrokerSettings.config(cluster, 0, directory.resolve("node-0"), 0, 0, null);

    assertThat(config.cluster().clusterId()).isEqualTo("other");
    assertThat(config.raft().electionTimeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(config.data().snapshotInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.management().enabled()).isFalse();
    assertThat(config.backup().store()).isEqualTo(BackupStoreType.S3);
    assertThat(config.backup().s3().orElseThrow().bucket()).isEqualTo("qa-bucket");
    assertThat(config.exporters()).hasSize(1);
    assertThat(config.exporters().get(0).id()).isEqualTo(EmbeddedClusterConfig.JSONL_EXPORTER_ID);
  }

  @Test
  void shouldRenderDottedKeysAsNestedYamlWithQuotedValues() {
    Map<String, String> values = new TreeMap<>();
    values.put("a.b", "1");
    values.put("a.c.d", "it's");
    values.put("e", "x");

    String yaml = BrokerSettings.yaml(new TreeMap<>(values), 2);

    assertThat(yaml)
        .isEqualTo(
            "a:\n  b: '1'\n  c:\n    d: 'it''s'\ne: 'x'\n"
                + "cluster:\n  members: ['127.0.0.1:1', '127.0.0.1:1']\n");
  }
}
