package io.cairn.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

final class RestoreConfigTest {

  @Test
  void shouldListEveryViolationWithKeyValueAndRange() {
    assertThatThrownBy(
            () ->
                RestoreConfig.builder()
                    .partitionConcurrency(0)
                    .storeRequestTimeout(Duration.ofMillis(10))
                    .partitionTimeout(Duration.ofDays(8))
                    .progressIntervalBytes(-1)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Expected partitionConcurrency in 1..16, but was 0")
        .hasMessageContaining("Expected storeRequestTimeout in 1s..1h, but was PT0.01S")
        .hasMessageContaining("Expected partitionTimeout in 1s..7d, but was PT192H")
        .hasMessageContaining("Expected progressIntervalBytes in 0..1073741824 bytes, but was -1");
  }

  @Test
  void shouldKeepValidValuesAndDefaults() {
    RestoreConfig config = RestoreConfig.builder().partitionConcurrency(16).build();

    assertThat(config.partitionConcurrency()).isEqualTo(16);
    assertThat(config.storeRequestTimeout()).isEqualTo(RestoreConfig.STORE_REQUEST_TIMEOUT_DEFAULT);
    assertThat(RestoreConfig.defaults().partitionConcurrency()).isEqualTo(8);
  }

  @Test
  void shouldParseLatestAndIdsAndRejectTheRest() {
    assertThat(BackupSelector.parse("latest")).isEqualTo(BackupSelector.latest());
    assertThat(BackupSelector.parse(" LATEST ")).isEqualTo(BackupSelector.latest());
    assertThat(BackupSelector.parse("12")).isEqualTo(BackupSelector.exact(12));
    assertThatThrownBy(() -> BackupSelector.parse("0"))
        .hasMessageContaining("Expected a backup id >= 1, but was 0");
    assertThatThrownBy(() -> BackupSelector.parse("newest"))
        .hasMessageContaining(
            "Expected a backup id (a positive integer) or 'latest', but was 'newest'");
  }

  @Test
  void shouldRefuseAShapeOrTargetThatCannotExist() {
    assertThatThrownBy(() -> new ClusterShape(2, 0, 3))
        .hasMessageContaining("partitionCount >= 1, but was 0")
        .hasMessageContaining(
            "1 <= replicationFactor <= clusterSize, but was 3 with clusterSize 2");
    assertThatThrownBy(
            () ->
                new RestoreTarget(
                    java.nio.file.Path.of("x"), "c", 3, new ClusterShape(3, 1, 1), "1.0.0"))
        .hasMessageContaining("Expected a node id in [0, 2], but was 3");
  }
}
